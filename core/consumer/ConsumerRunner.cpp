#include "core/consumer/ConsumerRunner.h"

namespace outbox {

ConsumerRunner::ConsumerRunner(DatabaseTarget target, ConsumerOptions options, InboxConsumer::Handler handler,
                               InboxConsumerStats& stats, Logger log)
    : m_target(std::move(target)), m_options(std::move(options)), m_handler(std::move(handler)),
      m_stats(stats), m_log(std::move(log))
{
}

ConsumerRunner::~ConsumerRunner()
{
    stop();
}

void ConsumerRunner::start()
{
    m_thread.reset(QThread::create([this] {
        InboxConsumer consumer(m_target, m_options, m_handler, m_stats, [this](const QString& line) {
            if (m_log)
                m_log(line);
        });
        consumer.setBatchHandler(m_batchHandler);
        Status s = consumer.run(m_stop);
        if (!s) {
            QMutexLocker lock(&m_mutex);
            m_error = s.message();
        }
        m_finished = true;
    }));
    m_thread->start();
}

void ConsumerRunner::stop()
{
    m_stop = true;
    if (m_thread) {
        m_thread->wait();
        m_thread.reset();
    }
}

QString ConsumerRunner::error() const
{
    QMutexLocker lock(&m_mutex);
    return m_error;
}

QString consumerProgressLine(const InboxConsumerStats& stats)
{
    return QStringLiteral("received %1 processed %2 duplicates %3 dead letters %4 retries %5")
        .arg(stats.received.load())
        .arg(stats.processed.load())
        .arg(stats.duplicates.load())
        .arg(stats.deadLettered.load())
        .arg(stats.retries.load());
}

} // namespace outbox
