#pragma once

#include "core/db/Database.h"
#include "ui/desktop/connection/DatabaseSessionWorker.h"

#include <QPointer>
#include <QThread>
#include <functional>

namespace outbox::desktop {

// `done` for a read a newer one can overtake (a page reloading): it runs only while `generation`
// is still `*latest`, with the value read; an error goes to `failed`.
template <typename T>
std::function<void(const Result<T>&)> latestRead(const quint64* latest, quint64 generation,
                                                 std::function<void(const QString&)> failed,
                                                 std::function<void(const T&)> done)
{
    return [latest, generation, failed = std::move(failed), done = std::move(done)](const Result<T>& r) {
        if (generation != *latest)
            return;
        if (!r.ok())
            return failed(r.message());
        done(*r);
    };
}

// A database connection on its own thread. The GUI hands it jobs (a function of Database&) and
// gets the result back on the GUI thread; nothing here ever blocks the caller. Jobs run in order.
class DatabaseSession : public QObject
{
    Q_OBJECT

public:
    DatabaseSession(const DatabaseTarget& target, const QString& purpose, QObject* parent = nullptr);
    ~DatabaseSession() override;

    const DatabaseTarget& target() const { return m_target; }
    const DatabaseUrl& url() const { return m_target.url(); }
    bool connected() const { return m_connected; }

    // Runs `work` on the session thread, then `done` on the GUI thread if `receiver` still exists.
    template <typename T>
    void run(QObject* receiver, std::function<Result<T>(Database&)> work,
             std::function<void(const Result<T>&)> done)
    {
        QPointer<QObject> guard(receiver);
        DatabaseSessionWorker* worker = m_worker;
        QMetaObject::invokeMethod(
            worker,
            [this, worker, guard, work = std::move(work), done = std::move(done)]() {
                QString error;
                Database* db = worker->database(&error);
                Result<T> result = db ? work(*db) : Result<T>(Error::runtime(error));
                bool alive = true;
                if (!result.ok() && result.error().kind == ErrorKind::Runtime)
                    alive = worker->checkAlive();
                const QString message = result.ok() ? QString() : result.message();
                QMetaObject::invokeMethod(
                    this,
                    [this, guard, done, result, alive, message]() {
                        setConnected(alive, message);
                        if (guard)
                            done(result);
                    },
                    Qt::QueuedConnection);
            },
            Qt::QueuedConnection);
    }

signals:
    void connectionLost(const QString& message);
    void connectionRestored();

private:
    void setConnected(bool connected, const QString& message);

    DatabaseTarget m_target;
    QThread m_thread;
    DatabaseSessionWorker* m_worker = nullptr;
    bool m_connected = true;
};

} // namespace outbox::desktop
