#include "core/support/Failpoints.h"

#include <QHash>
#include <QMutex>
#include <QMutexLocker>
#include <QRegularExpression>
#include <QThread>
#include <atomic>
#include <cstdio>
#include <cstdlib>

namespace outbox {
namespace {

enum class Action { Crash, Error, Sleep };

struct Point
{
    Action action = Action::Error;
    int sleepMs = 0;
    int remaining = -1; // -1: unlimited
};

struct Registry
{
    QMutex mutex;
    QHash<QString, Point> points;
    std::atomic<bool> active{false};
    bool loaded = false;
};

Registry& registry()
{
    static Registry r;
    return r;
}

Status parseInto(const QString& spec, QHash<QString, Point>& out)
{
    static const QRegularExpression entry(
        QStringLiteral(R"(^\s*([A-Za-z0-9_.]+)\s*=\s*(?:(\d+)\*)?\s*(crash|error|sleep\((\d+)\))\s*$)"));
    const auto parts = spec.split(QLatin1Char(','), Qt::SkipEmptyParts);
    for (const QString& part : parts) {
        const auto m = entry.match(part);
        if (!m.hasMatch())
            return Error::usage(
                QStringLiteral("invalid failpoint \"%1\" (expected name=[N*]crash|error|sleep(ms))")
                    .arg(part.trimmed()));
        Point p;
        const QString action = m.captured(3);
        if (action == QLatin1String("crash"))
            p.action = Action::Crash;
        else if (action == QLatin1String("error"))
            p.action = Action::Error;
        else {
            p.action = Action::Sleep;
            p.sleepMs = m.captured(4).toInt();
        }
        if (!m.captured(2).isEmpty())
            p.remaining = m.captured(2).toInt();
        out.insert(m.captured(1), p);
    }
    return {};
}

void loadFromEnvironmentLocked(Registry& r)
{
    if (r.loaded)
        return;
    r.loaded = true;
    const QString spec = qEnvironmentVariable("OUTBOX_FAILPOINTS");
    if (spec.isEmpty())
        return;
    QHash<QString, Point> points;
    const Status s = parseInto(spec, points);
    if (!s) {
        std::fprintf(stderr, "outbox: %s\n", qPrintable(s.message()));
        std::_Exit(2);
    }
    r.points = points;
    r.active = !points.isEmpty();
}

} // namespace

Status Failpoints::hit(const char* name)
{
    Registry& r = registry();
    if (!r.loaded) {
        QMutexLocker lock(&r.mutex);
        loadFromEnvironmentLocked(r);
    }
    if (!r.active.load(std::memory_order_relaxed))
        return {};
    Point fired;
    {
        QMutexLocker lock(&r.mutex);
        auto it = r.points.find(QLatin1String(name));
        if (it == r.points.end() || it->remaining == 0)
            return {};
        if (it->remaining > 0)
            --it->remaining;
        fired = *it;
    }
    switch (fired.action) {
    case Action::Crash:
        std::fprintf(stderr, "outbox: failpoint %s: crash\n", name);
        std::fflush(stderr);
        std::_Exit(86);
    case Action::Sleep:
        QThread::msleep(static_cast<unsigned long>(fired.sleepMs));
        return {};
    case Action::Error:
        break;
    }
    return Error::runtime(QStringLiteral("failpoint %1 injected an error").arg(QLatin1String(name)));
}

Status Failpoints::configure(const QString& spec)
{
    QHash<QString, Point> points;
    if (Status s = parseInto(spec, points); !s)
        return s;
    Registry& r = registry();
    QMutexLocker lock(&r.mutex);
    r.loaded = true;
    r.points = points;
    r.active = !points.isEmpty();
    return {};
}

bool Failpoints::enabled()
{
    Registry& r = registry();
    QMutexLocker lock(&r.mutex);
    loadFromEnvironmentLocked(r);
    return r.active;
}

} // namespace outbox
