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

// The condition on queue_state (migration 11) that goes with a condition on these statuses:
// PENDING and SENDING are both OPEN, every other status is its own queue state. PostgreSQL's
// partial indexes are predicated on queue_state, not on status (the claim, PENDING -> SENDING,
// changes no indexed column and stays a HOT update), so a query on status names the matching
// queue states too for the planner to use them. Built from the fixed names only; empty when no
// known status is given.
inline QString queueStateCondition(const QStringList& statuses,
                                   const QString& column = QStringLiteral("queue_state"))
{
    QStringList states;
    for (const QString& known : all()) {
        bool named = false;
        for (const QString& s : statuses)
            named = named || s.trimmed().compare(known, Qt::CaseInsensitive) == 0;
        if (!named)
            continue;
        const QString state = QLatin1Char('\'') +
                              (known == Pending || known == Sending ? QStringLiteral("OPEN") : known) +
                              QLatin1Char('\'');
        if (!states.contains(state))
            states << state;
    }
    if (states.isEmpty())
        return {};
    if (states.size() == 1)
        return column + QStringLiteral(" = ") + states.first();
    return column + QStringLiteral(" IN (") + states.join(QStringLiteral(", ")) + QLatin1Char(')');
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
