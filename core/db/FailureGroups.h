#pragma once

#include "core/support/Result.h"

#include <QString>
#include <QVector>

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
    // Ids of the events in the group (ascending), at most `limit`, starting after `afterId`.
    Result<QVector<qint64>> ids(const FailureGroup& group, qint64 afterId, int limit);

    static QString fingerprint(const QString& errorText);

private:
    Database& m_db;
};

} // namespace outbox
