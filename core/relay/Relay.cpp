#include "core/relay/Relay.h"

#include "core/db/EventStatus.h"
#include "core/db/NewEventsHub.h"
#include "core/db/RelayStore.h"
#include "core/db/ReplicationDoorbell.h"
#include "core/db/ReservedHeaders.h"
#include "core/ops/DeadRetention.h"
#include "core/ops/NotifyTrigger.h"
#include "core/relay/DeadLetterReplayer.h"
#include "core/relay/RelayLogText.h"
#include "core/support/Failpoints.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QEventLoop>
#include <QHostInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QThread>
#include <QTimer>
#include <QUuid>
#include <utility>

namespace outbox {

Relay::Relay(DatabaseTarget target, RelayOptions options, RelayStats& stats, Logger log)
    : m_target(std::move(target)), m_options(std::move(options)), m_stats(stats), m_log(std::move(log)),
      m_router(m_options.topicTemplate), m_exchangeRouter(m_options.broker->exchangeTemplate()),
      m_backoff(m_options.backoffBaseMs, m_options.backoffCapMs),
      m_poll(m_options.pollMinIntervalMs, m_options.pollIntervalMs)
{
    if (m_options.workerId.isEmpty())
        m_options.workerId = QStringLiteral("%1-%2-%3")
                                 .arg(QHostInfo::localHostName())
                                 .arg(QCoreApplication::applicationPid())
                                 .arg(QUuid::createUuid().toString(QUuid::Id128).left(6));
    if (!m_log)
        m_log = [](const QString&) {};
}

Relay::~Relay() = default;

QString Relay::state() const
{
    return m_state;
}

void Relay::setState(const QString& state, const QString& error)
{
    // RUNNING and IDLE alternate all the time under light load; only other changes are news.
    const auto routine = [](const QString& s) {
        return s == QLatin1String("RUNNING") || s == QLatin1String("IDLE");
    };
    if (state != m_state && !(routine(state) && routine(m_state)))
        m_log(error.isEmpty()
                  ? RelayLogText::english(RelayLogText::StateChanged).arg(m_state, state)
                  : RelayLogText::english(RelayLogText::StateChangedBecause).arg(m_state, state, error));
    else if (state == m_state && !error.isEmpty() && error != m_lastError)
        // Still DEGRADED, for another reason: the session that was cut off is now refused anew
        // (too many connections, read-only...). The database's own words, once per new reason.
        m_log(RelayLogText::english(RelayLogText::StillState).arg(state, error));
    m_state = state;
    if (!error.isEmpty())
        m_lastError = error;
    m_pulse.setState(state, error);
}

Status Relay::connect()
{
    auto db = m_target.open(QStringLiteral("relay"));
    if (!db)
        return db.error();
    m_db = std::move(db).value();
    m_store = std::make_unique<EventStore>(*m_db);
    // Before the first claim: the heartbeat's thread measures it too, but perhaps only after the
    // first batch was acked, whose latencies would then be off by the whole clock skew.
    if (const auto offset = RelayHeartbeat::clockOffsetMs(*m_db))
        m_pulse.clockOffsetMs.store(*offset);
    m_listening = false;
    m_notifyContext = std::make_unique<QObject>();
    // A relay in the writer's process is woken by the commit itself.
    const QString key = m_db->eventsKey();
    if (m_options.localWakeup)
        QObject::connect(&NewEventsHub::instance(), &NewEventsHub::committed, m_notifyContext.get(),
                         [this, key](const QString& committed) {
                             if (committed == key)
                                 m_notified = true;
                         });
    if (m_options.notify && m_db->dialect().supportsNotifications()) {
        // LISTEN on a connection of its own that runs no other statement: a notification that
        // arrives while a claim or mark runs on the working connection would be read by libpq
        // inside that statement's result and wait in its queue, unseen by the socket notifier,
        // until the next notification or the poll interval (the cause of NOTIFY being slower than
        // polling under load).
        auto listener = m_target.open(QStringLiteral("relay-listen"));
        if (listener) {
            m_listener = std::move(listener).value();
            m_listening = m_listener->listenForNewEvents();
        }
        if (m_listening)
            m_listener->onNotification(m_notifyContext.get(), [this] { m_notified = true; });
        else
            m_log(RelayLogText::english(RelayLogText::ListenFailed)
                      .arg(m_db->dialect().newEventsChannel())
                      .arg(m_options.pollIntervalMs));
    }
    // Without notifications, ask the database cheaply whether anything committed (SQLite: PRAGMA
    // data_version) every few milliseconds, and claim only then or after the poll interval.
    m_changeCounter = m_listening ? QString() : m_db->dialect().changeCounter();
    m_lastChangeCount = QVariant();
    m_sinceChangeCheck.start();
    m_triggerOn = true;
    m_doorbellRefused.clear();
    m_doorbellCrowded.clear();
    m_wakeUp.clear();
    checkWakeUpTrigger();
    return {};
}

void Relay::checkWakeUpTrigger()
{
    // LISTEN succeeds whether or not the trigger fires, and the trigger is off by default (migration
    // 18: a NOTIFY makes every writer's commit wait for one database-wide lock). With it off, the
    // doorbell wakes this relay where the server allows one, else it polls adaptively.
    if (!m_db)
        return;
    if (m_listening) {
        auto state = NotifyTrigger(*m_db).state();
        if (!state)
            return; // keep what was known; the claim reports a database that is gone
        const bool on = state->exists && state->enabled;
        if (on != m_triggerOn) {
            m_triggerOn = on;
            m_log(RelayLogText::english(on ? RelayLogText::TriggerOn : RelayLogText::TriggerOff)
                      .arg(state->trigger));
        }
    }
    updateDoorbell();
    const QString wakeUp = wakeUpName();
    if (wakeUp == m_wakeUp)
        return;
    // A doorbell whose slot is being created normally rings within milliseconds: say its wake-up
    // then. One that waits on the server's open transactions is said meanwhile (the relay polls).
    const bool opening = m_doorbell && m_doorbell->isOpen() && !m_doorbell->isRinging();
    if (opening && m_doorbell->openingForMs() < DoorbellPatienceMs)
        return;
    m_wakeUp = wakeUp;
    m_pulse.setWakeUp(wakeUp); // the heartbeat's thread writes it into the registry row
    if (wakeUp == QLatin1String("notify"))
        m_log(RelayLogText::english(RelayLogText::WakeUpNotify));
    else if (wakeUp == QLatin1String("doorbell"))
        m_log(RelayLogText::english(RelayLogText::WakeUpDoorbell)
                  .arg(m_doorbell->slotName(), ReplicationDoorbell::publication(m_db->dialect()))
                  .arg(m_poll.floor())
                  .arg(m_poll.ceiling()));
    else if (wakeUp == QLatin1String("data_version"))
        m_log(RelayLogText::english(RelayLogText::WakeUpDataVersion).arg(ChangeCheckMs));
    else if (opening)
        m_log(RelayLogText::english(RelayLogText::WakeUpPollDoorbellOpening)
                  .arg(m_poll.floor())
                  .arg(m_poll.ceiling())
                  .arg(m_doorbell->slotName())
                  .arg(m_doorbell->openingForMs() / 1000));
    else if (m_doorbellRefused.isEmpty() && m_doorbellCrowded.isEmpty())
        m_log(RelayLogText::english(RelayLogText::WakeUpPoll).arg(m_poll.floor()).arg(m_poll.ceiling()));
    else
        m_log(RelayLogText::english(RelayLogText::WakeUpPollNoDoorbell)
                  .arg(m_poll.floor())
                  .arg(m_poll.ceiling())
                  .arg(m_doorbellRefused.isEmpty() ? m_doorbellCrowded : m_doorbellRefused));
}

bool Relay::doorbellRings() const
{
    return m_doorbell && m_doorbell->isRinging();
}

QString Relay::wakeUpName() const
{
    if (m_listening && m_triggerOn)
        return QStringLiteral("notify");
    if (doorbellRings())
        return QStringLiteral("doorbell");
    if (!m_changeCounter.isEmpty())
        return QStringLiteral("data_version");
    return QStringLiteral("poll");
}

void Relay::updateDoorbell()
{
    const bool wanted =
        m_options.notify && m_db->dialect().supportsNotifications() && !(m_listening && m_triggerOn);
    if (!wanted) {
        m_doorbell.reset();
        return;
    }
    if (!m_doorbellRefused.isEmpty())
        return;
    if (m_doorbell && m_doorbell->isOpen())
        return; // ringing, or its slot is still being created (the relay polls meanwhile)
    if (m_doorbell) {
        // It rang and was lost (the server ended its connection): the claims went on by polling;
        // ring again from now.
        m_doorbell.reset();
        m_wakeUp.clear();
    }
    // Enough relays ring on this database already (ReplicationDoorbell::MaxPerDatabase): poll as a
    // standby, and ask again now and then, so that a relay takes over a doorbell whose relay went
    // away. The ringing relays claim a commit's events within milliseconds; a standby polls every
    // StandbyPollMs at most when idle and joins at the poll's floor once a claim finds events. At the
    // idle ceiling 196 standbys cost their server 114 % of a core (tests/bench/relay_idle_cost.sh).
    constexpr qint64 CrowdCheckMs = 30000;
    constexpr int StandbyPollMs = 2000;
    if (!m_doorbellCrowded.isEmpty() && m_sinceCrowdCheck.isValid() &&
        m_sinceCrowdCheck.elapsed() < CrowdCheckMs)
        return;
    if (auto ringing = ReplicationDoorbell::ringingOn(*m_db);
        ringing && *ringing >= ReplicationDoorbell::MaxPerDatabase) {
        m_doorbellCrowded =
            QStringLiteral("%1 relays ring a doorbell on this database already (at most %2: each WAL sender "
                           "decodes all of the server's WAL); asking again every %3 s")
                .arg(*ringing)
                .arg(ReplicationDoorbell::MaxPerDatabase)
                .arg(CrowdCheckMs / 1000);
        m_poll.setCeiling(std::max(m_options.pollIntervalMs, StandbyPollMs));
        m_sinceCrowdCheck.restart();
        return;
    }
    if (!m_doorbellCrowded.isEmpty()) {
        m_doorbellCrowded.clear();
        m_poll.setCeiling(m_options.pollIntervalMs);
        m_wakeUp.clear(); // say the new wake-up
    }
    auto bell = ReplicationDoorbell::open(
        m_target.url(), ReplicationDoorbell::publication(m_db->dialect()),
        m_db->dialect().table(QStringLiteral("outbox_events")),
        QStringLiteral("outbox-relay-doorbell %1").arg(m_options.workerId).left(63));
    if (!bell) {
        m_doorbellRefused = bell.message();
        return;
    }
    m_doorbell = std::move(bell).value();
    // Both arrive from inside the doorbell's own reading: say the new wake-up from the loop, where
    // a refused doorbell may be let go.
    QObject::connect(
        m_doorbell.get(), &ReplicationDoorbell::ready, m_notifyContext.get(),
        [this] { checkWakeUpTrigger(); }, Qt::QueuedConnection);
    QObject::connect(m_doorbell.get(), &ReplicationDoorbell::refused, m_notifyContext.get(),
                     [this](const QString& why) {
                         m_doorbellRefused = why;
                         m_wakeUp.clear(); // say why, also after "until the slot is created"
                         QTimer::singleShot(0, m_notifyContext.get(), [this] { checkWakeUpTrigger(); });
                     });
    QObject::connect(m_doorbell.get(), &ReplicationDoorbell::rang, m_notifyContext.get(), [this] {
        m_notified = true;
        m_poll.found(); // an empty claim after a ring is retried at the poll's floor
    });
    QObject::connect(m_doorbell.get(), &ReplicationDoorbell::lost, m_notifyContext.get(),
                     [this](const QString& why) {
                         m_log(RelayLogText::english(RelayLogText::DoorbellLost)
                                   .arg(why)
                                   .arg(m_poll.floor())
                                   .arg(m_poll.ceiling()));
                         m_notified = true; // a ring may have been lost with it: claim now
                     });
}

bool Relay::databaseChanged()
{
    if (m_changeCounter.isEmpty() || !m_db || m_sinceChangeCheck.elapsed() < ChangeCheckMs)
        return false;
    m_sinceChangeCheck.restart();
    auto count = m_db->scalar(m_changeCounter);
    if (!count)
        return true; // let the claim find out what is wrong
    const bool changed = !m_lastChangeCount.isValid() || *count != m_lastChangeCount;
    m_lastChangeCount = *count;
    return changed;
}

bool Relay::reconnectDatabase()
{
    m_doorbell.reset();
    m_notifyContext.reset();
    m_listener.reset();
    m_store.reset();
    m_db.reset();
    Status s = connect();
    if (!s)
        setState(QStringLiteral("DEGRADED"), s.message());
    return s.ok();
}

Status Relay::run(const std::atomic<bool>& stopRequested)
{
    if (Status s = m_options.validate(); !s)
        return s;
    if (Status s = connect(); !s)
        return s;
    if (m_options.claimMode == ClaimMode::Held && !m_db->dialect().supportsHeldClaims())
        return Error::usage(QStringLiteral("relay.claim_mode = held needs PostgreSQL (row locks held while a "
                                           "batch is sent); use relay.claim_mode = lease on this database"))
            .about(QStringLiteral("relay.claim_mode"));
    // What the heartbeat says this loop waits for, when it waits too long (built once: poll() is
    // marked thousands of times a second).
    m_callProbe = QStringLiteral("probing %1").arg(m_options.brokerText());
    m_callAnswers = QStringLiteral("waiting for %1's answers").arg(m_options.brokerText());
    m_callPublish = QStringLiteral("publishing to %1").arg(m_options.brokerText());
    m_callReplay = QStringLiteral("replaying dead letters to %1").arg(m_options.brokerText());
    // Registered and reaping before the broker is first asked: a broker that hangs the first
    // connection leaves a relay that says so (DEGRADED), not one that looks absent.
    m_heartbeat = std::make_unique<RelayHeartbeat>(m_target, m_options, m_stats, m_pulse, m_log);
    m_heartbeat->start();
    Result<std::unique_ptr<Publisher>> publisher = Error::runtime(QString());
    {
        BrokerCall call(m_pulse, QStringLiteral("connecting to %1").arg(m_options.brokerText()));
        publisher = m_options.publisher();
    }
    if (!publisher) {
        m_heartbeat->stop();
        (void)RelayStore(*m_db).remove(m_options.workerId);
        return publisher.error();
    }
    m_publisher = std::move(publisher).value();
    m_sinceHeartbeat.start();
    m_sinceRetention.start();
    m_sinceDeadRetention.start();
    m_sinceReplay.start();
    m_sinceEmptyClaim.start();
    m_sinceClaimStarted.start();
    setState(QStringLiteral("RUNNING"));
    if (m_publisher->connectionDown()) // no claim before a probe succeeds
        degrade(m_publisher->connectionError());
    maintenance(true);
    m_stats.inLoop = true;
    loop(stopRequested);
    m_stats.inLoop = false;
    drain();
    return {};
}

void Relay::loop(const std::atomic<bool>& stopRequested)
{
    bool lastClaimEmpty = false;
    while (true) {
        m_desired = m_pulse.desired();
        const bool stopping =
            stopRequested.load() || m_desired == QLatin1String("DRAIN") || m_desired == QLatin1String("STOP");
        maintenance();
        if (stopping && m_flights.empty()) {
            if (!stopRequested.load())
                m_log(RelayLogText::english(RelayLogText::Drained).arg(m_desired));
            return;
        }
        if (stopping && !m_sinceStop.isValid())
            m_sinceStop.start();
        if (stopping && m_sinceStop.elapsed() >= drainLimitMs()) {
            // Whatever the broker does, a stop ends within the lease: what it left unanswered stays
            // SENDING until the lease expires, then goes again (the attempt counted, as for a crash).
            m_log(RelayLogText::english(RelayLogText::DrainTimePassed)
                      .arg(drainLimitMs())
                      .arg(inFlightCount())
                      .arg(m_options.brokerText()));
            for (Flight& f : m_flights)
                if (f.held)
                    f.held->abandon();
            m_flights.clear();
            m_leasesHeld = 0;
            m_pulse.setLeasesHeld(0);
            return;
        }
        if (!m_db && !reconnectDatabase()) {
            waitForWork(int(std::max<qint64>(100, m_backoff.delayFor(++m_degradedRounds))), stopRequested);
            continue;
        }
        if (m_degraded && m_flights.empty() && !stopping) {
            // Do not claim while the broker is unreachable: events stay PENDING for whoever can send.
            BrokerCall call(m_pulse, m_callProbe);
            if (m_publisher->fatal()) {
                m_log(RelayLogText::english(RelayLogText::ProducerRecreated)
                          .arg(m_publisher->connectionError()));
                auto fresh = m_options.publisher();
                if (fresh)
                    m_publisher = std::move(fresh).value();
            }
            if (Status probe = m_publisher->probe(2000); !probe) {
                setState(QStringLiteral("DEGRADED"), probe.message());
                waitForWork(int(std::max<qint64>(200, m_backoff.delayFor(++m_degradedRounds))),
                            stopRequested);
                continue;
            }
            m_degraded = false;
            m_degradedRounds = 0;
            m_log(RelayLogText::english(RelayLogText::BrokerReachable).arg(m_publisher->kind()));
        }

        // Keep up to two batches in flight: the next claim overlaps the current batch's flight. A
        // publisher with a window of its own (RabbitMQ's unconfirmed publishes) gets one batch more
        // than that window, so that it stays full while an answered batch is marked and the next
        // one claimed (with two batches for a window of two, the broker idled during that SQL).
        const int ahead = std::max(m_options.batchSize, m_publisher->inFlightLimit());
        const int window = m_options.pipeline ? m_options.batchSize + ahead : m_options.batchSize;
        // After an empty claim, ask again only when woken or after the poll interval: the full
        // interval when every commit rings at once (NOTIFY, SQLite), else AdaptivePoll's, short
        // right after work (polling, and behind a doorbell that may ring late: ringsAtCommit()).
        if (lastClaimEmpty && !m_notified && databaseChanged())
            m_notified = true;
        const int waitAfterEmpty = ringsAtCommit() ? m_options.pollIntervalMs : m_poll.interval();
        const bool pollDue = m_sinceEmptyClaim.elapsed() >= waitAfterEmpty;
        const bool intervalDue = m_sinceEmptyClaim.elapsed() >= m_options.pollIntervalMs;
        // Caught up and woken by a commit: the commits of the next few milliseconds share one
        // claim and one mark. At 2,000 events/s a claim per commit was two statements per commit
        // on the database's cores, which the writers, the consumers and the console share
        // (docs/benchmarks.md, "Linger": 13-17 % fewer transactions for 2 ms of p50). An event
        // alone waits for nothing: the linger runs from the last claim that found events. Behind a
        // doorbell the adaptive poll stands in for a late ring, so the linger holds it back alike.
        const bool woken = m_notified || (pollDue && wakesOnCommit() && !ringsAtCommit());
        const qint64 lingerLeft = lastClaimEmpty && woken && !intervalDue && m_sinceFindingClaim.isValid()
                                      ? m_options.lingerMs - m_sinceFindingClaim.elapsed()
                                      : 0;
        const bool due = (!lastClaimEmpty || m_notified || pollDue) && lingerLeft <= 0;
        // After librdkafka's queue refused messages, claim again only once the flights are done.
        if (m_queueFull && m_flights.empty())
            m_queueFull = false;
        const bool mayClaim =
            !stopping && !m_degraded && m_desired == QLatin1String("RUN") && due && !m_queueFull;
        if (mayClaim && inFlightCount() + m_options.batchSize <= window) {
            m_notified = false;
            auto batch = claim();
            if (!batch) {
                // The database refused the claim: no new claim before the poll interval, and with
                // nothing in flight a backoff that a stop interrupts at once.
                lastClaimEmpty = true;
                m_sinceEmptyClaim.restart();
                m_poll.failed();
                if (m_flights.empty()) {
                    waitForWork(int(std::max<qint64>(100, m_backoff.delayFor(m_degradedRounds))),
                                stopRequested);
                    continue;
                }
            } else if (batch->events.isEmpty()) {
                lastClaimEmpty = true;
                m_sinceEmptyClaim.restart();
                m_poll.empty();
            } else {
                m_poll.found();
                if (!brokerFailing()) // DEGRADED stays until the broker answers (accepts) again
                    setState(QStringLiteral("RUNNING"));
                m_sinceFindingClaim = m_sinceClaimStarted;
                const bool full = int(batch->events.size()) == m_options.batchSize;
                // A short batch means the relay has caught up. When every commit wakes it (NOTIFY,
                // or SQLite's change counter), the next claim waits for that wake-up (or the poll
                // interval) instead of asking again at once: back-to-back claims that find a few
                // events each kept the loop inside SQL while acks waited to be polled and marked,
                // and loaded the database (commit -> ack p50 19 ms on a quiet machine).
                lastClaimEmpty = !full && wakesOnCommit();
                if (lastClaimEmpty)
                    m_sinceEmptyClaim.restart();
                if (lastClaimEmpty && !ringsAtCommit())
                    (void)m_poll.empty(); // behind a doorbell: the safety-net poll starts at its floor
                launch(std::move(*batch));
                if (full)
                    continue; // a full batch: there may be more right away
            }
        }
        if (m_flights.empty()) {
            if (m_desired == QLatin1String("PAUSE"))
                setState(QStringLiteral("PAUSED"));
            else if (lastClaimEmpty && !m_degraded && !brokerFailing())
                setState(QStringLiteral("IDLE"));
            if (lingerLeft > 0) {
                QThread::msleep(ulong(lingerLeft)); // a few ms: the NOTIFYs meanwhile wait in the socket
            } else if (!m_notified) {
                // Polling adaptively: wait what is left of the interval since the empty claim.
                const qint64 left = m_poll.interval() - m_sinceEmptyClaim.elapsed();
                waitForWork(lastClaimEmpty && !ringsAtCommit() ? int(std::max<qint64>(1, left))
                                                               : m_options.pollIntervalMs,
                            stopRequested);
            }
            continue;
        }
        {
            BrokerCall call(m_pulse, m_callAnswers);
            m_publisher->poll(1);
        }
        QCoreApplication::processEvents(); // delivers NOTIFYs that arrived meanwhile
        harvest(false);
    }
}

int Relay::inFlightCount() const
{
    int n = 0;
    for (const Flight& f : m_flights)
        n += f.unmarked;
    return n;
}

void Relay::launch(ClaimedBatch batch)
{
    const qint64 claimedAtMs = QDateTime::currentMSecsSinceEpoch();
    std::unique_ptr<HeldClaim> held = std::move(m_claimedHeld);
    const qint64 journalId = std::exchange(m_claimedJournal, 0);
    // Crash here: the lease expires (held: the locks go with the connection), another relay delivers.
    (void)Failpoints::hit("relay.after_claim");
    if (Status s = Failpoints::hit("relay.before_produce"); !s) {
        m_log(s.message());
        if (held) {
            held->abandon(); // nothing was sent: the rows are PENDING as they were, no attempt counted
            if (m_db)
                (void)HeldClaim::forget(*m_db, journalId);
            m_idleHeld.push_back(std::move(held));
            return;
        }
        QVector<qint64> ids;
        for (const OutboxEvent& e : batch.events)
            ids << e.id;
        (void)m_store->release(batch.leaseToken, ids);
        return;
    }
    QVector<BrokerMessage> messages;
    messages.reserve(batch.events.size());
    for (const OutboxEvent& e : batch.events)
        messages << toMessage(e);
    // Every message must be queued early enough for its delivery report (message.timeout.ms) and
    // the mark to land inside the lease; what librdkafka's full queue cannot take by then is given
    // back (released) instead of sent after the lease might have passed to another relay.
    const qint64 queueWaitMs = std::max<qint64>(0, m_options.leaseMs - m_options.deliveryDeadlineMs() -
                                                       m_sinceClaimStarted.elapsed());
    Flight flight;
    flight.claimedAtMs = claimedAtMs;
    flight.held = std::move(held);
    flight.journalId = journalId;
    {
        BrokerCall call(m_pulse, m_callPublish);
        flight.pending = m_publisher->enqueue(messages, queueWaitMs);
    }
    // The connection went while publishing: no further claim before a probe succeeds.
    if (m_publisher->connectionDown())
        degrade(m_publisher->connectionError());
    // Under producer back-pressure, claim next time about what fitted (no claim-and-release churn
    // of whole batches), and grow back to the batch size once batches fit again.
    const int notQueued = flight.pending->notQueued();
    if (notQueued > 0) {
        m_queueFull = true;
        m_claimLimit = std::max(1, int(batch.events.size()) - notQueued);
    } else if (m_claimLimit > 0) {
        m_claimLimit = m_claimLimit * 2 >= m_options.batchSize ? 0 : m_claimLimit * 2;
    }
    (void)Failpoints::hit("relay.after_produce"); // crash while sending: the lease expires, attempts count
    flight.marked = QVector<bool>(batch.events.size(), false);
    flight.unmarked = int(batch.events.size());
    flight.batch = std::move(batch);
    flight.launched.start();
    m_flights.push_back(std::move(flight));
}

void Relay::harvest(bool everything)
{
    // Mark what the broker has answered, in batches: a whole flight once complete, or the answered
    // part of a flight whose stragglers keep it waiting (one slow topic must not stall the rest).
    for (Flight& f : m_flights) {
        if (f.held && !f.held->holding()) {
            // Its transaction was rolled back (a mark failed): nothing more to mark, its events are
            // PENDING again; the reports still outstanding are dropped with the flight.
            f.unmarked = 0;
            continue;
        }
        const bool complete = f.pending->outstanding() == 0;
        if (!complete && !everything && f.launched.elapsed() < StragglerMs)
            continue;
        QVector<int> ready;
        for (int i = 0; i < f.batch.events.size(); ++i) {
            if (!f.marked.at(i) && f.pending->isReported(i))
                ready << i;
        }
        if (ready.isEmpty())
            continue;
        if (Status s = Failpoints::hit("relay.after_confirm_before_mark"); !s)
            m_log(s.message());
        mark(f, ready);
        for (int i : ready)
            f.marked[i] = true;
        f.unmarked -= int(ready.size());
        if (f.held && f.unmarked == 0)
            finishHeld(f);
    }
    m_flights.erase(
        std::remove_if(m_flights.begin(), m_flights.end(), [](const Flight& f) { return f.unmarked == 0; }),
        m_flights.end());
    m_leasesHeld = inFlightCount();
    m_pulse.setLeasesHeld(m_leasesHeld);
}

Result<std::unique_ptr<HeldClaim>> Relay::heldConnection()
{
    if (!m_idleHeld.empty()) {
        std::unique_ptr<HeldClaim> held = std::move(m_idleHeld.back());
        m_idleHeld.pop_back();
        return held;
    }
    auto db = m_target.open(QStringLiteral("relay-held"));
    if (!db)
        return db.error();
    return HeldClaim::open(std::move(db).value(), m_options.leaseMs);
}

void Relay::finishHeld(Flight& f)
{
    if (!f.held->holding())
        return; // rolled back after a failed mark; the connection is not reused
    if (Status s = f.held->finish(f.journalId); !s) {
        m_stats.markErrors.fetch_add(1);
        m_log(RelayLogText::english(RelayLogText::BatchPendingAgain).arg(s.message()));
        f.held.reset();
        return;
    }
    m_idleHeld.push_back(std::move(f.held));
}

std::optional<ClaimedBatch> Relay::claim()
{
    m_sinceClaimStarted.restart();
    const int limit = m_claimLimit > 0 ? m_claimLimit : m_options.batchSize;
    Result<ClaimedBatch> batch = ClaimedBatch{};
    if (m_options.claimMode == ClaimMode::Held) {
        auto held = heldConnection();
        if (!held) {
            batch = held.error();
        } else {
            batch = (*held)->claim(m_options.workerId, limit, m_options.ordering);
            if (batch && !batch->events.isEmpty()) {
                // Journalled and committed before anything is sent: should this relay die holding
                // the batch, the reaper counts the attempt it began.
                QVector<qint64> ids;
                ids.reserve(batch->events.size());
                for (const OutboxEvent& e : batch->events)
                    ids << e.id;
                auto journal = HeldClaim::journal(*m_db, m_options.workerId, ids, m_options.leaseMs);
                if (!journal) {
                    (*held)->abandon();
                    batch = journal.error();
                } else {
                    m_claimedHeld = std::move(held).value();
                    m_claimedJournal = *journal;
                }
            } else if (batch) {
                m_idleHeld.push_back(std::move(held).value());
            }
        }
    } else {
        batch = m_store->claim(m_options.workerId, limit, m_options.leaseMs, m_options.ordering);
    }
    if (!batch) {
        setState(QStringLiteral("DEGRADED"), batch.message());
        ++m_degradedRounds;
        reconnectDatabase();
        return std::nullopt; // the loop backs off, interruptibly
    }
    if (!m_degraded)
        m_degradedRounds = 0;
    m_stats.claimed.fetch_add(batch->events.size());
    return std::move(batch).value();
}

BrokerMessage Relay::toMessage(const OutboxEvent& e) const
{
    BrokerMessage m;
    m.topic = m_router.topicFor(e);
    m.exchange = m_exchangeRouter.expand(e);
    m.messageId = e.eventId;
    m.type = e.eventType;
    m.createdAtMs = e.createdAt.toMSecsSinceEpoch();
    m.key = e.aggregateId.toUtf8();
    m.payload = e.payload;
    m.headers = {{"event_id", e.eventId.toUtf8()},
                 {"event_type", e.eventType.toUtf8()},
                 {"aggregate_type", e.aggregateType.toUtf8()},
                 {"aggregate_id", e.aggregateId.toUtf8()},
                 {"schema_version", QByteArray::number(e.schemaVersion)}};
    if (e.aggregateVersion)
        m.headers.append({"aggregate_version", QByteArray::number(*e.aggregateVersion)});
    // The writer's headers after the relay's own; one of a name the relay sets itself is dropped, so
    // that every consumer sees one header of that name, the relay's (docs/contract.md, "Headers";
    // doctor: contract-violations/reserved-header).
    const QJsonObject extra = QJsonDocument::fromJson(e.headers).object();
    for (auto it = extra.begin(); it != extra.end(); ++it) {
        if (ReservedHeaders::isReserved(it.key().toUtf8()))
            continue;
        const QByteArray value = it->isString() ? it->toString().toUtf8()
                                                : QJsonDocument(QJsonObject{{QStringLiteral("v"), *it}})
                                                      .toJson(QJsonDocument::Compact)
                                                      .mid(5)
                                                      .chopped(1);
        m.headers.append({it.key().toUtf8(), value});
    }
    return m;
}

void Relay::mark(Flight& flight, const QVector<int>& indexes)
{
    HeldClaim* held = flight.held.get();
    if (!m_store && !held) {
        // No database right now: the events stay SENDING until their lease expires, then go again.
        m_stats.markErrors.fetch_add(1);
        return;
    }
    Outcome o = sortReports(flight, indexes);
    judgeBroker(flight, o);
    record(flight, o);
}

// The broker's answers for these events, sorted by what is done with each event.
Relay::Outcome Relay::sortReports(const Flight& flight, const QVector<int>& indexes)
{
    const ClaimedBatch& batch = flight.batch;
    const std::vector<DeliveryReport>& reports = flight.pending->reports();
    const qint64 claimedAtMs = flight.claimedAtMs;
    Outcome o;
    // created_at comes from the database's clock; the ack from this host's (RelayHeartbeat measures
    // the difference), so that a relay whose clock is off still reports true latencies.
    const qint64 clockOffsetMs = m_pulse.clockOffsetMs.load();
    for (int i : indexes) {
        const OutboxEvent& e = batch.events.at(i);
        const DeliveryReport& r = reports.at(size_t(i));
        if (r.notQueued) { // never left this process: give it back, no attempt spent
            o.notQueued << e.id;
            o.notQueuedWhy = r.message;
            continue;
        }
        DeliveryClass c = r.deliveryClass;
        // A send that never left because no broker was reachable says nothing about the event.
        if (m_publisher->connectionDown() && c != DeliveryClass::Success &&
            c != DeliveryClass::Deterministic && !r.possiblyPersisted)
            c = DeliveryClass::ConnectionWide;
        switch (c) {
        case DeliveryClass::Success: {
            o.answered = true;
            o.accepted = true;
            if (!m_refusals.isEmpty())
                m_refusals.remove(e.id);
            o.sent << SentMark{e.id, r.partition, r.offset, m_router.topicFor(e)};
            const qint64 createdMs = e.createdAt.toMSecsSinceEpoch();
            o.latencies << SentLatency{e.id, r.ackedAtMs + clockOffsetMs - createdMs,
                                       claimedAtMs + clockOffsetMs - createdMs, r.ackedAtMs - claimedAtMs};
            if (e.attempts > 1)
                m_stats.redelivered.fetch_add(1);
            break;
        }
        case DeliveryClass::ConnectionWide:
            o.release << e.id;
            o.connectionError = r.message.isEmpty() ? m_publisher->connectionError() : r.message;
            break;
        case DeliveryClass::Deterministic:
            // The broker's refusal of this event as it is (too large, no route, no such topic or
            // exchange, not authorised): the one answer that spends its attempt, FAILED at once.
            o.answered = true;
            if (!m_refusals.isEmpty())
                m_refusals.remove(e.id);
            o.failed << ErrorMark{e.id, r.message, deliveryClassName(c), 0};
            break;
        case DeliveryClass::UnknownOutcome:
            // No answer (the connection went, or no confirm in time): says nothing about the event.
            // Sent again after a backoff of its own, the attempt given back: a flapping broker or a
            // resetting proxy never turns a deliverable event DEAD (docs/contract.md).
            o.unanswered << ErrorMark{e.id, r.message, deliveryClassName(c), 0};
            break;
        case DeliveryClass::Transient: {
            // A refusal that may pass later (RabbitMQ's basic.nack, an internal error of its queue; a
            // retriable Kafka error): the broker's trouble, not the event's. Sent again after a
            // backoff of its own that grows with each refusal, the attempt given back, so that a
            // nacking broker never turns a deliverable event DEAD (docs/contract.md).
            o.answered = true;
            if (m_refusals.size() >= 100000)
                m_refusals.clear(); // a bound on memory: the backoff starts over, nothing else
            const int times = ++m_refusals[e.id];
            o.refused << ErrorMark{e.id, r.message, deliveryClassName(c), m_backoff.delayFor(times)};
            break;
        }
        }
    }

    return o;
}

// What the answers say of the broker: silences, refusals, DEGRADED, and each unanswered event's
// backoff.
void Relay::judgeBroker(const Flight& flight, Outcome& o)
{
    const bool wasFailing = brokerFailing();
    if (o.answered) {
        m_unansweredRounds = 0;
        m_silences = 0;
        m_sinceBrokerAnswered.start();
    } else if (!o.unanswered.isEmpty() || !o.release.isEmpty()) {
        ++m_unansweredRounds;
        if (!m_sinceBrokerAnswered.isValid())
            m_sinceBrokerAnswered.start();
        if (flight.launched.msecsSinceReference() > m_silenceCountedAtMs) {
            ++m_silences;
            QElapsedTimer now;
            now.start();
            m_silenceCountedAtMs = now.msecsSinceReference();
        }
    }
    if (o.accepted) {
        m_refusedRounds = 0;
        m_sinceBrokerAccepted.start();
    } else if (!o.refused.isEmpty()) {
        ++m_refusedRounds;
        if (!m_sinceBrokerAccepted.isValid())
            m_sinceBrokerAccepted.start();
    }
    if (wasFailing && !brokerFailing() && !m_degraded)
        setState(QStringLiteral("RUNNING"));
    // Each event its own draw (full jitter): a batch retried as one would hit the broker as one.
    for (ErrorMark& m : o.unanswered)
        m.retryDelayMs = m_backoff.delayFor(std::max(1, m_silences));
    const QString silence = !o.unanswered.isEmpty()        ? o.unanswered.constFirst().error
                            : !o.connectionError.isEmpty() ? o.connectionError
                                                           : m_publisher->connectionError();
    // Persisting: DEGRADED (the doctor's relay-degraded) until the broker answers again.
    if (brokerSilent())
        degrade(QStringLiteral("%1 answered none of the last %2 batches for %3 s (%4); their events are "
                               "sent again without spending attempts")
                    .arg(m_options.brokerText())
                    .arg(m_unansweredRounds)
                    .arg(m_sinceBrokerAnswered.elapsed() / 1000)
                    .arg(silence));
    else if (brokerRefusing()) // it answers, so claims go on (each refused event at its own backoff)
        // The same words while it lasts: the log says "still DEGRADED" once per new reason.
        setState(QStringLiteral("DEGRADED"),
                 QStringLiteral("%1 refuses every publish for longer than a heartbeat (%2); their events are "
                                "sent again without spending attempts")
                     .arg(m_options.brokerText(), o.refused.isEmpty() ? QStringLiteral("no new answer")
                                                                      : o.refused.constFirst().error));
    else if (!o.unanswered.isEmpty() && m_publisher->connectionDown())
        degrade(silence);
}

// The answers written: SENT, retried, FAILED or released, in the held claim's transaction or by
// lease token.
void Relay::record(Flight& flight, const Outcome& o)
{
    const ClaimedBatch& batch = flight.batch;
    HeldClaim* held = flight.held.get();
    auto account = [&](const char* what, const Result<FenceResult>& result, std::atomic<qint64>& counter) {
        if (!result) {
            m_stats.markErrors.fetch_add(1);
            m_log(RelayLogText::english(held ? RelayLogText::MarkFailedHeld : RelayLogText::MarkFailedLeases)
                      .arg(QLatin1String(what), result.message()));
            return false;
        }
        counter.fetch_add(result->updated);
        if (&counter == &m_stats.sent) {
            const QSet<qint64> fenced(result->fenced.cbegin(), result->fenced.cend());
            for (const SentLatency& l : o.latencies) {
                if (!fenced.contains(l.id)) {
                    m_stats.recordLatency(l.commitToAck);
                    m_stats.recordStages(l.commitToClaim, l.claimToAck);
                }
            }
        }
        if (!result->fenced.isEmpty()) {
            m_stats.fenced.fetch_add(result->fenced.size());
            m_log(RelayLogText::english(RelayLogText::Fenced)
                      .arg(QLatin1String(what))
                      .arg(result->fenced.size()));
        }
        return true;
    };
    if (held) {
        // In the batch's own transaction, committed by finishHeld() once every event is marked.
        // Released events need no write: they are PENDING as they were when the locks go.
        bool ok = o.sent.isEmpty() || account("mark SENT", held->markSent(o.sent), m_stats.sent);
        ok = ok && (o.refused.isEmpty() ||
                    account("retry refused", held->retryUncounted(o.refused), m_stats.retried));
        ok = ok && (o.unanswered.isEmpty() ||
                    account("retry unanswered", held->retryUncounted(o.unanswered), m_stats.retried));
        ok = ok && (o.failed.isEmpty() || account("mark FAILED", held->markFailed(o.failed), m_stats.failed));
        if (!ok)
            held->abandon();
        m_stats.released.fetch_add(o.release.size() + o.notQueued.size());
        if (!o.release.isEmpty() && !brokerSilent())
            degrade(o.connectionError);
        if (!o.notQueued.isEmpty()) {
            m_queueFull = true;
            m_log(RelayLogText::english(RelayLogText::Released).arg(o.notQueued.size()).arg(o.notQueuedWhy));
        }
        return;
    }
    if (!o.sent.isEmpty()) {
        auto result = m_store->markSent(batch.leaseToken, o.sent);
        if (!result) {
            // One more try on a fresh connection before leaving it to the lease.
            reconnectDatabase();
            if (m_store)
                result = m_store->markSent(batch.leaseToken, o.sent);
        }
        account("mark SENT", result, m_stats.sent);
    }
    if (!m_store)
        return;
    if (!o.refused.isEmpty())
        account("retry refused", m_store->retryUncounted(batch.leaseToken, o.refused), m_stats.retried);
    if (!o.unanswered.isEmpty())
        account("retry unanswered", m_store->retryUncounted(batch.leaseToken, o.unanswered), m_stats.retried);
    if (!o.failed.isEmpty())
        account("mark FAILED", m_store->markFailed(batch.leaseToken, o.failed), m_stats.failed);
    if (!o.release.isEmpty()) {
        account("release", m_store->release(batch.leaseToken, o.release), m_stats.released);
        if (!brokerSilent())
            degrade(o.connectionError);
    }
    if (!o.notQueued.isEmpty()) {
        m_queueFull = true;
        if (account("release", m_store->release(batch.leaseToken, o.notQueued), m_stats.released))
            m_log(RelayLogText::english(RelayLogText::Released).arg(o.notQueued.size()).arg(o.notQueuedWhy));
    }
}

void Relay::degrade(const QString& why)
{
    m_degraded = true;
    setState(QStringLiteral("DEGRADED"), why);
}

void Relay::maintenance(bool force)
{
    // The heartbeat and the lease reaper run on RelayHeartbeat's thread, whatever this loop waits for.
    if (!m_db)
        return;
    if (force || m_sinceHeartbeat.elapsed() >= m_options.heartbeatMs) {
        m_sinceHeartbeat.restart();
        checkWakeUpTrigger();
    }
    maintenanceReplayAndRetention(force);
}

void Relay::maintenanceReplayAndRetention(bool force)
{
    // Dead letters an operator asked to replay (REPLAYING) go out through this relay's producer,
    // each claimed under a lease so that of several relays only one produces it; rows left
    // REPLAYING by a crash are picked up again once their lease expires.
    if (m_publisher && !m_degraded && (force || m_sinceReplay.elapsed() >= 1000)) {
        m_sinceReplay.restart();
        BrokerCall call(m_pulse, m_callReplay);
        ReplayOptions replay;
        replay.workerId = m_options.workerId;
        replay.leaseMs = m_options.leaseMs;
        replay.maxAttempts = m_options.maxAttempts;
        replay.backoffBaseMs = m_options.backoffBaseMs;
        replay.backoffCapMs = m_options.backoffCapMs;
        auto replayed = DeadLetterReplayer(*m_db, *m_publisher, replay, m_log)
                            .deliver(100, m_options.deliveryDeadlineMs());
        if (replayed)
            m_stats.replayed.fetch_add(replayed->delivered);
        else
            m_log(replayed.message());
    }
    // Retention: a pass deletes up to 10 batches of expired SENT rows (short statements, so the
    // relay's own claims wait little). While a pass ends with more to delete, the next comes a
    // second later instead of a minute later, so deletion keeps pace with any sustained send rate
    // (up to 10 batches a second per worker) instead of falling behind it for good.
    const qint64 retentionEveryMs = m_retentionBehind ? 1000 : 60000;
    if (m_options.retentionMs > 0 && (force || m_sinceRetention.elapsed() >= retentionEveryMs)) {
        m_sinceRetention.restart();
        m_retentionBehind = false;
        for (int round = 0; round < 10; ++round) {
            auto deleted = m_store->deleteSentOlderThan(m_options.retentionMs, m_options.retentionBatch);
            if (!deleted) {
                m_log(deleted.message());
                break;
            }
            m_stats.retained.fetch_add(*deleted);
            if (*deleted < m_options.retentionBatch)
                break;
            m_retentionBehind = round == 9;
        }
    }
    // DEAD rows have a retention of their own (kept longer, for the audit trail), checked with the
    // SENT rows' pass, one audited batch at a time.
    if (m_options.deadRetentionMs > 0 && m_db && (force || m_sinceDeadRetention.elapsed() >= 60000)) {
        m_sinceDeadRetention.restart();
        for (int round = 0; round < 10; ++round) {
            auto removed = DeadRetention(*m_db).removeOlderThan(m_options.deadRetentionMs,
                                                                m_options.retentionBatch, m_options.workerId);
            if (!removed) {
                m_log(removed.message());
                break;
            }
            if (*removed > 0)
                m_log(RelayLogText::english(RelayLogText::RetentionDead).arg(*removed));
            if (*removed < m_options.retentionBatch)
                break;
        }
    }
}

void Relay::waitForWork(int ms, const std::atomic<bool>& stopRequested)
{
    // Wakes on a NOTIFY (PostgreSQL), on a commit of events in this process, on a change the
    // database reports (SQLite), on stop, or when the poll interval has passed.
    QEventLoop loop;
    QObject context;
    if (m_listening && m_listener)
        m_listener->onNotification(&context, [&] { loop.quit(); });
    if (m_doorbell) {
        QObject::connect(m_doorbell.get(), &ReplicationDoorbell::rang, &context, [&] { loop.quit(); });
        QObject::connect(m_doorbell.get(), &ReplicationDoorbell::lost, &context, [&] { loop.quit(); });
    }
    if (m_db && m_options.localWakeup) {
        const QString key = m_db->eventsKey();
        QObject::connect(&NewEventsHub::instance(), &NewEventsHub::committed, &context,
                         [&, key](const QString& committed) {
                             if (committed == key)
                                 loop.quit();
                         });
    }
    QTimer tick;
    QObject::connect(&tick, &QTimer::timeout, &context, [&] {
        if (stopRequested.load() || m_notified || databaseChanged()) {
            m_notified = true;
            loop.quit();
        }
    });
    tick.start(m_changeCounter.isEmpty() ? 50 : ChangeCheckMs);
    QTimer::singleShot(ms, &context, [&] { loop.quit(); });
    loop.exec();
}

void Relay::drain()
{
    setState(QStringLiteral("DRAINING"));
    // Everything launched has been answered and marked by now (loop() waits for the flights).
    m_leasesHeld = 0;
    m_pulse.setLeasesHeld(0);
    if (m_heartbeat)
        m_heartbeat->stop(); // before the row goes, or its next beat would register the relay again
    if (m_db)
        (void)RelayStore(*m_db).remove(m_options.workerId);
    setState(QStringLiteral("STOPPED"));
}

} // namespace outbox
