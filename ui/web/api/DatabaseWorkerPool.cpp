#include "ui/web/api/DatabaseWorkerPool.h"

#include "core/db/Database.h"
#include "ui/web/api/DatabaseWorker.h"

#include <QCoreApplication>

namespace outbox::web {

DatabaseWorkerPool::DatabaseWorkerPool(const DatabaseTarget& target, int threads, QObject* parent)
    : QObject(parent), m_target(target)
{
    for (int i = 0; i < std::max(1, threads); ++i) {
        Lane lane;
        lane.thread = std::make_unique<QThread>();
        lane.thread->setObjectName(QStringLiteral("web-db-%1").arg(i));
        lane.worker = new DatabaseWorker(target);
        lane.worker->moveToThread(lane.thread.get());
        connect(lane.thread.get(), &QThread::finished, lane.worker, &QObject::deleteLater);
        lane.queued = std::make_shared<std::atomic<int>>(0);
        lane.thread->start();
        m_lanes.push_back(std::move(lane));
    }
}

DatabaseWorkerPool::~DatabaseWorkerPool()
{
    for (Lane& lane : m_lanes) {
        lane.thread->quit();
        lane.thread->wait();
    }
}

void DatabaseWorkerPool::submit(Job job, QObject* context, Done done)
{
    if (m_pending.load() >= MaxQueued) {
        done(WebReply::error(503, QCoreApplication::translate("outbox::web::DatabaseWorkerPool",
                                                              "the server is busy; try again in a moment")));
        return;
    }
    Lane* lane = &m_lanes.front();
    for (Lane& l : m_lanes)
        if (l.queued->load() < lane->queued->load())
            lane = &l;
    ++m_pending;
    ++*lane->queued;
    QPointer<QObject> target(context);
    DatabaseWorkerPool* pool = this; // outlives the job: the destructor joins the threads first
    DatabaseWorker* worker = lane->worker;
    auto queued = lane->queued;
    QMetaObject::invokeMethod(
        worker,
        [worker, job = std::move(job), done = std::move(done), target, pool, queued]() {
            const WebReply reply = worker->run(job);
            --*queued;
            QMetaObject::invokeMethod(
                pool,
                [done, reply, target, pool]() {
                    --pool->m_pending;
                    if (target)
                        done(reply);
                },
                Qt::QueuedConnection);
        },
        Qt::QueuedConnection);
}

} // namespace outbox::web
