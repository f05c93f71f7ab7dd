#include "app/outboxctl/FleetTick.h"
#include "app/outboxctl/commands/Commands.h"
#include "core/db/DeadLetterStore.h"
#include "core/db/Migrator.h"
#include "core/db/RelayStore.h"
#include "core/metrics/HeldBackEvents.h"
#include "core/metrics/MetricsQuery.h"
#include "core/ops/NotifyTrigger.h"
#include "core/support/JsonPage.h"
#include "core/support/TerminalText.h"

#include <QCoreApplication>
#include <QJsonArray>
#include <QJsonObject>

namespace outbox::cli {

namespace {

// `status --fleet`: one line per member, worst first (the JSON is /api/v1/fleet's).
int runFleetStatus(Context& ctx)
{
    auto samples = sampleFleetOnce(ctx, DiagnosisOptions::fromConfig(ctx.config()));
    if (!samples)
        return ctx.fail(samples.error());
    if (ctx.json())
        return ctx.printJson(QJsonObject{{QStringLiteral("members"), rowsJson(*samples)}});
    QVector<QStringList> rows;
    for (const MemberSample& s : std::as_const(*samples)) {
        const bool counted =
            s.state != MemberSample::State::Unreachable && s.state != MemberSample::State::Unmigrated;
        const auto count = [counted](qint64 n) { return counted ? QString::number(n) : QStringLiteral("-"); };
        rows << QStringList{s.member,
                            s.stateName(),
                            count(s.backlog),
                            counted ? formatAge(s.oldestPendingAgeMs) : QStringLiteral("-"),
                            count(s.failed),
                            count(s.dead),
                            count(s.deadLetters),
                            count(s.relaysAlive),
                            counted ? QStringLiteral("%1/%2").arg(s.critical).arg(s.warning)
                                    : QStringLiteral("-"),
                            s.tags.join(QLatin1Char(',')),
                            oneLine(s.error, 120)};
    }
    ctx.out << table({QStringLiteral("MEMBER"), QStringLiteral("STATE"), QStringLiteral("BACKLOG"),
                      QStringLiteral("OLDEST"), QStringLiteral("FAILED"), QStringLiteral("DEAD"),
                      QStringLiteral("DLQ"), QStringLiteral("RELAYS"), QStringLiteral("CRIT/WARN"),
                      QStringLiteral("TAGS"), QStringLiteral("ERROR")},
                     rows)
            << Qt::flush;
    return Ok;
}

int runStatus(Context& ctx)
{
    if (!ctx.positionals.isEmpty())
        return ctx.usage(QStringLiteral("status takes no arguments"));
    if (ctx.watchesFleet())
        return runFleetStatus(ctx);
    auto db = ctx.openMigratedDatabase();
    if (!db)
        return ctx.fail(db.error());
    // The console's counts: shaped to the indexes, SENT estimated once the table is large, so
    // that status stays instant on a 10M-row table.
    auto sample = MetricsQuery(**db).counts();
    if (!sample)
        return ctx.fail(sample.error());
    // Pending events with times ahead of the database's clock: the oldest pending age alone reads
    // 0ms for an event held back for hours (issue 37 item 4).
    auto held = HeldBackEvents::read(**db);
    if (!held)
        return ctx.fail(held.error());
    auto letters = DeadLetterStore(**db).countsByStatus();
    if (!letters)
        return ctx.fail(letters.error());
    auto relays = RelayStore(**db).list();
    if (!relays)
        return ctx.fail(relays.error());
    // Whether commits wake the relays: with the trigger off they poll, and latency says so.
    NotifyTrigger trigger(**db);
    auto wakeUp = trigger.state();
    if (!wakeUp)
        return ctx.fail(wakeUp.error());
    const QString notifications = !wakeUp->exists   ? QStringLiteral("none")
                                  : wakeUp->enabled ? QStringLiteral("on")
                                                    : QStringLiteral("off");
    std::optional<AuditEntry> switchedOff;
    if (notifications == QLatin1String("off")) {
        auto last = trigger.switchedOffBy();
        if (!last)
            return ctx.fail(last.error());
        switchedOff = *last;
    }

    if (ctx.json()) {
        QJsonObject events;
        for (auto it = sample->events.cbegin(); it != sample->events.cend(); ++it)
            events[it.key()] = it.value();
        QJsonObject dlq;
        for (auto it = letters->cbegin(); it != letters->cend(); ++it)
            dlq[it.key()] = it.value();
        return ctx.printJson(QJsonObject{
            {QStringLiteral("database"), (*db)->url().redacted()},
            {QStringLiteral("events"), events},
            {QStringLiteral("sent_is_estimate"), sample->sentIsEstimate},
            {QStringLiteral("oldest_pending_age_seconds"),
             sample->oldestPendingAgeMs < 0 ? QJsonValue()
                                            : QJsonValue(double(sample->oldestPendingAgeMs) / 1000.0)},
            {QStringLiteral("held_back"),
             QJsonObject{{QStringLiteral("not_due"), held->notDue},
                         {QStringLiteral("last_due"),
                          held->notDue > 0 ? QJsonValue(held->lastDue.toUTC().toString(Qt::ISODateWithMs))
                                           : QJsonValue()},
                         {QStringLiteral("last_due_in_seconds"),
                          held->notDue > 0 ? QJsonValue(double(held->lastDueInMs) / 1000.0) : QJsonValue()},
                         {QStringLiteral("created_ahead"), held->createdAhead}}},
            {QStringLiteral("dead_letters"), dlq},
            {QStringLiteral("relays"), rowsJson(*relays)},
            {QStringLiteral("notifications"), notifications},
        });
    }
    ctx.out << "database  " << (*db)->url().redacted() << "\n\nevents\n";
    QVector<QStringList> rows;
    for (auto it = sample->events.cbegin(); it != sample->events.cend(); ++it)
        rows << QStringList{QStringLiteral("  ") + it.key(),
                            sample->sentIsEstimate && it.key() == QLatin1String("SENT")
                                ? QStringLiteral("~%1 (estimated from the table statistics)").arg(it.value())
                                : QString::number(it.value())};
    ctx.out << table({}, rows);
    ctx.out << "  oldest pending  " << formatAge(sample->oldestPendingAgeMs) << "\n";
    if (held->notDue > 0)
        ctx.out << "  "
                << QCoreApplication::translate("outbox::cli::Status",
                                               "held back       %1 pending event(s) not due before %2 UTC "
                                               "(%3 ahead): available_at in the future, a delay or a local "
                                               "time (outboxctl doctor --check contract-violations)")
                       .arg(held->notDue)
                       .arg(timeText(held->lastDue), formatAge(held->lastDueInMs))
                << "\n";
    if (held->createdAhead > 0)
        ctx.out << "  "
                << QCoreApplication::translate("outbox::cli::Status",
                                               "created ahead   %1 pending event(s) have created_at in the "
                                               "future, so the oldest pending age reads too low (outboxctl "
                                               "doctor --check contract-violations)")
                       .arg(held->createdAhead)
                << "\n";
    if (notifications == QLatin1String("on")) {
        ctx.out << "  "
                << QCoreApplication::translate("outbox::cli::Status",
                                               "notifications   on (opt-in): every writer's commit waits for "
                                               "the notification lock (see outboxctl notify)")
                << "\n";
    } else if (notifications == QLatin1String("off")) {
        ctx.out << "  "
                << QCoreApplication::translate(
                       "outbox::cli::Status", "notifications   off (the default): relays wake by doorbell or "
                                              "poll (see outboxctl notify)")
                << "\n";
        if (switchedOff)
            ctx.out << "  "
                    << TerminalText::escape(
                           QCoreApplication::translate("outbox::cli::Status", "switched off %1 by %2: %3")
                               .arg(timeText(switchedOff->at), switchedOff->actor, switchedOff->reason))
                    << "\n";
    }
    ctx.out << "\ndead letters\n";
    rows.clear();
    for (auto it = letters->cbegin(); it != letters->cend(); ++it)
        rows << QStringList{QStringLiteral("  ") + it.key(), QString::number(it.value())};
    ctx.out << table({}, rows) << "\nrelays\n";
    if (relays->isEmpty()) {
        ctx.out << "  none registered\n";
    } else {
        rows.clear();
        for (const RelayRecord& r : *relays)
            rows << QStringList{QStringLiteral("  ") + r.workerId,
                                r.host,
                                r.state,
                                r.desiredState,
                                QStringLiteral("heartbeat ") + formatAge(r.heartbeatAgeMs),
                                QStringLiteral("sent ") + QString::number(r.sentTotal),
                                r.wakeup.isEmpty() ? QString() : QStringLiteral("wake-up ") + r.wakeup};
        ctx.out << table({}, rows);
    }
    return Ok;
}

} // namespace

Command statusCommand()
{
    return {QStringLiteral("status"),
            QStringLiteral("Counts by status, oldest pending age, relays, dead letters (with --fleet: one "
                           "line per member, worst first)."),
            QString(),
            {},
            runStatus,
            {},
            {},
            true};
}

} // namespace outbox::cli
