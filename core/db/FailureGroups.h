#pragma once

#include "core/support/Result.h"

#include <QJsonObject>
#include <QString>
#include <QStringList>
#include <QVector>
#include <functional>

namespace outbox {

class Database;

// Unsent events that failed the same way: same error class and the same error text once the
// parts that differ per event (numbers, UUIDs, hex) are normalised away.
struct FailureGroup
{
    QString errorClass;
    QString fingerprint; // normalised error text
    QString example;     // one original error text of the group
    qint64 count = 0;
    qint64 firstId = 0; // smallest id in the group, as a stable handle
    // The statuses the group was counted over (empty: PENDING, SENDING, FAILED and DEAD); ids()
    // returns members in these statuses only, so a requeued (PENDING) event leaves a FAILED group.
    QStringList statuses;
    // How the requester was shown fingerprints (a viewer's masking, which may merge groups): ids()
    // then takes the events whose fingerprint looks like `fingerprint` once passed through it.
    // Empty: fingerprints as they are.
    std::function<QString(const QString&)> fingerprintSeenAs;

    // {"error_class", "fingerprint", "example", "count", "first_id", "statuses"}, as
    // GET /api/v1/failure-groups lists it.
    QJsonObject toJson() const;
    // A group as a caller names it: "error_class", "fingerprint" (strings) and "statuses" (absent:
    // any); another field or an unknown status is refused.
    static Result<FailureGroup> fromJson(const QJsonObject& json);
};

// Groups PENDING/SENDING/FAILED/DEAD events with an error by (error class, fingerprint), and
// turns a group back into the ids an operator action can target.
class FailureGroups
{
public:
    static constexpr int MaxDistinctErrors = 20000;

    explicit FailureGroups(Database& db) : m_db(db) {}

    // The groups, largest first.
    Result<QVector<FailureGroup>> list();
    // The groups of events in `statuses` only (e.g. FAILED: the same events the FAILED count
    // counts). Unknown status names are a usage error.
    Result<QVector<FailureGroup>> list(const QStringList& statuses);
    // Ids of the events in the group (ascending), at most `limit`, starting after `afterId`.
    Result<QVector<qint64>> ids(const FailureGroup& group, qint64 afterId, int limit);

    static QString fingerprint(const QString& errorText);

private:
    Database& m_db;
};

} // namespace outbox
