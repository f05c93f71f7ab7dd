#pragma once

#include "core/db/Database.h"
#include "core/db/DatabaseTarget.h"

#include <QObject>
#include <functional>
#include <memory>

namespace outbox::desktop {

// Lives on a DatabaseSession's thread and owns that thread's connection. The connection is opened
// on first use and reopened after it was found dead, so a lost server heals by itself.
class DatabaseSessionWorker : public QObject
{
    Q_OBJECT

public:
    DatabaseSessionWorker(DatabaseTarget target, QString purpose)
        : m_target(std::move(target)), m_purpose(std::move(purpose))
    {
    }

    // Opens the connection when needed; nullptr and `error` set when the server cannot be reached.
    Database* database(QString* error);
    // Called after a job failed with a runtime error: drops the connection if it no longer answers.
    bool checkAlive();
    void close() { m_db.reset(); }

private:
    DatabaseTarget m_target;
    QString m_purpose;
    std::unique_ptr<Database> m_db;
};

} // namespace outbox::desktop
