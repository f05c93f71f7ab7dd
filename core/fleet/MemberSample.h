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
struct MemberSample
{
    // Worst first: the order of a wall and of `status --fleet`.
    enum class State { Unreachable, Critical, Unmigrated, Warning, Ok };

    QString member;
    QStringList tags;
    State state = State::Unreachable;
    QString error;         // why it is unreachable or unmigrated; empty otherwise
    QDateTime sampledAt;   // this process's clock, UTC
    qint64 elapsedMs = 0;  // how long the sample took (or waited before it was given up)
    bool timedOut = false; // did not answer within the fleet's timeout

    // From the member's MetricsSnapshot (empty when unreachable or unmigrated).
    qint64 backlog = 0; // PENDING + SENDING + FAILED
    qint64 oldestPendingAgeMs = -1;
    qint64 failed = 0;
    qint64 dead = 0;
    qint64 deadLetters = 0; // dead letters waiting for a decision (PENDING)
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
    // /api/v1/fleet's member: name, tags, state, error, backlog, oldest_pending_age_seconds, failed,
    // dead, dead_letters, relays_alive, findings {critical, warning}.
    QJsonObject toJson() const;

    // Worst first: state, then backlog (larger first), then name.
    static bool worseThan(const MemberSample& a, const MemberSample& b);
};

} // namespace outbox

Q_DECLARE_METATYPE(outbox::MemberSample)
