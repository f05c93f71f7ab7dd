#pragma once

#include "core/diagnosis/DiagnosisReport.h"
#include "core/metrics/MetricsSnapshot.h"

#include <QDateTime>
#include <QJsonObject>
#include <QMetaType>
#include <QString>
#include <QStringList>
#include <QVector>

namespace outbox {

// How one member of the fleet was at one tick: its state, the error that explains a bad one, the
// counts a wall tile shows, and the doctor's report (for `doctor --fleet`).
//
// One model for every front end (the NOC wall, /api/v1/fleet, /metrics, `status --fleet`, `doctor
// --fleet` and the console's Fleet page): a member that answered before and misses a tick (slower
// than [fleet] timeout, or an error) keeps its last answer, marked `stale` with its age, until it has
// missed [fleet] unreachable_after ticks in a row; only then is it unreachable.
struct MemberSample
{
    // Worst first: the order of a wall and of `status --fleet`.
    enum class State { Unreachable, Critical, Unmigrated, Warning, Ok };

    QString member;
    QStringList tags;
    State state = State::Unreachable;
    // Why it is unreachable or unmigrated, or why this tick's sample of a stale member did not
    // answer; empty otherwise. One sentence: it never grows from tick to tick.
    QString error;
    QDateTime sampledAt;   // when the counts below were read (this process's clock, UTC)
    qint64 elapsedMs = 0;  // how long that sample took (or waited before it was given up)
    bool timedOut = false; // this tick's sample did not answer within the fleet's timeout

    // Told apart: slow (answers, after the timeout) and unreachable (no answer for N ticks).
    bool stale = false;        // this tick had no answer: counts and findings are the last answer's
    int missedTicks = 0;       // ticks in a row without an answer within the timeout
    bool slow = false;         // its last answer came after the fleet's timeout
    QDateTime answeredAt;      // its last answer (unreachable too, when it ever answered)
    qint64 nextAttemptMs = -1; // unreachable and backed off: its next sample starts in this many ms
    // When the doctor's report below was made (this process's clock, UTC): the doctor runs on its
    // own slower cadence ([fleet] doctor_interval); the counts are read every tick.
    QDateTime findingsAt;

    // From the member's MetricsSnapshot (empty when unreachable or unmigrated).
    qint64 backlog = 0; // PENDING + SENDING + FAILED
    qint64 oldestPendingAgeMs = -1;
    qint64 failed = 0;
    qint64 dead = 0;
    qint64 deadLetters = 0; // dead letters waiting for a decision (NEW)
    int relaysAlive = 0;
    int critical = 0; // findings by severity
    int warning = 0;
    int info = 0;
    DiagnosisReport report;
    // The whole sample /metrics exports per member (when the member was reachable and migrated).
    bool hasSnapshot = false;
    MetricsSnapshot snapshot;

    static QString stateName(State state);
    QString stateName() const { return stateName(state); }
    bool reachable() const { return state != State::Unreachable; }
    // Takes the doctor's report (counts by severity) and, when the member answered and is migrated,
    // the state it gives.
    void adoptReport(const DiagnosisReport& report, const QDateTime& madeAt);
    // Seconds since `sampledAt` / `findingsAt` at `now` (-1 when unknown).
    double ageSeconds(const QDateTime& now) const;
    double findingsAgeSeconds(const QDateTime& now) const;
    // /api/v1/fleet's member: name, tags, state, error, backlog, oldest_pending_age_seconds, failed,
    // dead, dead_letters, relays_alive, findings {critical, warning}, stale, slow, missed_ticks,
    // sample_age_seconds, findings_age_seconds, answered_at, next_attempt_seconds.
    QJsonObject toJson() const;

    // Worst first: state, then backlog (larger first), then name.
    static bool worseThan(const MemberSample& a, const MemberSample& b);
};

} // namespace outbox

Q_DECLARE_METATYPE(outbox::MemberSample)
