#include "ui/web/api/ActionJobs.h"

#include "core/db/Database.h"

#include <QMutexLocker>
#include <QThread>
#include <QUuid>
#include <algorithm>
#include <atomic>

namespace outbox::web {

struct ActionJobs::Job
{
    QString id;
    ActionKind kind = ActionKind::Requeue;
    QString actor;
    QString reason;
    QJsonObject target;
    QDateTime createdAt;
    std::atomic<bool> cancel{false};
    std::atomic<bool> announced{false}; // a change was announced and not yet read (takeUpdate)
    std::unique_ptr<QThread> thread;

    mutable QMutex mutex; // guards the fields below, written by the job's thread
    QString state = QStringLiteral("running");
    BulkProgress progress;
    QDateTime finishedAt;
    QJsonObject result;
    QString error;
};

namespace {

QJsonObject targetJson(const ActionRequest& r)
{
    QJsonObject t;
    if (!r.ids.isEmpty())
        t[QStringLiteral("ids")] = r.ids.size();
    if (r.eventFilter)
        t[QStringLiteral("filter")] = r.eventFilter->toJson();
    if (r.deadLetterFilter)
        t[QStringLiteral("filter")] = r.deadLetterFilter->toJson();
    if (r.group)
        t[QStringLiteral("group")] = r.group->toJson();
    if (r.deadLetterGroup)
        t[QStringLiteral("group")] = r.deadLetterGroup->toJson();
    return t;
}

} // namespace

ActionJobs::ActionJobs(DatabaseTarget target) : m_target(std::move(target)) {}

ActionJobs::~ActionJobs()
{
    QHash<QString, std::shared_ptr<Job>> jobs;
    {
        QMutexLocker lock(&m_mutex);
        jobs.swap(m_jobs);
    }
    for (const auto& job : jobs)
        job->cancel.store(true);
    for (const auto& job : jobs)
        job->thread->wait();
}

std::optional<QJsonObject> ActionJobs::start(ActionKind kind, const ActionRequest& request,
                                             const ActionResult& preview)
{
    QMutexLocker lock(&m_mutex);
    pruneLocked();
    int running = 0;
    for (const auto& job : std::as_const(m_jobs)) {
        QMutexLocker jobLock(&job->mutex);
        if (job->state == QLatin1String("running"))
            ++running;
    }
    if (running >= MaxRunning || m_jobs.size() >= MaxRetained)
        return std::nullopt;

    auto job = std::make_shared<Job>();
    job->id = QUuid::createUuid().toString(QUuid::WithoutBraces);
    job->kind = kind;
    job->actor = request.actor;
    job->reason = request.reason.trimmed();
    job->target = targetJson(request);
    job->createdAt = QDateTime::currentDateTimeUtc();
    job->progress.action = actionName(kind);
    job->progress.expected = preview.matched;
    const DatabaseTarget target = m_target;
    const Listener listener = m_listener;
    auto announce = [job, listener]() {
        if (listener && !job->announced.exchange(true))
            listener(job->id);
    };
    job->thread.reset(QThread::create([job, kind, request, preview, target, announce]() {
        Result<ActionResult> result = Error::runtime(QStringLiteral("the job did not run"));
        {
            auto db = target.open(QStringLiteral("web-job"));
            if (!db) {
                result = db.error();
            } else {
                BulkControl control;
                control.cancelRequested = [job]() { return job->cancel.load(); };
                control.progress = [job, announce](const BulkProgress& p) {
                    {
                        QMutexLocker jobLock(&job->mutex);
                        job->progress = p;
                    }
                    announce();
                };
                result = BulkActionEngine(**db).run(kind, request, preview, control);
            }
        } // the connection closes on this thread, which opened it
        QMutexLocker jobLock(&job->mutex);
        job->finishedAt = QDateTime::currentDateTimeUtc();
        if (!result) {
            job->state = QStringLiteral("failed");
            job->error = result.message();
            jobLock.unlock();
            announce();
            return;
        }
        job->state = result->cancelled ? QStringLiteral("cancelled") : QStringLiteral("done");
        job->result = result->toJson();
        job->result.remove(QStringLiteral("sample")); // viewers read jobs: no payloads here
        job->progress.expected = result->expected;
        job->progress.processed = result->processed();
        job->progress.affected = result->affected;
        job->progress.conflicts = result->conflictCount;
        job->progress.chunks = result->chunks;
        job->progress.lastId = result->lastId;
        jobLock.unlock();
        announce();
    }));
    job->thread->setObjectName(QStringLiteral("web-job"));
    m_jobs.insert(job->id, job);
    job->thread->start();
    return toJsonLocked(*job);
}

std::optional<QJsonObject> ActionJobs::status(const QString& id)
{
    QMutexLocker lock(&m_mutex);
    pruneLocked();
    const auto it = m_jobs.constFind(id);
    if (it == m_jobs.constEnd())
        return std::nullopt;
    return toJsonLocked(**it);
}

std::optional<QJsonObject> ActionJobs::takeUpdate(const QString& id)
{
    QMutexLocker lock(&m_mutex);
    const auto it = m_jobs.constFind(id);
    if (it == m_jobs.constEnd())
        return std::nullopt;
    (*it)->announced.store(false); // before reading: a later change is announced again
    return toJsonLocked(**it);
}

Result<QJsonObject> ActionJobs::cancel(const QString& id)
{
    QMutexLocker lock(&m_mutex);
    pruneLocked();
    const auto it = m_jobs.constFind(id);
    if (it == m_jobs.constEnd())
        return Error::notFound(
            QStringLiteral("there is no job %1 (finished jobs are kept for an hour)").arg(id));
    Job& job = **it;
    {
        QMutexLocker jobLock(&job.mutex);
        if (job.state != QLatin1String("running"))
            return Error::conflict(QStringLiteral("job %1 has finished already (%2)").arg(id, job.state));
    }
    job.cancel.store(true);
    return toJsonLocked(job);
}

QJsonArray ActionJobs::list()
{
    QMutexLocker lock(&m_mutex);
    pruneLocked();
    QVector<std::shared_ptr<Job>> jobs(m_jobs.cbegin(), m_jobs.cend());
    std::sort(jobs.begin(), jobs.end(),
              [](const auto& a, const auto& b) { return a->createdAt > b->createdAt; });
    QJsonArray out;
    for (const auto& job : jobs)
        out.append(toJsonLocked(*job));
    return out;
}

void ActionJobs::pruneLocked()
{
    const QDateTime now = QDateTime::currentDateTimeUtc();
    QVector<std::pair<QDateTime, QString>> finished;
    for (const auto& job : std::as_const(m_jobs)) {
        QMutexLocker jobLock(&job->mutex);
        if (job->state != QLatin1String("running"))
            finished.append({job->finishedAt, job->id});
    }
    std::sort(finished.begin(), finished.end());
    // Expired ones, then the oldest while the table is full (a slot stays free for a new job).
    for (const auto& [finishedAt, id] : finished) {
        const bool expired = finishedAt.msecsTo(now) > RetainFinishedMs;
        if (!expired && m_jobs.size() < MaxRetained)
            continue;
        std::shared_ptr<Job> job = m_jobs.take(id);
        job->thread->wait(); // it has set its final state; this only joins the thread
    }
}

QJsonObject ActionJobs::toJsonLocked(const Job& job) const
{
    QMutexLocker jobLock(&job.mutex);
    QJsonObject o;
    o[QStringLiteral("id")] = job.id;
    o[QStringLiteral("href")] = QString(m_apiBase + QStringLiteral("/jobs/") + job.id);
    o[QStringLiteral("action")] = actionName(job.kind);
    o[QStringLiteral("state")] = job.state;
    o[QStringLiteral("actor")] = job.actor;
    o[QStringLiteral("reason")] = job.reason;
    o[QStringLiteral("target")] = job.target;
    o[QStringLiteral("created_at")] = job.createdAt.toString(Qt::ISODateWithMs);
    o[QStringLiteral("finished_at")] =
        job.finishedAt.isValid() ? QJsonValue(job.finishedAt.toString(Qt::ISODateWithMs)) : QJsonValue();
    o[QStringLiteral("cancel_requested")] = job.cancel.load();
    o[QStringLiteral("progress")] = QJsonObject{{QStringLiteral("expected"), job.progress.expected},
                                                {QStringLiteral("processed"), job.progress.processed},
                                                {QStringLiteral("affected"), job.progress.affected},
                                                {QStringLiteral("conflicts"), job.progress.conflicts},
                                                {QStringLiteral("chunks"), job.progress.chunks},
                                                {QStringLiteral("last_id"), job.progress.lastId}};
    if (!job.result.isEmpty())
        o[QStringLiteral("result")] = job.result;
    if (!job.error.isEmpty())
        o[QStringLiteral("error")] = job.error;
    return o;
}

} // namespace outbox::web
