#pragma once

#include "core/db/Database.h"
#include "core/db/DatabaseTarget.h"
#include "ui/web/http/WebReply.h"

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
    // Runs `job` on the thread's connection. A pooled connection the server has closed (a
    // PostgreSQL restart, a killed backend) fails its next statement: when a job fails and the
    // connection no longer answers, it is opened again and the job runs once more; a database that
    // cannot be reached answers 503 (the API's "not there yet"), never 500.
    WebReply run(const std::function<WebReply(Database&)>& job);

private:
    DatabaseTarget m_target;
    std::unique_ptr<Database> m_db;
};

} // namespace outbox::web
