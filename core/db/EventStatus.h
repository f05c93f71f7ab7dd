#pragma once

#include "core/support/Result.h"

#include <QString>
#include <QStringList>

namespace outbox {

// States of an outbox event; docs/architecture.md draws the transitions and who makes each.
namespace EventStatus {
inline const QString Pending = QStringLiteral("PENDING");
inline const QString Sending = QStringLiteral("SENDING");
inline const QString Sent = QStringLiteral("SENT");
inline const QString Failed = QStringLiteral("FAILED");
inline const QString Dead = QStringLiteral("DEAD");

inline QStringList all()
{
    return {Pending, Sending, Sent, Failed, Dead};
}

// Accepts any case; an unknown name is a usage error naming the valid ones.
inline Result<QString> parse(const QString& text)
{
    const QString upper = text.trimmed().toUpper();
    if (all().contains(upper))
        return upper;
    return Error::usage(QStringLiteral("unknown status \"%1\" (expected one of %2)")
                            .arg(text, all().join(QStringLiteral(", "))));
}
} // namespace EventStatus

// States of a dead letter (consumer-side DLQ).
namespace DeadLetterStatus {
inline const QString New = QStringLiteral("NEW");
inline const QString Replaying = QStringLiteral("REPLAYING");
inline const QString Replayed = QStringLiteral("REPLAYED");
inline const QString Discarded = QStringLiteral("DISCARDED");

inline QStringList all()
{
    return {New, Replaying, Replayed, Discarded};
}

inline Result<QString> parse(const QString& text)
{
    const QString upper = text.trimmed().toUpper();
    if (all().contains(upper))
        return upper;
    return Error::usage(QStringLiteral("unknown dead-letter status \"%1\" (expected one of %2)")
                            .arg(text, all().join(QStringLiteral(", "))));
}
} // namespace DeadLetterStatus

} // namespace outbox
