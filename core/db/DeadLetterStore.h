#pragma once

#include "core/db/DeadLetter.h"
#include "core/db/DeadLetterFilter.h"
#include "core/support/Result.h"

#include <QMap>
#include <QVector>

namespace outbox {

class Database;

struct DeadLetterPage
{
    QVector<DeadLetter> letters;
    qint64 nextAfterId = 0;
};

class DeadLetterStore
{
public:
    explicit DeadLetterStore(Database& db) : m_db(db) {}

    // Records a message a consumer gave up on (inside the caller's transaction, if any).
    Result<qint64> insert(const DeadLetter& letter);
    Result<DeadLetterPage> list(const DeadLetterFilter& filter, qint64 afterId, int limit);
    Result<DeadLetter> find(qint64 id);
    Result<QMap<QString, qint64>> countsByStatus();

private:
    Database& m_db;
};

} // namespace outbox
