#pragma once

#include "core/db/DatabaseTarget.h"
#include "ui/web/http/WebReply.h"

#include <QObject>
#include <QPointer>
#include <QThread>
#include <atomic>
#include <functional>
#include <memory>
#include <vector>

namespace outbox {
class Database;
}

namespace outbox::web {

class DatabaseWorker;

// A few threads, each with its own connection, that run the API's database work so the
// server's event loop never waits for the database (qBittorrent learnt this the hard way).
class DatabaseWorkerPool : public QObject
{
    Q_OBJECT

public:
    using Job = std::function<WebReply(Database&)>;
    using Done = std::function<void(const WebReply&)>;

    DatabaseWorkerPool(const DatabaseTarget& target, int threads, QObject* parent = nullptr);
    ~DatabaseWorkerPool() override;

    // Runs `job` on the least busy thread, then `done` on `context`'s thread (skipped if
    // `context` is gone). When too much work is queued, `done` gets a 503 at once.
    void submit(Job job, QObject* context, Done done);
    int pending() const { return m_pending.load(); }
    // Where the pool's connections go (for work that needs a connection of its own).
    const DatabaseTarget& target() const { return m_target; }

    static constexpr int MaxQueued = 256;

private:
    struct Lane
    {
        std::unique_ptr<QThread> thread;
        DatabaseWorker* worker = nullptr;
        std::shared_ptr<std::atomic<int>> queued;
    };

    DatabaseTarget m_target;
    std::vector<Lane> m_lanes;
    std::atomic<int> m_pending{0};
};

} // namespace outbox::web
