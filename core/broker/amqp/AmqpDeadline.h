#pragma once

#include <QString>
#include <atomic>
#include <condition_variable>
#include <mutex>
#include <thread>

namespace outbox {

// An overall deadline on what a rabbitmq-c call waits for (connect and handshake, publishing a batch,
// reading a returned message, a close). rabbitmq-c bounds some of its waits per read and writes with
// no bound at all, so a broker that trickles its handshake or stops reading its socket would hold
// the calling thread for ever, and the relay's SIGTERM with it. A thread of its own shuts the socket
// down (shutdown(2)) once an armed deadline passes: the blocked call returns with a socket error and
// the connection is broken; its owner asks expired() to say why, and reconnects later.
class AmqpDeadline
{
public:
    AmqpDeadline() = default;
    ~AmqpDeadline();
    AmqpDeadline(const AmqpDeadline&) = delete;
    AmqpDeadline& operator=(const AmqpDeadline&) = delete;

    // The socket to shut down (-1: none yet).
    void watch(int fd);
    // From now on, `what` ("the handshake", "publishing") may take at most `ms`.
    void arm(qint64 ms, const QString& what);
    void disarm();
    // The deadline passed and the socket was shut down: "the handshake took longer than 5000 ms".
    bool expired() const { return m_expired.load(); }
    QString expiredText() const;

private:
    static constexpr int CheckEveryMs = 50; // a deadline fires at most this late
    void run();

    mutable std::mutex m_mutex;
    std::condition_variable m_wake;
    std::thread m_thread;
    bool m_stop = false;
    int m_fd = -1;
    bool m_armed = false;
    std::chrono::steady_clock::time_point m_deadline;
    qint64 m_armedMs = 0;
    QString m_what;
    QString m_expiredText;
    std::atomic<bool> m_expired{false};
};

// Arms a deadline for its scope.
class AmqpDeadlineScope
{
public:
    AmqpDeadlineScope(AmqpDeadline& deadline, qint64 ms, const QString& what) : m_deadline(deadline)
    {
        m_deadline.arm(ms, what);
    }
    ~AmqpDeadlineScope() { m_deadline.disarm(); }
    AmqpDeadlineScope(const AmqpDeadlineScope&) = delete;
    AmqpDeadlineScope& operator=(const AmqpDeadlineScope&) = delete;

private:
    AmqpDeadline& m_deadline;
};

} // namespace outbox
