#pragma once

#include "core/db/Database.h"
#include "core/db/DatabaseTarget.h"

#include <QObject>
#include <functional>
#include <memory>

namespace outbox::web {

// Lives on one of the pool's threads and owns that thread's connection, opened on first use
// and reopened after a failure (QtSql connections belong to the thread that opened them).
class DatabaseWorker : public QObject
{
    Q_OBJECT

public:
    explicit DatabaseWorker(DatabaseTarget target);

    // Runs on the worker's thread. Gives nullptr and sets `error` when no connection can be made.
    Database* connection(Error* error);
    void dropConnection() { m_db.reset(); }

private:
    DatabaseTarget m_target;
    std::unique_ptr<Database> m_db;
};

} // namespace outbox::web
