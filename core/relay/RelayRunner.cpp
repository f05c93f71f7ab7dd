#include "core/relay/RelayRunner.h"

#include "core/relay/Relay.h"
#include "core/relay/RelayLogText.h"

#include <QMutex>
#include <QThread>
#include <memory>
#include <vector>

namespace outbox {

RelayRunner::RelayRunner(DatabaseTarget target, RelayOptions options, int workers)
    : m_target(std::move(target)), m_options(std::move(options)), m_workers(workers)
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

Status RelayRunner::run(const std::atomic<bool>& stop, const Logger& log, const std::function<void()>& onTick)
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
        threads.emplace_back(
            QThread::create([this, options, stats, &stopWorkers, &errorMutex, &startError, &running, &log] {
                const QString name = options.workerId.isEmpty() ? QStringLiteral("worker") : options.workerId;
                Relay relay(m_target, options, *stats, [&log, name](const QString& line) {
                    if (log)
                        log(name, line);
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

// A latency percentile, or "n/a" when no delivery was measured yet (never a -1 figure).
static QString latencyText(qint64 ms)
{
    return ms < 0 ? QStringLiteral("n/a") : QStringLiteral("%1 ms").arg(ms);
}

QString relayProgressLine(const RelayStats& stats, qint64 sentBefore, qint64 elapsedMs)
{
    const QVector<qint64> latencies = stats.recentLatencies();
    const qint64 sent = stats.sent.load();
    return RelayLogText::english(RelayLogText::Progress)
        .arg(sent)
        .arg(elapsedMs > 0 ? (sent - sentBefore) * 1000 / elapsedMs : 0)
        .arg(stats.failed.load())
        .arg(stats.dead.load())
        .arg(stats.retried.load())
        .arg(stats.released.load())
        .arg(stats.fenced.load())
        .arg(stats.leaseExpired.load())
        .arg(latencyText(percentile(latencies, 50)), latencyText(percentile(latencies, 99)));
}

} // namespace outbox
