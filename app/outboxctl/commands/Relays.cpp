// `outboxctl relays`: the relay registry (list) and its audited control (pause, resume, drain,
// forget), the command-line side of the console's Relays page and of the doctor's prepared actions.
#include "app/outboxctl/commands/Commands.h"
#include "core/broker/BrokerRegistry.h"
#include "core/db/RelayStore.h"
#include "core/ops/RelayControl.h"
#include "core/support/JsonPage.h"
#include "core/support/TerminalText.h"

#include <QJsonArray>
#include <cstdio>
#include <unistd.h>

namespace outbox::cli {

namespace {

int runList(Context& ctx)
{
    auto relays = ctx.onDatabase([](Database& db) { return RelayStore(db).list(); });
    if (!relays)
        return ctx.fail(relays.error());
    if (ctx.json())
        return ctx.printJson(QJsonObject{{QStringLiteral("relays"), rowsJson(*relays)}});
    QVector<QStringList> rows;
    for (const RelayRecord& r : *relays)
        rows << QStringList{r.workerId,
                            r.host,
                            QString::number(r.pid),
                            r.state,
                            r.desiredState,
                            BrokerRegistry::describe(r.brokerKind, r.brokerAddress),
                            formatAge(r.heartbeatAgeMs),
                            QString::number(r.leasesHeld),
                            QString::number(r.sentTotal),
                            r.lastError.left(60)};
    ctx.out << table({QStringLiteral("WORKER"), QStringLiteral("HOST"), QStringLiteral("PID"),
                      QStringLiteral("STATE"), QStringLiteral("DESIRED"), QStringLiteral("BROKER"),
                      QStringLiteral("HEARTBEAT"), QStringLiteral("LEASES"), QStringLiteral("SENT"),
                      QStringLiteral("LAST ERROR")},
                     rows);
    if (relays->isEmpty())
        ctx.out << "no relay is registered\n";
    return Ok;
}

int runControl(Context& ctx, const QString& verb)
{
    const QStringList workers = ctx.positionals;
    if (workers.isEmpty())
        return ctx.usage(
            QStringLiteral("relays %1 needs the worker ids of the relays (see outboxctl relays list)")
                .arg(verb));
    const QString reason = ctx.parser.value(QStringLiteral("reason"));
    if (reason.trimmed().isEmpty())
        return ctx.usage(QStringLiteral("a reason is required (--reason)"));
    if (!ctx.assumeYes()) {
        if (!isatty(STDIN_FILENO))
            return ctx.usage(QStringLiteral("refusing to %1 %2 relay(s) without confirmation: pass --yes")
                                 .arg(verb)
                                 .arg(workers.size()));
        ctx.err << verb << " " << TerminalText::escape(workers.join(QStringLiteral(", ")))
                << "? Type yes to confirm: " << Qt::flush;
        char answer[16] = {};
        if (!std::fgets(answer, sizeof answer, stdin) || QByteArray(answer).trimmed() != "yes")
            return ctx.usage(QStringLiteral("not confirmed; nothing changed"));
    }
    auto db = ctx.openMigratedDatabase();
    if (!db)
        return ctx.fail(db.error());
    RelayControl control(**db);
    Result<RelayControlResult> result = Error::usage(QString());
    if (verb == QLatin1String("forget")) {
        qint64 staleAfter = RelayControl::DefaultForgetAfterMs;
        if (ctx.parser.isSet(QStringLiteral("stale-after"))) {
            bool ok = false;
            staleAfter = ctx.parser.value(QStringLiteral("stale-after")).toLongLong(&ok) * 1000;
            if (!ok || staleAfter <= 0)
                return ctx.usage(QStringLiteral("--stale-after must be a positive number of seconds"));
        }
        result = control.forget(workers, staleAfter, reason, ctx.actor());
    } else {
        const RelayControl::Command command = verb == QLatin1String("pause") ? RelayControl::Command::Pause
                                              : verb == QLatin1String("resume")
                                                  ? RelayControl::Command::Resume
                                                  : RelayControl::Command::Drain;
        result = control.apply(command, workers, reason, ctx.actor());
    }
    if (!result)
        return ctx.fail(result.error());
    if (ctx.json())
        return ctx.printJson(
            QJsonObject{{QStringLiteral("action"), result->action},
                        {QStringLiteral("changed"), QJsonArray::fromStringList(result->changed)},
                        {QStringLiteral("missing"), QJsonArray::fromStringList(result->missing)},
                        {QStringLiteral("audit_id"), result->auditId}});
    ctx.out << result->changed.size() << " relay(s) changed (" << result->action << ", audit #"
            << result->auditId << ")\n";
    for (const QString& m : result->missing)
        ctx.out << "  not registered: " << m << "\n";
    return Ok;
}

int runRelays(Context& ctx)
{
    const QString sub = ctx.positionals.isEmpty() ? QStringLiteral("list") : ctx.positionals.takeFirst();
    if (sub == QLatin1String("list")) {
        if (!ctx.positionals.isEmpty())
            return ctx.usage(QStringLiteral("relays list takes no further arguments"));
        return runList(ctx);
    }
    if (sub == QLatin1String("pause") || sub == QLatin1String("resume") || sub == QLatin1String("drain") ||
        sub == QLatin1String("forget"))
        return runControl(ctx, sub);
    return ctx.usage(
        QStringLiteral("unknown relays sub-command \"%1\" (expected list, pause, resume, drain or forget)")
            .arg(sub));
}

} // namespace

Command relaysCommand()
{
    return {
        QStringLiteral("relays"),
        QStringLiteral("Relays: list | pause | resume | drain | forget WORKER... (audited)."),
        QStringLiteral("list|pause|resume|drain|forget [WORKER...]"),
        {QCommandLineOption(QStringLiteral("reason"),
                            QStringLiteral("Why (required; kept in the audit log)."), QStringLiteral("text")),
         QCommandLineOption(
             QStringLiteral("stale-after"),
             QStringLiteral("forget: only relays whose heartbeat is older than this many seconds "
                            "(default 60)."),
             QStringLiteral("seconds"))},
        runRelays,
        {QStringLiteral("list"), QStringLiteral("pause"), QStringLiteral("resume"), QStringLiteral("drain"),
         QStringLiteral("forget")}};
}

} // namespace outbox::cli
