#include "core/broker/amqp/AmqpDeadline.h"

#include <sys/socket.h>

namespace outbox {

AmqpDeadline::~AmqpDeadline()
{
    {
        std::lock_guard<std::mutex> lock(m_mutex);
        m_stop = true;
    }
    m_wake.notify_all();
    if (m_thread.joinable())
        m_thread.join();
}

void AmqpDeadline::watch(int fd)
{
    std::lock_guard<std::mutex> lock(m_mutex);
    m_fd = fd;
}

void AmqpDeadline::arm(qint64 ms, const QString& what)
{
    // Cheap enough to arm around every publish: a lock, no wake-up (the thread looks every
    // CheckEveryMs), the thread started on first use.
    std::lock_guard<std::mutex> lock(m_mutex);
    m_armed = true;
    m_armedMs = ms;
    m_what = what;
    m_deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(std::max<qint64>(1, ms));
    if (!m_thread.joinable())
        m_thread = std::thread([this] { run(); });
}

void AmqpDeadline::disarm()
{
    std::lock_guard<std::mutex> lock(m_mutex);
    m_armed = false; // the thread finds out when it wakes; no need to wake it now
}

QString AmqpDeadline::expiredText() const
{
    std::lock_guard<std::mutex> lock(m_mutex);
    return m_expiredText;
}

void AmqpDeadline::run()
{
    std::unique_lock<std::mutex> lock(m_mutex);
    while (!m_stop) {
        const auto now = std::chrono::steady_clock::now();
        if (m_armed && now >= m_deadline) {
            // Passed while still armed: cut the socket; the waiting call returns with an error.
            m_armed = false;
            m_expiredText = QStringLiteral("no answer: %1 took longer than %2 ms").arg(m_what).arg(m_armedMs);
            m_expired = true;
            if (m_fd >= 0)
                ::shutdown(m_fd, SHUT_RDWR);
            continue;
        }
        auto until = now + std::chrono::milliseconds(CheckEveryMs);
        if (m_armed && m_deadline < until)
            until = m_deadline;
        m_wake.wait_until(lock, until, [this] { return m_stop; });
    }
}

} // namespace outbox
