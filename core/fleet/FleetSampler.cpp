#include "core/fleet/FleetSampler.h"

#include "core/db/Database.h"
#include "core/db/EventStatus.h"
#include "core/db/Migrator.h"
#include "core/db/SnapshotRead.h"
#include "core/diagnosis/Doctor.h"
#include "core/metrics/MetricsQuery.h"

#include <QCoreApplication>
#include <QMutex>
#include <QThread>
#include <algorithm>

namespace outbox {

struct FleetSampler::Shared
{
    std::atomic<int> open{0};
    std::atomic<int> peak{0};
    QMutex mutex;                  // guards owner
    FleetSampler* owner = nullptr; // null once the sampler is gone
};

namespace {

QString seconds(qint64 ms)
{
    return ms % 1000 == 0 ? QStringLiteral("%1 s").arg(ms / 1000) : QStringLiteral("%1 ms").arg(ms);
}

// One member's sample, on a worker thread, with a connection of its own that is closed before it
// returns: the counts, and the doctor's report when `runDoctor` (then findingsAt is set; otherwise
// the state is the sampler's to decide from the member's last report).
MemberSample sampleMember(const FleetMember& member, const DiagnosisOptions& options, bool runDoctor,
                          int connectTimeoutSeconds, std::atomic<int>& open, std::atomic<int>& peak)
{
    QElapsedTimer clock;
    clock.start();
    MemberSample s;
    s.member = member.name;
    s.tags = member.tagTexts();
    const auto done = [&](MemberSample::State state, const QString& error) {
        s.state = state;
        s.error = error;
        s.sampledAt = QDateTime::currentDateTimeUtc();
        s.elapsedMs = clock.elapsed();
        return s;
    };
    const int now = ++open;
    for (int seen = peak.load(); now > seen && !peak.compare_exchange_weak(seen, now);) {
    }
    struct Release
    {
        std::atomic<int>& open;
        ~Release() { --open; }
    } release{open};

    auto db =
        member.target.openForReading(QStringLiteral("fleet"), connectTimeoutSeconds); // SQLite: read-only

    if (!db)
        return done(MemberSample::State::Unreachable, db.message());
    // A member that answers the connect and then hangs (a lock held on its outbox, an overloaded
    // server) ends its statements on the server's side soon after the fleet's timeout: the thread
    // and its connection come back instead of being held until the member recovers.
    for (const QString& statement : (*db)->dialect().statementTimeout(connectTimeoutSeconds * 1000))
        (void)(*db)->exec(statement); // a server that does not know one setting skips it
    // SQLite: one read transaction for the whole sample. Per statement, each took SQLite's
    // process-wide mutex, on which the sampling threads were found queueing (stack samples of the
    // benchmark, issue 27).
    Transaction sampleRead(**db);
    if (Status begun = beginSampleRead(sampleRead, **db); !begun)
        return done(MemberSample::State::Unreachable, begun.message());
    Migrator migrator(**db);
    auto version = migrator.currentVersion();
    if (!version)
        return done(MemberSample::State::Unreachable, version.message());
    if (*version == 0)
        return done(MemberSample::State::Unmigrated,
                    FleetSampler::tr("no outbox schema yet (outboxctl migrate creates it)"));
    if (*version < migrator.latestVersion())
        return done(MemberSample::State::Unmigrated,
                    FleetSampler::tr("the outbox schema is at version %1 of %2")
                        .arg(*version)
                        .arg(migrator.latestVersion()));
    auto snapshot = MetricsQuery(**db).sample();
    if (!snapshot)
        return done(MemberSample::State::Unreachable, snapshot.message());
    s.backlog = snapshot->unsent();
    s.oldestPendingAgeMs = snapshot->oldestPendingAgeMs;
    s.failed = snapshot->events.value(QStringLiteral("FAILED"));
    s.dead = snapshot->events.value(QStringLiteral("DEAD"));
    s.deadLetters = snapshot->deadLetters.value(DeadLetterStatus::New);
    s.relaysAlive = int(snapshot->relays.size()) - snapshot->staleRelays(options.relayStaleAfterMs());
    s.snapshot = std::move(snapshot).value();
    s.hasSnapshot = true;
    if (!runDoctor)
        return done(MemberSample::State::Ok, QString()); // the sampler adopts the last report
    auto report = Doctor(**db, options).run();
    if (!report)
        return done(MemberSample::State::Unreachable, report.message());
    s.state = MemberSample::State::Ok;
    s.adoptReport(*report, QDateTime::currentDateTimeUtc());
    return done(s.state, QString());
}

} // namespace

FleetSampler::FleetSampler(Fleet fleet, DiagnosisOptions options, QObject* parent)
    : QObject(parent), m_fleet(std::move(fleet)), m_options(std::move(options)),
      m_pool(std::make_unique<QThreadPool>()), m_shared(std::make_shared<Shared>())
{
    m_shared->owner = this;
    qRegisterMetaType<MemberSample>();
    qRegisterMetaType<QVector<MemberSample>>();
    m_pool->setMaxThreadCount(m_fleet.maxConnections());
    for (const FleetMember& member : m_fleet.members()) {
        Slot slot;
        slot.member = member;
        m_slots << slot;
    }
    m_timer.setInterval(int(m_fleet.intervalMs()));
    connect(&m_timer, &QTimer::timeout, this, [this] { tick(); });
}

FleetSampler::~FleetSampler()
{
    m_timer.stop();
    {
        QMutexLocker lock(&m_shared->mutex);
        m_shared->owner = nullptr; // a sample that ends from now on posts nothing
    }
    if (m_pool->waitForDone(0))
        return;
    // Samples still running (a member that never answers holds its thread until the connect
    // timeout): the pool goes once they have ended, without blocking this thread (the console's
    // GUI thread, the server's event loop). The application object owns it meanwhile, so that at
    // exit it still waits for them.
    QCoreApplication* app = QCoreApplication::instance();
    if (!app || app->thread() != QThread::currentThread()) {
        m_pool->waitForDone();
        return;
    }
    QThreadPool* pool = m_pool.release();
    pool->setParent(app);
    auto* reaper = new QTimer(pool);
    reaper->setInterval(200);
    QObject::connect(reaper, &QTimer::timeout, pool, [pool, reaper] {
        if (pool->waitForDone(0)) {
            reaper->stop();
            pool->deleteLater();
        }
    });
    reaper->start();
}

int FleetSampler::peakConnections() const
{
    return m_shared->peak.load();
}

void FleetSampler::start()
{
    tick();
    m_timer.start();
}

void FleetSampler::stop()
{
    m_timer.stop();
}

bool FleetSampler::tick()
{
    if (m_unresolved > 0)
        return false;
    ++m_tick;
    m_unresolved = int(m_slots.size());
    m_queue.clear();
    for (int i = 0; i < m_slots.size(); ++i)
        m_slots[i].resolved = false;
    for (int i = 0; i < m_slots.size(); ++i) {
        Slot& slot = m_slots[i];
        if (slot.outstanding) {
            resolve(i, missed(i,
                              tr("still waiting for its previous sample, started %1 ago")
                                  .arg(seconds(slot.started.elapsed() / 1000 * 1000)),
                              true));
        } else if (slot.failures >= 2 && slot.hasSample && !slot.last.reachable() &&
                   slot.sinceFailure.isValid() && slot.sinceFailure.elapsed() < slot.backoffMs) {
            MemberSample kept = missed(i, slot.lastError, slot.last.timedOut);
            kept.nextAttemptMs = slot.backoffMs - slot.sinceFailure.elapsed();
            resolve(i, kept);
        } else {
            m_queue << i;
        }
    }
    dispatch();
    return true;
}

void FleetSampler::dispatch()
{
    while (m_inFlight < m_fleet.maxConnections() && !m_queue.isEmpty())
        startSample(m_queue.takeFirst());
}

void FleetSampler::startSample(int index)
{
    Slot& slot = m_slots[index];
    slot.outstanding = true;
    slot.started.start();
    ++m_inFlight;
    const quint64 tick = m_tick;
    const qint64 timeoutMs = m_fleet.timeoutMs();
    // Given up at the timeout: unreachable for this tick, whatever the thread is still waiting for.
    QTimer::singleShot(int(timeoutMs), this, [this, index, tick, timeoutMs] {
        if (tick == m_tick && !m_slots.at(index).resolved)
            resolve(index, missed(index, tr("did not answer within %1").arg(seconds(timeoutMs)), true));
    });
    // The member's own broker in its prepared relay commands, never the server's (issue 36 H1), and
    // its own command line (--fleet FILE --member NAME).
    DiagnosisOptions options = slot.member.diagnosisOptions(m_options);
    options.connectionArguments << slot.member.target.outboxctlArguments();
    // The second cadence: the doctor's checks at most every doctor_interval, the counts every tick.
    const bool runDoctor = !slot.hasAnswer || !slot.answer.findingsAt.isValid() ||
                           !slot.sinceDoctor.isValid() || slot.sinceDoctor.elapsed() >= slot.doctorDueMs;
    // The drivers count their connect timeout in whole seconds (libpq from a second boundary, so it
    // may end up to one second early): one second more than the fleet's timeout lets the sampler give
    // the verdict at the timeout, and still ends a stuck thread soon after.
    const int connectTimeout = int((timeoutMs + 999) / 1000 + 1);
    m_pool->start([shared = m_shared, index, tick, member = slot.member, options, runDoctor, connectTimeout] {
        MemberSample sample =
            sampleMember(member, options, runDoctor, connectTimeout, shared->open, shared->peak);
        QMutexLocker lock(&shared->mutex);
        if (FleetSampler* owner = shared->owner)
            QMetaObject::invokeMethod(
                owner, [owner, index, tick, sample] { owner->sampleDone(index, tick, sample); },
                Qt::QueuedConnection);
    });
}

void FleetSampler::sampleDone(int index, quint64 tick, MemberSample sample)
{
    Slot& slot = m_slots[index];
    slot.outstanding = false;
    --m_inFlight;
    const bool current = tick == m_tick && !slot.resolved;
    if (sample.state == MemberSample::State::Unreachable) {
        slot.failures += 1;
        slot.sinceFailure.start();
        slot.backoffMs =
            std::min(MaxBackoffMs, m_fleet.intervalMs() * (qint64(1) << std::min(slot.failures - 1, 20)));
        slot.lastError = sample.error;
        if (current) {
            MemberSample failed = missed(index, sample.error, false);
            // From the second failure in a row the next ticks skip the member until its backoff has
            // passed (tick()): say when, from this failure on, as the skipped ticks do.
            if (slot.failures >= 2 && !failed.reachable())
                failed.nextAttemptMs = slot.backoffMs;
            resolve(index, failed);
        }
    } else {
        // An answer, in time or late: the member's last answer from now on (a late one is slow, not
        // unreachable).
        slot.failures = 0;
        slot.missed = 0;
        slot.lastError.clear();
        if (sample.findingsAt.isValid()) {
            // The first run of every member falls in the first tick; the next ones are spread over
            // one doctor_interval (member i of n after (i+1)/n of it), then every doctor_interval.
            slot.doctorDueMs = slot.sinceDoctor.isValid() ? m_fleet.doctorIntervalMs()
                                                          : m_fleet.doctorIntervalMs() * (index + 1) /
                                                                std::max(1, int(m_slots.size()));
            slot.sinceDoctor.start();
        } else if (slot.hasAnswer && sample.state != MemberSample::State::Unmigrated)
            sample.adoptReport(slot.answer.report, slot.answer.findingsAt);
        sample.slow = sample.elapsedMs > m_fleet.timeoutMs();
        sample.answeredAt = sample.sampledAt;
        slot.answer = sample;
        slot.hasAnswer = true;
        if (current)
            resolve(index, std::move(sample));
    }
    dispatch();
}

MemberSample FleetSampler::missed(int index, const QString& error, bool timedOut)
{
    Slot& slot = m_slots[index];
    slot.missed += 1;
    if (slot.hasAnswer && slot.missed < m_fleet.unreachableAfter()) {
        MemberSample kept = slot.answer;
        kept.stale = true;
        kept.missedTicks = slot.missed;
        kept.error = error;
        kept.timedOut = timedOut;
        return kept;
    }
    MemberSample s = unreachable(index, error, timedOut);
    s.missedTicks = slot.missed;
    if (slot.hasAnswer)
        s.answeredAt = slot.answer.answeredAt;
    return s;
}

MemberSample FleetSampler::unreachable(int index, const QString& error, bool timedOut) const
{
    const Slot& slot = m_slots.at(index);
    MemberSample s;
    s.member = slot.member.name;
    s.tags = slot.member.tagTexts();
    s.state = MemberSample::State::Unreachable;
    s.error = error;
    s.timedOut = timedOut;
    s.sampledAt = QDateTime::currentDateTimeUtc();
    s.elapsedMs = slot.started.isValid() ? slot.started.elapsed() : 0;
    return s;
}

void FleetSampler::resolve(int index, MemberSample sample)
{
    Slot& slot = m_slots[index];
    slot.resolved = true;
    slot.last = std::move(sample);
    slot.hasSample = true;
    if (--m_unresolved == 0)
        emit tickFinished(latest());
}

QVector<MemberSample> FleetSampler::latest() const
{
    QVector<MemberSample> samples;
    for (const Slot& slot : m_slots)
        if (slot.hasSample)
            samples << slot.last;
    std::sort(samples.begin(), samples.end(), MemberSample::worseThan);
    return samples;
}

} // namespace outbox
