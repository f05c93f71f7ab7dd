#pragma once

#include "core/diagnosis/DiagnosisOptions.h"
#include "core/fleet/Fleet.h"
#include "core/fleet/MemberSample.h"

#include <QElapsedTimer>
#include <QObject>
#include <QThreadPool>
#include <QTimer>
#include <atomic>
#include <memory>

namespace outbox {

// Samples every member of a fleet in two cadences without one member slowing the others: the counts
// (MetricsQuery, the same index-shaped queries as MetricsSampler) every tick, the doctor's checks
// per member at most every [fleet] doctor_interval (as a single database's `serve` runs them every
// 30 s); between two doctor runs a member keeps its last report, with its age. The members' second
// doctor runs are spread over one doctor_interval, so that each tick runs about the same number.
//
// - each member's sample runs on a worker thread of its own pool with a connection of its own,
//   opened for the sample and closed after it: at most [fleet] max_connections are open at once;
// - a member that has not answered within [fleet] timeout of its start (a host that accepts TCP and
//   never answers, a slow query) missed that tick; its thread is not waited for, and the member gets
//   no second sample while the first is outstanding, so a stuck member holds one thread and one
//   connection at most (the connect timeout, one second more than the fleet's, ends it);
// - hysteresis: a member that answered before and misses a tick keeps its last answer, marked stale
//   (MemberSample::stale, missedTicks, its age), until it has missed [fleet] unreachable_after ticks
//   in a row: its findings stay exported, so alert timers keep running. An answer that comes after
//   the timeout is kept as the member's last answer (slow: it answers); a member that never
//   answered is unreachable at its first miss (nothing to keep);
// - an unreachable member that failed twice or more in a row is retried with backoff
//   (interval × 2^(n-1), at most 5 minutes); meanwhile it keeps its state and error, and says when
//   it tries again (nextAttemptMs).
//
// Lives on the thread that creates it (it needs that thread's event loop); never blocks it.
class FleetSampler : public QObject
{
    Q_OBJECT

public:
    static constexpr qint64 MaxBackoffMs = 5 * 60 * 1000;

    // `options`: the doctor's thresholds. A member's prepared commands reach it by its target's
    // command line (--fleet FILE --member NAME, DatabaseTarget::outboxctlArguments()).
    FleetSampler(Fleet fleet, DiagnosisOptions options, QObject* parent = nullptr);
    // Never waits: samples still running (a member that does not answer) finish on their threads
    // and their results are dropped; their pool is deleted once they have (or when the application
    // object goes, which then waits for them: at most the connect timeout).
    ~FleetSampler() override;

    const Fleet& fleet() const { return m_fleet; }
    // Ticks now and then every [fleet] interval.
    void start();
    void stop();
    // One tick now, unless one is still running (then false).
    bool tick();
    // The latest sample of every member that has one, worst first.
    QVector<MemberSample> latest() const;
    // The most connections that were open at once since the sampler was made.
    int peakConnections() const;

signals:
    // Every member answered, timed out or was skipped in its backoff: its samples, worst first.
    void tickFinished(const QVector<outbox::MemberSample>& samples);

private:
    struct Slot
    {
        FleetMember member;
        bool outstanding = false; // a sample is running on a worker thread
        QElapsedTimer started;
        bool resolved = true; // has its sample of the current tick
        int missed = 0;       // ticks in a row without an answer within the timeout
        int failures = 0;     // samples that failed (no answer at all) in a row
        QElapsedTimer sinceFailure;
        qint64 backoffMs = 0;
        QString lastError; // why its last sample failed
        bool hasAnswer = false;
        MemberSample answer;       // its last answer (reachable or unmigrated), with the last report
        QElapsedTimer sinceDoctor; // since the doctor last ran on it (invalid: never)
        qint64 doctorDueMs = 0;    // runs again once sinceDoctor passed this
        bool hasSample = false;
        MemberSample last; // what the last tick showed
    };

    // What the worker threads share with the sampler; outlives it while samples run.
    struct Shared;

    void dispatch();
    void startSample(int index);
    void sampleDone(int index, quint64 tick, MemberSample sample);
    void resolve(int index, MemberSample sample);
    // This tick had no answer from the member: its last answer marked stale, or unreachable.
    MemberSample missed(int index, const QString& error, bool timedOut);
    MemberSample unreachable(int index, const QString& error, bool timedOut) const;

    Fleet m_fleet;
    DiagnosisOptions m_options;
    std::unique_ptr<QThreadPool> m_pool;
    std::shared_ptr<Shared> m_shared;
    QTimer m_timer;
    QVector<Slot> m_slots;
    QVector<int> m_queue; // members waiting for a free connection in this tick
    int m_inFlight = 0;
    quint64 m_tick = 0;
    int m_unresolved = 0;
};

} // namespace outbox
