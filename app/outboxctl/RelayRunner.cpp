#include "app/outboxctl/RelayRunner.h"

#include "app/outboxctl/Systemd.h"
#include "core/relay/Relay.h"

#include <QDateTime>
#include <QMutex>
#include <QThread>
#include <cstdio>
#include <memory>
#include <vector>

namespace outbox::cli {

RelayRunner::RelayRunner(DatabaseUrl url, RelayOptions options, int workers)
    : m_url(std::move(url)), m_options(std::move(options)), m_workers(workers)
{
    for (int i = 0; i < m_workers; ++i)
        m_stats.push_back(std::make_unique<RelayStats>());
}

bool RelayRunner::allRunning() const
{
    for (const auto& s : m_stats)
        if (!s->inLoop.load())
            return false;
    return true;
}

std::unique_ptr<RelayStats> RelayRunner::totals() const
{
    auto total = std::make_unique<RelayStats>();
    for (const auto& s : m_stats)
        total->accumulate(*s);
    return total;
}

Status RelayRunner::run(const std::atomic<bool>& stop, bool verbose, const std::function<void()>& onTick)
{
    if (Status s = m_options.validate(); !s)
        return s;
    std::atomic<bool> stopWorkers{false};
    QMutex errorMutex;
    QString startError;
    std::atomic<int> running{0};
    std::vector<std::unique_ptr<QThread>> threads;
    for (int i = 0; i < m_workers; ++i) {
        RelayOptions options = m_options;
        if (!options.workerId.isEmpty() && m_workers > 1)
            options.workerId += QStringLiteral("-%1").arg(i + 1);
        running.fetch_add(1);
        RelayStats* stats = m_stats.at(size_t(i)).get();
        threads.emplace_back(QThread::create([this, options, stats, &stopWorkers, &errorMutex, &startError,
                                              &running, verbose] {
            Relay relay(m_url, options, *stats, [verbose, &options](const QString& line) {
                if (verbose)
                    std::fprintf(
                        stderr, "%s%s relay %s: %s\n",
                        systemd::prefix(systemd::relayLinePriority(line)).constData(),
                        qPrintable(QDateTime::currentDateTimeUtc().toString(Qt::ISODateWithMs)),
                        qPrintable(options.workerId.isEmpty() ? QStringLiteral("worker") : options.workerId),
                        qPrintable(line));
            });
            Status s = relay.run(stopWorkers);
            if (!s) {
                QMutexLocker lock(&errorMutex);
                if (startError.isEmpty())
                    startError = s.message();
            }
            running.fetch_sub(1);
        }));
        threads.back()->start();
    }
    while (!stop.load() && running.load() > 0) {
        QThread::msleep(200);
        if (onTick)
            onTick();
    }
    if (stop.load() && onTick)
        onTick();
    stopWorkers = true;
    for (auto& t : threads)
        t->wait();
    if (!startError.isEmpty())
        return Error::runtime(startError);
    return {};
}

} // namespace outbox::cli
