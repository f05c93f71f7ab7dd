#pragma once

#include "core/db/DatabaseTarget.h"
#include "core/ops/BulkActionEngine.h"

#include <QDateTime>
#include <QHash>
#include <QJsonArray>
#include <QJsonObject>
#include <QMutex>
#include <functional>
#include <memory>
#include <optional>

namespace outbox::web {

// Bulk actions of the JSON API that take more than one chunk, run as jobs: each on a thread of
// its own with its own database connection (never on the HTTP thread, never holding a lane of
// the read pool), through core's BulkActionEngine. Progress and the outcome are kept in memory
// for GET /api/v1/jobs/{id}; DELETE asks the engine to stop between chunks. Bounded: at most
// MaxRunning jobs run at once and at most MaxRetained are remembered (finished ones are dropped
// after RetainFinishedMs, oldest first when the table is full). The audit log, not this table, is
// the durable record: jobs do not survive a restart of the server.
//
// Changes are announced, not polled: the listener (set once, before the first job) is called on
// the job's thread after each chunk and when the job ends, at most once until takeUpdate() has
// read the job, so a slow reader gets one announcement per job, not a queue of them.
class ActionJobs
{
public:
    static constexpr int MaxRunning = 2;
    static constexpr int MaxRetained = 50;
    static constexpr qint64 RetainFinishedMs = 60LL * 60 * 1000;

    explicit ActionJobs(DatabaseTarget target);
    // Cancels every running job and waits for it: a chunk under way commits first.
    ~ActionJobs();
    ActionJobs(const ActionJobs&) = delete;
    ActionJobs& operator=(const ActionJobs&) = delete;

    // Starts `request` (already validated) as a job that runs with `preview` (its count is the
    // progress total; nothing is counted again) and returns its JSON; nothing when MaxRunning jobs
    // are running already.
    std::optional<QJsonObject> start(ActionKind kind, const ActionRequest& request,
                                     const ActionResult& preview);
    // The job's JSON: state (running, done, cancelled, failed), progress, and when finished
    // the engine's result without sample rows; nothing for an unknown id.
    std::optional<QJsonObject> status(const QString& id);
    // Asks a running job to stop before its next chunk. NotFound for an unknown id, Conflict
    // when the job has finished already.
    Result<QJsonObject> cancel(const QString& id);
    // Every retained job, newest first.
    QJsonArray list();

    using Listener = std::function<void(const QString& id)>;
    // Called on a job's thread when the job changed (see above); set before any job starts.
    void setListener(Listener listener) { m_listener = std::move(listener); }
    // status() for the announcement of `id`: re-arms the listener for that job first, so a change
    // made while this reads is announced again.
    std::optional<QJsonObject> takeUpdate(const QString& id);
    // Where the API serves these jobs ("/api/v1", or "/api/v1/members/orders" for a fleet member's):
    // a job's href and the Location of its 202 lead to it. Set before any job starts.
    void setApiBase(QString base) { m_apiBase = std::move(base); }

private:
    struct Job;

    void pruneLocked();
    QJsonObject toJsonLocked(const Job& job) const;

    DatabaseTarget m_target;
    QString m_apiBase = QStringLiteral("/api/v1");
    Listener m_listener;
    QMutex m_mutex;
    QHash<QString, std::shared_ptr<Job>> m_jobs;
};

} // namespace outbox::web
