#include "core/relay/RelayLogText.h"

#include <QCoreApplication>
#include <QHash>
#include <QRegularExpression>
#include <QVector>
#include <algorithm>

namespace outbox {

const char* const RelayLogText::StateChanged = QT_TRANSLATE_NOOP("outbox::RelayLogText", "%1 -> %2");
const char* const RelayLogText::StateChangedBecause =
    QT_TRANSLATE_NOOP("outbox::RelayLogText", "%1 -> %2: %3");
const char* const RelayLogText::NoAnswerFor =
    QT_TRANSLATE_NOOP("outbox::RelayLogText", "%1: no answer for %2 s");
const char* const RelayLogText::StillState = QT_TRANSLATE_NOOP("outbox::RelayLogText", "still %1: %2");
const char* const RelayLogText::ListenFailed =
    QT_TRANSLATE_NOOP("outbox::RelayLogText", "LISTEN %1 failed; polling every %2 ms");
const char* const RelayLogText::TriggerOn =
    QT_TRANSLATE_NOOP("outbox::RelayLogText",
                      "wake-up trigger %1 is on (outboxctl notify on): every writer's commit waits for the "
                      "notification lock");
const char* const RelayLogText::TriggerOff =
    QT_TRANSLATE_NOOP("outbox::RelayLogText", "wake-up trigger %1 is off (the default)");
const char* const RelayLogText::WakeUpNotify =
    QT_TRANSLATE_NOOP("outbox::RelayLogText", "wake-up: notify (every commit of events wakes this relay)");
const char* const RelayLogText::WakeUpDoorbell =
    QT_TRANSLATE_NOOP("outbox::RelayLogText",
                      "wake-up: doorbell (temporary logical replication slot %1 on publication %2; polling "
                      "every %3 to %4 ms as a safety net)");
const char* const RelayLogText::WakeUpDataVersion = QT_TRANSLATE_NOOP(
    "outbox::RelayLogText", "wake-up: data_version (the database's change counter, every %1 ms)");
const char* const RelayLogText::WakeUpPoll =
    QT_TRANSLATE_NOOP("outbox::RelayLogText", "wake-up: poll (every %1 to %2 ms while idle)");
const char* const RelayLogText::WakeUpPollNoDoorbell = QT_TRANSLATE_NOOP(
    "outbox::RelayLogText", "wake-up: poll (every %1 to %2 ms while idle); no doorbell: %3");
const char* const RelayLogText::WakeUpPollDoorbellOpening = QT_TRANSLATE_NOOP(
    "outbox::RelayLogText",
    "wake-up: poll (every %1 to %2 ms while idle) until the doorbell's slot %3 exists: PostgreSQL "
    "creates it once the transactions open on the server have ended (waiting %4 s so far)");
const char* const RelayLogText::DoorbellLost = QT_TRANSLATE_NOOP(
    "outbox::RelayLogText", "doorbell lost (%1): polling every %2 to %3 ms until it rings again");
const char* const RelayLogText::Drained =
    QT_TRANSLATE_NOOP("outbox::RelayLogText", "desired state %1: drained");
const char* const RelayLogText::DrainTimePassed =
    QT_TRANSLATE_NOOP("outbox::RelayLogText",
                      "drain time (%1 ms) passed with %2 event(s) unanswered by %3; their leases expire and "
                      "they are sent again");
const char* const RelayLogText::ProducerRecreated =
    QT_TRANSLATE_NOOP("outbox::RelayLogText", "recreating the producer after a fatal error: %1");
const char* const RelayLogText::BrokerReachable =
    QT_TRANSLATE_NOOP("outbox::RelayLogText", "%1 reachable again");
const char* const RelayLogText::BatchPendingAgain =
    QT_TRANSLATE_NOOP("outbox::RelayLogText", "%1 (the batch's events are PENDING again and are sent again)");
const char* const RelayLogText::MarkFailedHeld = QT_TRANSLATE_NOOP(
    "outbox::RelayLogText", "%1: %2 (the batch's transaction is rolled back and its events are sent again)");
const char* const RelayLogText::MarkFailedLeases =
    QT_TRANSLATE_NOOP("outbox::RelayLogText", "%1: %2 (the leases expire and the events are sent again)");
const char* const RelayLogText::Fenced =
    QT_TRANSLATE_NOOP("outbox::RelayLogText", "%1: %2 event(s) fenced: their lease was taken over");
const char* const RelayLogText::Released =
    QT_TRANSLATE_NOOP("outbox::RelayLogText", "%1 event(s) released, %2; claiming again once it drains");
const char* const RelayLogText::RetentionDead =
    QT_TRANSLATE_NOOP("outbox::RelayLogText",
                      "retention: %1 DEAD event(s) older than [relay] dead_retention removed (audited as "
                      "events.retention_dead)");
const char* const RelayLogText::HeartbeatOpen = QT_TRANSLATE_NOOP("outbox::RelayLogText", "heartbeat: %1");
const char* const RelayLogText::HeartbeatFailed =
    QT_TRANSLATE_NOOP("outbox::RelayLogText", "heartbeat failed: %1");
const char* const RelayLogText::DesiredState = QT_TRANSLATE_NOOP("outbox::RelayLogText", "desired state %1");
const char* const RelayLogText::LostAttemptsCounted = QT_TRANSLATE_NOOP(
    "outbox::RelayLogText", "counted the lost attempt of %1 event(s) whose relay died holding them");
const char* const RelayLogText::ExpiredReturned =
    QT_TRANSLATE_NOOP("outbox::RelayLogText", "returned %1 event(s) with expired leases to PENDING");
const char* const RelayLogText::AttemptsUsedUp =
    QT_TRANSLATE_NOOP("outbox::RelayLogText", "%1 event(s) with %2 had used up their %3 attempts: marked %4");
const char* const RelayLogText::LostHeldClaims =
    QT_TRANSLATE_NOOP("outbox::RelayLogText", "lost held claims");
const char* const RelayLogText::ExpiredLeases = QT_TRANSLATE_NOOP("outbox::RelayLogText", "expired leases");
const char* const RelayLogText::ReplayGaveUp =
    QT_TRANSLATE_NOOP("outbox::RelayLogText",
                      "%1 dead letter(s) back to NEW: out of replay attempts, the last one never answered "
                      "(its replayer stopped or crashed)");
const char* const RelayLogText::ReplayNotAcknowledged =
    QT_TRANSLATE_NOOP("outbox::RelayLogText", "replay of dead letter #%1 to %2 not acknowledged (%3); %4");
const char* const RelayLogText::Replayed =
    QT_TRANSLATE_NOOP("outbox::RelayLogText", "dead letter #%1 replayed to %2 (partition %3, offset %4)");
const char* const RelayLogText::ReplayLeaseExpired = QT_TRANSLATE_NOOP(
    "outbox::RelayLogText", "dead letter #%1 was replayed, but its lease had expired and passed to another "
                            "replayer meanwhile");
const char* const RelayLogText::Starting =
    QT_TRANSLATE_NOOP("outbox::RelayLogText", "%1 worker(s), %2 -> %3");
const char* const RelayLogText::StartingTables =
    QT_TRANSLATE_NOOP("outbox::RelayLogText", "%1 worker(s), %2 (tables %3*) -> %4");
const char* const RelayLogText::Progress = QT_TRANSLATE_NOOP(
    "outbox::RelayLogText", "sent %1 (%2/s) failed %3 dead %4 retried %5 released %6 fenced %7 reaped %8 | "
                            "commit->ack p50 %9 p99 %10");
const char* const RelayLogText::Stopped = QT_TRANSLATE_NOOP("outbox::RelayLogText", "stopped; %1");

namespace {

const char* const Context = "outbox::RelayLogText";

// "%1 relay %2: %3": a worker's line as `outboxctl relay` prints it (time, worker id, text).
const char* const WorkerLine = QT_TRANSLATE_NOOP("outbox::RelayLogText", "%1 relay %2: %3");

struct Pattern
{
    const char* text;
    QRegularExpression re;
    QVector<int> numbers; // the placeholder of each capture, in order
    qsizetype literal = 0;
};

const QRegularExpression& placeholder()
{
    static const QRegularExpression re(QStringLiteral("%(\\d+)"));
    return re;
}

Pattern compile(const char* text)
{
    Pattern p{text, {}, {}, 0};
    const QString t = QString::fromLatin1(text);
    QString re = QStringLiteral("^");
    qsizetype at = 0;
    for (auto it = placeholder().globalMatch(t); it.hasNext();) {
        const auto m = it.next();
        const QString literal = t.mid(at, m.capturedStart() - at);
        p.literal += literal.size();
        re += QRegularExpression::escape(literal) + QStringLiteral("(.*?)");
        p.numbers << m.captured(1).toInt();
        at = m.capturedEnd();
    }
    p.literal += t.size() - at;
    re += QRegularExpression::escape(t.mid(at)) + QStringLiteral("$");
    p.re = QRegularExpression(re, QRegularExpression::DotMatchesEverythingOption);
    return p;
}

// Every template a relay line is written from, the most specific (most literal text) first:
// "%1: %2 (%3)" is tried last.
const QVector<Pattern>& patterns();

// `text` with %1 … %n replaced once each by `args` (no second pass over an argument's own "%").
QString fill(const QString& text, const QHash<int, QString>& args)
{
    QString out;
    qsizetype at = 0;
    for (auto it = placeholder().globalMatch(text); it.hasNext();) {
        const auto m = it.next();
        out += text.mid(at, m.capturedStart() - at);
        const int n = m.captured(1).toInt();
        out += args.contains(n) ? args.value(n) : m.captured();
        at = m.capturedEnd();
    }
    return out + text.mid(at);
}

QString translate(const char* text)
{
    return QCoreApplication::translate(Context, text);
}

// A line's text in the reader's language, its arguments too when they were written from a
// template (a phrase, or one level of a template with arguments of its own: "RUNNING -> DEGRADED:
// publish: no answer for 31 s").
QString translateText(const QString& text, int depth = 0)
{
    for (const Pattern& p : patterns()) {
        const auto m = p.re.match(text);
        if (!m.hasMatch())
            continue;
        if (p.numbers.isEmpty())
            return translate(p.text);
        if (depth >= 2)
            continue; // deeper arguments stay as written
        QHash<int, QString> args;
        for (int i = 0; i < p.numbers.size(); ++i)
            args.insert(p.numbers.at(i), translateText(m.captured(i + 1), depth + 1));
        return fill(translate(p.text), args);
    }
    return text;
}

} // namespace

namespace {

const QVector<const char*>& lineTemplates()
{
    using T = RelayLogText;
    static const QVector<const char*> all{T::StateChanged,
                                          T::StateChangedBecause,
                                          T::NoAnswerFor,
                                          T::StillState,
                                          T::ListenFailed,
                                          T::TriggerOn,
                                          T::TriggerOff,
                                          T::WakeUpNotify,
                                          T::WakeUpDoorbell,
                                          T::WakeUpDataVersion,
                                          T::WakeUpPoll,
                                          T::WakeUpPollNoDoorbell,
                                          T::WakeUpPollDoorbellOpening,
                                          T::DoorbellLost,
                                          T::Drained,
                                          T::DrainTimePassed,
                                          T::ProducerRecreated,
                                          T::BrokerReachable,
                                          T::BatchPendingAgain,
                                          T::MarkFailedHeld,
                                          T::MarkFailedLeases,
                                          T::Fenced,
                                          T::Released,
                                          T::RetentionDead,
                                          T::HeartbeatOpen,
                                          T::HeartbeatFailed,
                                          T::DesiredState,
                                          T::LostAttemptsCounted,
                                          T::ExpiredReturned,
                                          T::AttemptsUsedUp,
                                          T::LostHeldClaims,
                                          T::ExpiredLeases,
                                          T::ReplayGaveUp,
                                          T::ReplayNotAcknowledged,
                                          T::Replayed,
                                          T::ReplayLeaseExpired,
                                          T::Starting,
                                          T::StartingTables,
                                          T::Progress,
                                          T::Stopped};
    return all;
}

const QVector<Pattern>& patterns()
{
    static const QVector<Pattern> all = [] {
        QVector<Pattern> list;
        for (const char* t : lineTemplates())
            list << compile(t);
        std::stable_sort(list.begin(), list.end(),
                         [](const Pattern& a, const Pattern& b) { return a.literal > b.literal; });
        return list;
    }();
    return all;
}

} // namespace

QStringList RelayLogText::templates()
{
    QStringList list{QString::fromLatin1(WorkerLine)};
    for (const char* t : lineTemplates())
        list << QString::fromLatin1(t);
    return list;
}

QString RelayLogText::translated(const QString& line)
{
    static const QRegularExpression worker(QStringLiteral("^(\\d{4}-\\d\\d-\\d\\dT\\S+) relay (\\S+): (.*)$"),
                                           QRegularExpression::DotMatchesEverythingOption);
    static const QLatin1String outboxctl("outboxctl relay: ");
    if (const auto m = worker.match(line); m.hasMatch())
        return fill(translate(WorkerLine),
                    {{1, m.captured(1)}, {2, m.captured(2)}, {3, translateText(m.captured(3))}});
    if (line.startsWith(outboxctl))
        return outboxctl + translateText(line.mid(outboxctl.size()));
    return line; // not the relay's own line: the child's error (in its language), the command echo
}

} // namespace outbox
