#pragma once

#include <QString>
#include <QStringList>

namespace outbox {

// The relay's log lines. They are written in English wherever they go (stderr, the journal, a
// service's log file): an operator's grep and systemd::relayLinePriority read their words. A
// console that shows a relay's output in the reader's language (the desktop's managed relay)
// translates each line where it shows it, by the template it was written from. The relay writes
// every line from a template below, so what it writes and what the console recognises cannot
// drift apart.
class RelayLogText
{
public:
    // Relay
    static const char* const StateChanged;        // "RUNNING -> PAUSED"
    static const char* const StateChangedBecause; // "RUNNING -> DEGRADED: why"
    static const char* const NoAnswerFor;         // a broker call that hangs (heartbeat)
    static const char* const StillState;
    static const char* const ListenFailed;
    static const char* const TriggerOn;
    static const char* const TriggerOff;
    static const char* const WakeUpNotify;
    static const char* const WakeUpDoorbell;
    static const char* const WakeUpDataVersion;
    static const char* const WakeUpPoll;
    static const char* const WakeUpPollNoDoorbell;
    static const char* const WakeUpPollDoorbellOpening;
    static const char* const DoorbellLost;
    static const char* const Drained;
    static const char* const DrainTimePassed;
    static const char* const ProducerRecreated;
    static const char* const BrokerReachable;
    static const char* const BatchPendingAgain;
    static const char* const MarkFailedHeld;
    static const char* const MarkFailedLeases;
    static const char* const Fenced;
    static const char* const Released;
    static const char* const RetentionDead;
    // RelayHeartbeat
    static const char* const HeartbeatOpen;
    static const char* const HeartbeatFailed;
    static const char* const DesiredState;
    static const char* const LostAttemptsCounted;
    static const char* const ExpiredReturned;
    static const char* const AttemptsUsedUp;
    static const char* const LostHeldClaims;
    static const char* const ExpiredLeases;
    // DeadLetterReplayer
    static const char* const ReplayGaveUp;
    static const char* const ReplayNotAcknowledged;
    static const char* const Replayed;
    static const char* const ReplayLeaseExpired;
    // outboxctl relay
    static const char* const Starting;
    static const char* const StartingTables;
    static const char* const Progress;
    static const char* const Stopped;

    // A template as the relay writes it: English.
    static QString english(const char* text) { return QString::fromLatin1(text); }
    // One output line of `outboxctl relay` ("TIME relay WORKER: TEXT" or "outboxctl relay: TEXT")
    // in the reader's language: the text translated when it was written from a template (its
    // arguments kept, or translated when they are one of the phrases above); any other line (the
    // child's own errors, which it translates itself, the console's command echo) as it is.
    static QString translated(const QString& line);
    // Every template (for the tests: each has a translation).
    static QStringList templates();
};

} // namespace outbox
