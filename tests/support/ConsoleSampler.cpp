#include "tests/support/ConsoleSampler.h"

#include "core/metrics/MetricsSampler.h"
#include "core/metrics/MetricsSnapshot.h"

#include <QCoreApplication>
#include <QTimer>
#include <atomic>
#include <csignal>
#include <cstdio>

namespace outbox::test {

namespace {

std::atomic<bool> g_stop{false};

extern "C" void onTerminate(int)
{
    g_stop = true;
}

} // namespace

int runConsoleSamplerUntilTerminated(const DatabaseTarget& target, int intervalMs)
{
    std::signal(SIGTERM, onTerminate);
    std::signal(SIGINT, onTerminate);
    MetricsSampler sampler(target);
    qint64 ticks = 0;
    qint64 failures = 0;
    QObject::connect(&sampler, &MetricsSampler::snapshotReady, [&ticks](const MetricsSnapshot&) { ++ticks; });
    QObject::connect(&sampler, &MetricsSampler::failed, [&failures](const QString& why) {
        if (failures++ < 5)
            std::fprintf(stderr, "sampler: %s\n", qPrintable(why));
    });
    sampler.start(intervalMs);
    QTimer poll;
    QObject::connect(&poll, &QTimer::timeout, [] {
        if (g_stop.load())
            QCoreApplication::quit();
    });
    poll.start(100);
    QCoreApplication::exec();
    sampler.stop();
    std::fprintf(stderr, "sampler: %lld snapshots, %lld failures\n", ticks, failures);
    return 0;
}

} // namespace outbox::test
