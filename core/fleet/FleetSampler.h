#pragma once

#include "core/diagnosis/DiagnosisOptions.h"
#include "core/fleet/Fleet.h"
#include "core/fleet/MemberSample.h"

#include <QElapsedTimer>
#include <QObject>
#include <QThreadPool>
#include <QTimer>
#include <atomic>
#include <functional>
#include <memory>

namespace outbox {

// Samples every member of a fleet, one snapshot (counts and the doctor's findings, the same
// index-shaped queries as MetricsSampler and Doctor) per member per tick, without one member
// slowing the others:
//
// - each member's sample runs on a worker thread of its own pool with a connection of its own,
//   opened for the sample and closed after it: at most [fleet] max_connections are open at once;
// - a member that has not answered within [fleet] timeout of its start (a host that accepts TCP and
//   never answers, a slow query) is reported unreachable for that tick at once; its thread is not
//   waited for, and the member gets no second sample while the first is outstanding, so a stuck
//   member holds one thread and one connection at most (the connect timeout, one second more than
//   the fleet's, ends it);
// - a member that failed twice or more in a row is retried with backoff (interval × 2^(n-1), at
//   most 5 minutes); meanwhile it keeps its last state and error.
//
// Lives on the thread that creates it (it needs that thread's event loop); never blocks it.
class FleetSampler : public QObject
{
    Q_OBJECT

public:
    static constexpr qint64 MaxBackoffMs = 5 * 60 * 1000;

    // What makes a prepared command reach one member (the front end's spelling, e.g. the fleet file
    // and the member's name); added to the doctor's connectionArguments for that member.
    using MemberArguments = std::function<QStringList(const Fleet& fleet, const FleetMember& member)>;

    // `options`: the doctor's thresholds.
    FleetSampler(Fleet fleet, DiagnosisOptions options, MemberArguments memberArguments,
                 QObject* parent = nullptr);
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
        int failures = 0;     // unreachable in a row
        QElapsedTimer sinceFailure;
        qint64 backoffMs = 0;
        bool hasSample = false;
        MemberSample last;
    };

    // What the worker threads share with the sampler; outlives it while samples run.
    struct Shared;

    void dispatch();
    void startSample(int index);
    void sampleDone(int index, quint64 tick, MemberSample sample);
    void resolve(int index, MemberSample sample);
    MemberSample unreachable(int index, const QString& error, bool timedOut) const;

    Fleet m_fleet;
    DiagnosisOptions m_options;
    MemberArguments m_memberArguments;
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
