#include "core/relay/RelayHeartbeat.h"

#include "core/db/Database.h"
#include "core/db/EventStore.h"
#include "core/db/HeldClaim.h"
#include "core/db/RelayStore.h"
#include "core/relay/RelayLogText.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QElapsedTimer>
#include <QHostInfo>
#include <QThread>
#include <chrono>

namespace outbox {

RelayHeartbeat::RelayHeartbeat(DatabaseTarget target, RelayOptions options, RelayStats& stats,
                               RelayPulse& pulse, Logger log)
    : m_target(std::move(target)), m_options(std::move(options)), m_stats(stats), m_pulse(pulse),
      m_log(std::move(log))
{
    if (!m_log)
        m_log = [](const QString&) {};
}

RelayHeartbeat::~RelayHeartbeat()
{
    stop();
}

qint64 RelayHeartbeat::stuckAfterMs() const
{
    return std::max<qint64>(2000, 2LL * m_options.heartbeatMs);
}

void RelayHeartbeat::start()
{
    if (m_thread)
        return;
    {
        std::lock_guard<std::mutex> lock(m_mutex);
        m_stop = false;
    }
    m_thread.reset(QThread::create([this] { run(); }));
    m_thread->start();
}

void RelayHeartbeat::stop()
{
    if (!m_thread)
        return;
    {
        std::lock_guard<std::mutex> lock(m_mutex);
        m_stop = true;
    }
    m_wake.notify_all();
    m_thread->wait();
    m_thread.reset();
}

void RelayHeartbeat::run()
{
    std::unique_ptr<Database> db;
    QElapsedTimer sinceBeat;
    QElapsedTimer sinceReap;
    QElapsedTimer sinceOpenFailed;
    while (true) {
        if (!db && (!sinceOpenFailed.isValid() || sinceOpenFailed.elapsed() >= m_options.heartbeatMs)) {
            auto opened = m_target.open(QStringLiteral("relay-heartbeat"));
            if (opened) {
                db = std::move(opened).value();
                sinceOpenFailed.invalidate();
            } else {
                sinceOpenFailed.start();
                m_log(RelayLogText::english(RelayLogText::HeartbeatOpen).arg(opened.message()));
            }
        }
        if (db && (!sinceBeat.isValid() || sinceBeat.elapsed() >= m_options.heartbeatMs)) {
            sinceBeat.start();
            measureClock(*db);
            if (!beat(*db))
                db.reset(); // perhaps a connection the server dropped: a new one next round
        }
        if (db && (!sinceReap.isValid() || sinceReap.elapsed() >= m_options.leaseMs / 2)) {
            sinceReap.start();
            reap(*db);
        }
        const qint64 untilBeat = sinceBeat.isValid() ? m_options.heartbeatMs - sinceBeat.elapsed() : 0;
        std::unique_lock<std::mutex> lock(m_mutex);
        if (m_stop)
            return;
        m_wake.wait_for(lock, std::chrono::milliseconds(std::clamp<qint64>(untilBeat, 10, 1000)),
                        [this] { return m_stop; });
        if (m_stop)
            return;
    }
}

std::optional<qint64> RelayHeartbeat::clockOffsetMs(Database& db)
{
    // The database's clock against this host's, halfway through the round trip. created_at was
    // written by the database's clock; a relay whose own clock is off by minutes would otherwise
    // report commit -> ack latencies off by as much (or 0 ms, clamped).
    const qint64 before = QDateTime::currentMSecsSinceEpoch();
    auto now = db.scalar(QStringLiteral("SELECT %1").arg(db.dialect().now()));
    const qint64 after = QDateTime::currentMSecsSinceEpoch();
    if (!now)
        return std::nullopt;
    const QDateTime at = db.dialect().toDateTime(*now);
    if (!at.isValid())
        return std::nullopt;
    return at.toMSecsSinceEpoch() - (before + after) / 2;
}

void RelayHeartbeat::measureClock(Database& db)
{
    if (const auto offset = clockOffsetMs(db))
        m_pulse.clockOffsetMs.store(*offset);
}

bool RelayHeartbeat::beat(Database& db)
{
    const RelayPulse::Snapshot pulse = m_pulse.snapshot();
    RelayRecord r;
    r.workerId = m_options.workerId;
    r.host = QHostInfo::localHostName();
    r.pid = QCoreApplication::applicationPid();
    r.version = QStringLiteral(OUTBOX_VERSION);
    r.brokerKind = m_options.broker->scheme();
    r.brokerAddress = m_options.broker->address();
    r.wakeup = pulse.wakeUp;
    // The state shown to operators is the heartbeat interval's, not this instant's: under steady
    // load the loop is IDLE between batches most of the time, yet a relay that claimed since the
    // last heartbeat or holds leases is at work.
    const qint64 claimed = m_stats.claimed.load();
    const bool busy = claimed != m_claimedAtHeartbeat || pulse.leasesHeld > 0;
    m_claimedAtHeartbeat = claimed;
    r.state = (pulse.state == QLatin1String("IDLE") && busy) ? QStringLiteral("RUNNING") : pulse.state;
    r.lastError = pulse.lastError;
    // The loop waits on the broker for longer than it should: alive, but it cannot publish.
    if (!pulse.brokerCall.isEmpty() && pulse.brokerCallMs >= stuckAfterMs()) {
        r.state = QStringLiteral("DEGRADED");
        r.lastError = RelayLogText::english(RelayLogText::NoAnswerFor)
                          .arg(pulse.brokerCall)
                          .arg(pulse.brokerCallMs / 1000);
        if (m_reportedError.isEmpty())
            m_log(RelayLogText::english(RelayLogText::StateChangedBecause)
                      .arg(pulse.state, QStringLiteral("DEGRADED"), r.lastError));
        m_reportedError = r.lastError;
    } else {
        m_reportedError.clear();
    }
    // The latencies before the sent counter: the relay adds to the counter first, so a row never
    // counts more latencies than events sent.
    r.latencySumMs = qint64(m_stats.latencySumSeconds() * 1000.0);
    r.latencyCount = m_stats.latencyCount();
    for (qint64 c : m_stats.bucketCounts())
        r.latencyBuckets << c;
    r.claimedTotal = claimed;
    r.sentTotal = m_stats.sent.load();
    r.failedTotal = m_stats.failed.load() + m_stats.dead.load();
    r.fencedTotal = m_stats.fenced.load();
    r.leasesHeld = pulse.leasesHeld;
    r.leaseExpiredTotal = m_stats.leaseExpired.load();
    auto desired = RelayStore(db).heartbeat(r);
    if (!desired) {
        m_log(RelayLogText::english(RelayLogText::HeartbeatFailed).arg(desired.message()));
        return false;
    }
    if (*desired != m_pulse.desired())
        m_log(RelayLogText::english(RelayLogText::DesiredState).arg(*desired));
    m_pulse.setDesired(*desired);
    return true;
}

void RelayHeartbeat::reap(Database& db)
{
    reaped(EventStore(db).reapExpiredLeases(m_options.maxAttempts, m_options.ordering), false);
    // Held relays count the attempts of held claims whose relay died (only they: a leased relay
    // under a runtime role granted before migration 11 may not read the journal).
    if (m_options.claimMode == ClaimMode::Held)
        reaped(HeldClaim::reap(db, m_options.maxAttempts, m_options.ordering), true);
}

void RelayHeartbeat::reaped(const Result<ReapResult>& result, bool held)
{
    if (!result) {
        m_log(result.message());
        return;
    }
    if (result->returned + result->exhausted == 0)
        return;
    m_stats.leaseExpired.fetch_add(result->returned + result->exhausted);
    if (result->returned > 0)
        m_log(RelayLogText::english(held ? RelayLogText::LostAttemptsCounted : RelayLogText::ExpiredReturned)
                  .arg(result->returned));
    if (result->exhausted > 0) {
        const bool ordered = m_options.ordering == OrderingMode::Aggregate;
        (ordered ? m_stats.failed : m_stats.dead).fetch_add(result->exhausted);
        m_log(
            RelayLogText::english(RelayLogText::AttemptsUsedUp)
                .arg(result->exhausted)
                .arg(RelayLogText::english(held ? RelayLogText::LostHeldClaims : RelayLogText::ExpiredLeases))
                .arg(m_options.maxAttempts)
                .arg(ordered ? QStringLiteral("FAILED") : QStringLiteral("DEAD")));
    }
}

} // namespace outbox
