#include "tests/support/RelayThread.h"

#include "tests/support/BrokerTestKit.h"

#include <cstdio>

namespace outbox::test {

RelayThread::RelayThread(const DatabaseUrl& url, RelayOptions options)
    : m_target(url, QString()), m_options(std::move(options))
{
}

RelayThread::~RelayThread()
{
    stop();
}

void RelayThread::start()
{
    m_thread.reset(QThread::create([this] {
        const QString id = m_options.workerId;
        Relay relay(m_target, m_options, m_stats, [id](const QString& line) {
            if (qEnvironmentVariableIsSet("OUTBOX_TEST_VERBOSE"))
                std::fprintf(stderr, "relay %s: %s\n", qPrintable(id), qPrintable(line));
        });
        Status s = relay.run(m_stop);
        if (!s)
            m_error = s.message();
    }));
    m_thread->start();
}

void RelayThread::stop()
{
    m_stop = true;
    if (m_thread) {
        m_thread->wait();
        m_thread.reset();
    }
}

RelayOptions testRelayOptions(const QString& bootstrap, const QString& workerId)
{
    RelayOptions o;
    o.broker = kafkaAt(bootstrap);
    o.workerId = workerId;
    o.leaseMs = 5000;
    o.pollIntervalMs = 100;
    o.heartbeatMs = 500;
    o.backoffBaseMs = 100;
    o.backoffCapMs = 1000;
    o.retentionMs = 0;
    (void)kafkaProducer(o).set(QStringLiteral("message.timeout.ms"), QStringLiteral("2000"));
    return o;
}

} // namespace outbox::test
