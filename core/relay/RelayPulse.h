#pragma once

#include <QElapsedTimer>
#include <QMutex>
#include <QString>
#include <atomic>

namespace outbox {

// What a relay worker's loop tells its heartbeat (RelayHeartbeat), and what the heartbeat tells the
// loop back (the desired state, the database's clock). The heartbeat runs on a thread and a
// connection of its own, so that a loop held up by a broker still proves that the process lives and
// says what holds it up, instead of going silent until the doctor calls it stopped.
class RelayPulse
{
public:
    // The loop's state (STARTING, RUNNING, IDLE, DEGRADED, PAUSED, DRAINING, STOPPED) and its last
    // error (an empty `error` keeps the previous one).
    void setState(const QString& state, const QString& error = {});
    void setLeasesHeld(int leases) { m_leasesHeld.store(leases); }
    // What wakes the loop (notify, doorbell, data_version or poll: RelayRecord::wakeup).
    void setWakeUp(const QString& wakeUp);
    // The loop enters and leaves a call that waits on the broker ("connecting to RabbitMQ …").
    void enterBrokerCall(const QString& what);
    void leaveBrokerCall();

    struct Snapshot
    {
        QString state;
        QString lastError;
        int leasesHeld = 0;
        QString wakeUp;
        QString brokerCall;      // empty when the loop is not inside a broker call
        qint64 brokerCallMs = 0; // for how long it has been inside it
    };
    Snapshot snapshot() const;

    // RUN, PAUSE, DRAIN or STOP, as the registry row said at the last heartbeat.
    void setDesired(const QString& desired);
    QString desired() const;

    // The database's clock minus this host's, measured at each heartbeat: latencies are taken
    // against created_at, which the database's clock wrote.
    std::atomic<qint64> clockOffsetMs{0};

private:
    mutable QMutex m_mutex;
    QString m_state = QStringLiteral("STARTING");
    QString m_lastError;
    QString m_wakeUp;
    QString m_desired = QStringLiteral("RUN");
    QString m_brokerCall;
    QElapsedTimer m_sinceBrokerCall;
    std::atomic<int> m_leasesHeld{0};
};

// Marks a broker call on a pulse for its scope.
class BrokerCall
{
public:
    BrokerCall(RelayPulse& pulse, const QString& what) : m_pulse(pulse) { m_pulse.enterBrokerCall(what); }
    ~BrokerCall() { m_pulse.leaveBrokerCall(); }
    BrokerCall(const BrokerCall&) = delete;
    BrokerCall& operator=(const BrokerCall&) = delete;

private:
    RelayPulse& m_pulse;
};

} // namespace outbox
