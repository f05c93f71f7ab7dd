// `outboxctl notify [on|off]`: whether new events wake the relays (PostgreSQL's NOTIFY trigger), and
// the audited switch for write-heavy services (docs/contract.md, "What happens after COMMIT").
#include "app/outboxctl/commands/Commands.h"
#include "core/ops/NotifyTrigger.h"
#include "core/support/TerminalText.h"

#include <QCoreApplication>
#include <QJsonObject>
#include <cstdio>
#include <unistd.h>

namespace outbox::cli {

namespace {

QString word(bool enabled)
{
    return enabled ? QStringLiteral("on") : QStringLiteral("off");
}

QJsonObject stateJson(const Database& db, const NotifyTriggerState& s)
{
    return QJsonObject{
        {QStringLiteral("database"), db.url().redacted()},
        {QStringLiteral("table"), s.table},
        {QStringLiteral("trigger"), s.supported ? QJsonValue(s.trigger) : QJsonValue()},
        {QStringLiteral("exists"), s.exists},
        {QStringLiteral("notifications"), s.exists ? word(s.enabled) : QStringLiteral("none")}};
}

int runShow(Context& ctx, Database& db)
{
    NotifyTrigger trigger(db);
    auto state = trigger.state();
    if (!state)
        return ctx.fail(state.error());
    std::optional<AuditEntry> last;
    if (state->exists) {
        auto found = trigger.lastSwitch();
        if (!found)
            return ctx.fail(found.error());
        last = *found;
    }
    if (ctx.json()) {
        QJsonObject json = stateJson(db, *state);
        json.insert(QStringLiteral("may_switch"), state->exists && state->mayAlter);
        json.insert(QStringLiteral("last_switch"), last ? QJsonValue(last->toJson()) : QJsonValue());
        return ctx.printJson(json);
    }
    if (!state->supported) {
        ctx.out << QCoreApplication::translate(
                       "outbox::cli::Notify",
                       "notifications: none (this database has no wake-up trigger; relays poll it, "
                       "relay.poll_ms)")
                << "\n";
        return Ok;
    }
    // The trigger (%1) on its table (%2): missing, on or off.
    const char* line =
        !state->exists
            ? QT_TRANSLATE_NOOP("outbox::cli::Notify",
                                "notifications: none (the trigger %1 on %2 is missing: run outboxctl "
                                "migrate as the schema owner)")
        : state->enabled ? QT_TRANSLATE_NOOP("outbox::cli::Notify",
                                             "notifications: on (every INSERT of events wakes the relays; "
                                             "trigger %1 on %2)")
                         : QT_TRANSLATE_NOOP("outbox::cli::Notify",
                                             "notifications: off (relays poll: up to relay.poll_ms after an "
                                             "idle spell; trigger %1 on %2 disabled)");
    ctx.out << QCoreApplication::translate("outbox::cli::Notify", line).arg(state->trigger, state->table)
            << "\n";
    if (last)
        ctx.out << TerminalText::escape(
                       QCoreApplication::translate("outbox::cli::Notify", "last switched %1 at %2 by %3: %4")
                           .arg(last->action == NotifyTrigger::actionName(true) ? word(true) : word(false),
                                timeText(last->at), last->actor, last->reason))
                << "\n";
    return Ok;
}

int runSwitch(Context& ctx, bool enabled)
{
    const QString reason = ctx.parser.value(QStringLiteral("reason"));
    if (reason.trimmed().isEmpty())
        return ctx.usage(
            QCoreApplication::translate("outbox::cli::Notify", "a reason is required (--reason)"));
    if (!ctx.assumeYes()) {
        if (!isatty(STDIN_FILENO))
            return ctx.usage(QCoreApplication::translate(
                                 "outbox::cli::Notify",
                                 "refusing to switch notifications %1 without confirmation: pass --yes")
                                 .arg(word(enabled)));
        ctx.err << QCoreApplication::translate("outbox::cli::Notify",
                                               "Switch the wake-up notifications %1? Type yes to confirm: ")
                       .arg(word(enabled))
                << Qt::flush;
        char answer[16] = {};
        if (!std::fgets(answer, sizeof answer, stdin) || QByteArray(answer).trimmed() != "yes")
            return ctx.usage(
                QCoreApplication::translate("outbox::cli::Notify", "not confirmed; nothing changed"));
    }
    auto db = ctx.openMigratedDatabase();
    if (!db)
        return ctx.fail(db.error());
    auto result = NotifyTrigger(**db).setEnabled(enabled, reason, ctx.actor());
    if (!result)
        return ctx.fail(result.error());
    if (ctx.json())
        return ctx.printJson(QJsonObject{
            {QStringLiteral("database"), (*db)->url().redacted()},
            {QStringLiteral("action"), result->action},
            {QStringLiteral("table"), result->table},
            {QStringLiteral("trigger"), result->trigger},
            {QStringLiteral("notifications"), word(enabled)},
            {QStringLiteral("changed"), result->changed},
            {QStringLiteral("audit_id"), result->changed ? QJsonValue(result->auditId) : QJsonValue()}});
    if (!result->supported)
        ctx.out << QCoreApplication::translate(
                       "outbox::cli::Notify",
                       "this database has no wake-up trigger: relays poll it already; nothing changed")
                << "\n";
    else if (!result->changed)
        ctx.out << QCoreApplication::translate(
                       "outbox::cli::Notify",
                       "notifications are already %1 (trigger %2 on %3); nothing changed")
                       .arg(word(enabled), result->trigger, result->table)
                << "\n";
    else
        ctx.out << QCoreApplication::translate(
                       "outbox::cli::Notify",
                       enabled
                           ? QT_TRANSLATE_NOOP("outbox::cli::Notify",
                                               "notifications on: trigger %1 on %2 enabled (audit #%3); "
                                               "relays that LISTEN are woken by every commit again")
                           : QT_TRANSLATE_NOOP("outbox::cli::Notify",
                                               "notifications off: trigger %1 on %2 disabled (audit #%3); "
                                               "writers commit without NOTIFY, relays poll "
                                               "(relay.poll_min_ms doubling up to relay.poll_ms while idle)"))
                       .arg(result->trigger, result->table)
                       .arg(result->auditId)
                << "\n";
    return Ok;
}

int runNotify(Context& ctx)
{
    const QString sub = ctx.positionals.isEmpty() ? QStringLiteral("show") : ctx.positionals.takeFirst();
    if (!ctx.positionals.isEmpty())
        return ctx.usage(
            QCoreApplication::translate("outbox::cli::Notify", "notify %1 takes no further arguments")
                .arg(sub));
    if (sub == QLatin1String("show")) {
        if (ctx.parser.isSet(QStringLiteral("reason")))
            return ctx.usage(QCoreApplication::translate("outbox::cli::Notify",
                                                         "--reason goes with notify on or notify off"));
        auto db = ctx.openMigratedDatabase();
        if (!db)
            return ctx.fail(db.error());
        return runShow(ctx, **db);
    }
    if (sub == QLatin1String("on") || sub == QLatin1String("off"))
        return runSwitch(ctx, sub == QLatin1String("on"));
    return ctx.usage(
        QCoreApplication::translate("outbox::cli::Notify",
                                    "unknown notify sub-command \"%1\" (expected show, on or off)")
            .arg(sub));
}

} // namespace

Command notifyCommand()
{
    return {
        QStringLiteral("notify"),
        QStringLiteral("Whether new events wake the relays (PostgreSQL's NOTIFY trigger): show | on | off "
                       "(audited; off lets writers commit faster, relays poll)."),
        QStringLiteral("[show|on|off]"),
        {QCommandLineOption(QStringLiteral("reason"),
                            QStringLiteral("on/off: why (required; kept in the audit log)."),
                            QStringLiteral("text"))},
        runNotify,
        {QStringLiteral("show"), QStringLiteral("on"), QStringLiteral("off")}};
}

} // namespace outbox::cli
