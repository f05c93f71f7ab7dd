#pragma once

#include "core/broker/Publisher.h"
#include "core/db/Database.h"
#include "core/db/DatabaseTarget.h"
#include "core/db/EventStore.h"
#include "core/db/HeldClaim.h"
#include "core/db/TopicRouter.h"
#include "core/relay/AdaptivePoll.h"
#include "core/relay/RelayHeartbeat.h"
#include "core/relay/RelayOptions.h"
#include "core/relay/RelayPulse.h"
#include "core/relay/RelayStats.h"
#include "core/support/Backoff.h"

#include <QElapsedTimer>
#include <QHash>
#include <QObject>
#include <QString>
#include <QVariant>
#include <atomic>
#include <functional>
#include <limits>
#include <memory>
#include <optional>
#include <vector>

namespace outbox {

class ReplicationDoorbell;

// One relay worker. Claims due events in short transactions, produces them, waits for every
// delivery report, and marks the results in fenced updates (docs/architecture.md, "How relays
// claim, mark and fence"). run() blocks on the calling thread (which must be able to run a
// QEventLoop, e.g. a QThread) until a stop is requested, desired_state says DRAIN/STOP, or a
// fatal error occurs; it always drains.
class Relay
{
public:
    using Logger = std::function<void(const QString&)>;

    Relay(DatabaseTarget target, RelayOptions options, RelayStats& stats, Logger log = {});
    ~Relay();

    // Returns an error only when the relay cannot start (database or producer unusable).
    Status run(const std::atomic<bool>& stopRequested);
    QString workerId() const { return m_options.workerId; }
    QString state() const;

private:
    // A claimed batch handed to the producer, marked as its delivery reports arrive.
    struct Flight
    {
        ClaimedBatch batch;
        std::unique_ptr<PendingBatch> pending;
        QVector<bool> marked;
        int unmarked = 0;
        QElapsedTimer launched;
        qint64 claimedAtMs = 0;          // wall clock when the claim returned (commit -> claim -> ack stages)
        std::unique_ptr<HeldClaim> held; // claim_mode held: the open transaction holding the batch
        qint64 journalId = 0;            // its row in the held-claims journal
    };
    static constexpr qint64 StragglerMs = 250;

    Status connect();
    void loop(const std::atomic<bool>& stopRequested);
    std::optional<ClaimedBatch> claim();
    void launch(ClaimedBatch batch);
    void harvest(bool everything);
    int inFlightCount() const;
    void mark(Flight& flight, const QVector<int>& indexes);
    // Counted once the events are marked SENT, never for those fenced: the heartbeat thread reads
    // the histogram and the sent counter at any moment, and /metrics must not count a latency for
    // an event that is not (yet) SENT.
    struct SentLatency
    {
        qint64 id, commitToAck, commitToClaim, claimToAck;
    };
    // mark()'s events sorted by the broker's answer.
    struct Outcome
    {
        QVector<SentMark> sent;
        QVector<SentLatency> latencies;
        QVector<ErrorMark> refused, unanswered, failed;
        QVector<qint64> release, notQueued;
        QString connectionError, notQueuedWhy;
        bool answered = false; // the broker answered some publish (ack or refusal) of these
        bool accepted = false; // … and acknowledged some
    };
    Outcome sortReports(const Flight& flight, const QVector<int>& indexes);
    void judgeBroker(const Flight& flight, Outcome& o);
    void record(Flight& flight, const Outcome& o);
    // claim_mode held: a connection for the next claim (an idle one, or a new one).
    Result<std::unique_ptr<HeldClaim>> heldConnection();
    // Commits a held flight whose every event is marked, and keeps its connection for reuse.
    void finishHeld(Flight& flight);
    void maintenanceReplayAndRetention(bool force);
    void maintenance(bool force = false);
    void waitForWork(int ms, const std::atomic<bool>& stopRequested);
    bool databaseChanged();
    // True when every commit of events wakes this relay (NOTIFY with the trigger on, SQLite's change
    // counter); otherwise it polls adaptively (AdaptivePoll). The doorbell wakes it too, but rings
    // after the WAL is decoded, which may be before the committing session's rows are visible to a
    // new snapshot: a ring sets the adaptive poll back to its floor, so that a claim that found
    // nothing is retried within milliseconds instead of the poll interval.
    // The doorbell rings at the commit of every transaction that inserted events, as NOTIFY does:
    // after a short batch the relay waits for the ring (the linger gathers the commits that follow),
    // with the poll interval as its safety net.
    bool wakesOnCommit() const { return ringsAtCommit() || doorbellRings(); }
    // NOTIFY and SQLite's change counter ring when the commit is visible. The doorbell rings when
    // the commit's WAL is flushed: at once with synchronous_commit on, but with it off (a writer's
    // choice, or the server's) only at the WAL writer's next flush, up to wal_writer_delay (200 ms)
    // later. So behind a doorbell the adaptive poll stays the safety net (10 ms after a claim that
    // found events, doubling while idle): measured at 2,000 events/s with synchronous_commit off,
    // waiting for the ring alone gave commit -> ack p50 32 / p99 191 ms, polling 6 / 47 ms.
    bool ringsAtCommit() const { return (m_listening && m_triggerOn) || !m_changeCounter.isEmpty(); }
    // Whether the wake-up trigger is on (PostgreSQL), asked at connect and at every heartbeat; with
    // it off (the default) the doorbell wakes this relay where it can ring.
    void checkWakeUpTrigger();
    // Opens the doorbell while the trigger is off (again after it was lost), closes it while on.
    void updateDoorbell();
    bool doorbellRings() const;
    // What wakes this relay: notify, doorbell, data_version (SQLite) or poll (RelayRecord::wakeup).
    QString wakeUpName() const;
    void drain();
    void setState(const QString& state, const QString& error = {});
    void degrade(const QString& why);
    BrokerMessage toMessage(const OutboxEvent& event) const;
    bool reconnectDatabase();
    // After SIGTERM or DRAIN: the longest the loop waits for the broker's answers to what is in
    // flight (the lease: past it, others may send those events anyway).
    qint64 drainLimitMs() const { return m_options.leaseMs; }

    DatabaseTarget m_target;
    RelayOptions m_options;
    RelayStats& m_stats;
    Logger m_log;
    std::unique_ptr<Database> m_db;
    std::unique_ptr<EventStore> m_store;
    std::unique_ptr<Publisher> m_publisher;
    TopicRouter m_router;
    TopicRouter m_exchangeRouter; // AMQP: the exchange of each event ([amqp] exchange)
    Backoff m_backoff;
    std::vector<Flight> m_flights;
    std::vector<std::unique_ptr<HeldClaim>> m_idleHeld; // claim_mode held: connections between claims
    std::unique_ptr<HeldClaim> m_claimedHeld;           // the held claim claim() returned, for launch()
    qint64 m_claimedJournal = 0;
    QString m_state = QStringLiteral("STARTING");
    QString m_lastError;
    QString m_desired = QStringLiteral("RUN");
    bool m_degraded = false;
    int m_degradedRounds = 0;
    // Publishes the broker left unanswered (connection lost, no confirm in time) since its last
    // answer: their own backoff, no attempt spent, DEGRADED once they persist (docs/contract.md).
    int m_unansweredRounds = 0;
    QElapsedTimer m_sinceBrokerAnswered;
    // The backoff of unanswered events grows with the broker's silences, not with its batches: the
    // flights launched before the last silence was counted went with the same connection (RabbitMQ's
    // window holds several batches), so they count once. Counting each batch made one reset of a
    // flapping broker push its events a minute away (2^k for k batches lost together).
    int m_silences = 0;
    qint64 m_silenceCountedAtMs = std::numeric_limits<qint64>::min(); // QElapsedTimer's reference clock
    // The broker has answered none of the last three batches for longer than a heartbeat.
    bool brokerSilent() const
    {
        return m_unansweredRounds >= 3 && m_sinceBrokerAnswered.isValid() &&
               m_sinceBrokerAnswered.elapsed() >= m_options.heartbeatMs;
    }
    // Refusals that may pass later (RabbitMQ's basic.nack, a retriable Kafka error) since the
    // broker last accepted a publish: no attempt spent, a backoff per event that grows with its
    // refusals (forgotten once the event is marked otherwise), DEGRADED once they persist.
    int m_refusedRounds = 0;
    QElapsedTimer m_sinceBrokerAccepted;
    QHash<qint64, int> m_refusals;
    // The broker has refused everything in the last three answers for longer than a heartbeat.
    bool brokerRefusing() const
    {
        return m_refusedRounds >= 3 && m_sinceBrokerAccepted.isValid() &&
               m_sinceBrokerAccepted.elapsed() >= m_options.heartbeatMs;
    }
    // DEGRADED stays while the broker answers nothing or refuses everything.
    bool brokerFailing() const { return brokerSilent() || brokerRefusing(); }
    bool m_listening = false;
    bool m_triggerOn = true; // the wake-up trigger fires (only asked while listening)
    AdaptivePoll m_poll{1, 1};
    int m_leasesHeld = 0;
    RelayPulse m_pulse;                          // what the heartbeat thread reports of this loop
    std::unique_ptr<RelayHeartbeat> m_heartbeat; // heartbeat and reaper, independent of this loop
    QElapsedTimer m_sinceHeartbeat;              // the wake-up trigger is asked once a heartbeat interval
    QElapsedTimer m_sinceStop;                   // since the stop (SIGTERM, DRAIN, STOP) was seen
    QString m_callProbe, m_callAnswers, m_callPublish, m_callReplay; // RelayPulse's broker calls
    QElapsedTimer m_sinceRetention;
    QElapsedTimer m_sinceDeadRetention;
    bool m_retentionBehind = false; // the last retention pass left expired SENT rows behind
    QElapsedTimer m_sinceReplay;
    QElapsedTimer m_sinceEmptyClaim;
    QElapsedTimer m_sinceClaimStarted; // the lease of the newest claim runs from (at the latest) here
    QElapsedTimer m_sinceFindingClaim; // since the newest claim that found events began (relay.linger_ms)
    bool m_queueFull = false;          // librdkafka's queue refused messages: no claim until drained
    int m_claimLimit = 0;              // after a full queue: claim what fitted, doubling back up; 0 none
    bool m_notified = false;
    std::unique_ptr<QObject> m_notifyContext;
    std::unique_ptr<Database> m_listener; // LISTEN only (PostgreSQL): never runs other statements
    // The doorbell (PostgreSQL, trigger off): a temporary logical slot that rings at commits of
    // events. Why it cannot ring (logged once; asked again after a reconnect), and whether it rang
    // before it was lost (then it is opened again at the next heartbeat).
    std::unique_ptr<ReplicationDoorbell> m_doorbell;
    QString m_doorbellRefused;
    QString m_doorbellCrowded;       // why not now: enough doorbells ring on this database already
    QElapsedTimer m_sinceCrowdCheck; // asked again every CrowdCheckMs while crowded
    QString m_wakeUp;                // the wake-up last logged
    // Without notifications: the statement that tells whether others committed (SQLite), its last
    // answer, and when it was last asked.
    static constexpr int ChangeCheckMs = 5;
    // A doorbell's slot not created after this long is said in the log (the relay polls meanwhile).
    static constexpr qint64 DoorbellPatienceMs = 2000;
    QString m_changeCounter;
    QVariant m_lastChangeCount;
    QElapsedTimer m_sinceChangeCheck;
};

} // namespace outbox
