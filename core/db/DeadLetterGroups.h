#pragma once

#include "core/db/FilterField.h"
#include "core/support/Result.h"

#include <QJsonObject>
#include <QString>
#include <QStringList>
#include <QVector>
#include <functional>

namespace outbox {

class Database;

// Dead letters of one consumer that failed the same way: same error class and the same error
// text once the parts that differ per message (numbers, UUIDs, hex) are normalised away (the
// fingerprint of event failure groups, core/db/FailureGroups).
struct DeadLetterGroup
{
    QString consumerName;
    QString errorClass; // DeadLetterGroups::errorClass() of the error text
    QString fingerprint;
    QString example; // one original error text of the group
    qint64 count = 0;
    qint64 firstId = 0;
    // The statuses the group was counted over (empty: NEW); ids() returns members in these only,
    // so a replayed dead letter leaves a NEW group.
    QStringList statuses;
    // How the requester was shown fingerprints (a viewer's masking, which may merge groups): ids()
    // then takes the letters whose fingerprint looks like `fingerprint` once passed through it.
    // Empty: fingerprints as they are.
    std::function<QString(const QString&)> fingerprintSeenAs;

    QJsonObject toJson() const;
    // A group as a caller names it (GET /api/v1/dead-letters/groups lists it so): "consumer",
    // "error_class", "fingerprint" (strings) and "statuses" (absent: NEW); another field or an
    // unknown status is refused.
    static Result<DeadLetterGroup> fromJson(const QJsonObject& json);
};

// Groups dead letters by (consumer, error class, fingerprint) and turns a group back into the
// ids a bulk action (replay, discard) can target.
class DeadLetterGroups
{
public:
    static constexpr int MaxDistinctErrors = 20000;

    explicit DeadLetterGroups(Database& db) : m_db(db) {}

    // The groups of dead letters in `statuses` (empty: NEW), largest first. Unknown status names
    // are a usage error.
    Result<QVector<DeadLetterGroup>> list(const QStringList& statuses = {});
    // Ids of the group's dead letters (ascending), at most `limit`, after `afterId`.
    Result<QVector<qint64>> ids(const DeadLetterGroup& group, qint64 afterId, int limit);

    // How a consumer gave up: "retries_exhausted" (transient failures until the attempts ran out,
    // "retries exhausted after N attempts: …") or "permanent" (the handler or the consumer refused
    // the message: a poison payload, an unknown schema version, invalid JSON).
    static QString errorClass(const QString& error);
    // Whether a dead letter with this error text is one of the group's (its class and fingerprint).
    static bool isMember(const DeadLetterGroup& group, const QString& error);
    // The fields the group list takes (GET /api/v1/filters serves them as "dead_letter_groups"):
    // "status", the statuses a group is counted over (NEW, REPLAYED or DISCARDED; several
    // comma-separated; a letter being replayed is in no group's choice), and "consumer".
    static QVector<FilterField> fields();

private:
    Database& m_db;
};

} // namespace outbox
