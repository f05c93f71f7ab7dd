#include "app/outboxctl/commands/Commands.h"
#include "core/db/DeadLetterStore.h"
#include "core/db/Migrator.h"
#include "core/db/RelayStore.h"
#include "core/metrics/MetricsQuery.h"
#include "core/relay/RelayOptions.h"

#include <QJsonArray>
#include <QJsonObject>

namespace outbox::cli {

namespace {

// `migrate --print-grants ROLE`: what a separate runtime role needs, as SQL for the owner to run.
int printGrants(Context& ctx, Database& db)
{
    const QString role = ctx.parser.value(QStringLiteral("print-grants")).trimmed();
    if (!Dialect::validRuntimeRole(role, db.kind()))
        return ctx.usage(QStringLiteral("invalid role \"%1\": letters, digits and _ (on MySQL/MariaDB also "
                                        "name@host)")
                             .arg(role));
    const QStringList grants = db.dialect().runtimeGrants(role, db.url().database);
    if (ctx.json()) {
        QJsonArray statements;
        for (const QString& g : grants)
            statements.append(QString(g + QLatin1Char(';')));
        return ctx.printJson(QJsonObject{{QStringLiteral("database"), db.url().redacted()},
                                         {QStringLiteral("role"), role},
                                         {QStringLiteral("statements"), statements}});
    }
    if (grants.isEmpty()) {
        ctx.out << "-- SQLite has no roles or grants: whoever can write the database file can change "
                   "anything in it,\n-- the audit log included. Run the relay and the console as an OS "
                   "user that alone may\n-- write the file (and its -wal/-shm files); see docs/security.md, "
                   "\"Database roles, TLS and the audit log\".\n";
        return Ok;
    }
    ctx.out << "-- Runtime role " << role << " for " << db.url().redacted()
            << ": run as the schema owner after `outboxctl migrate`.\n"
               "-- No DDL, and only SELECT and INSERT on the audit log (no UPDATE, DELETE, TRUNCATE).\n";
    for (const QString& g : grants)
        ctx.out << g << ";\n";
    return Ok;
}

// `migrate --check [--expect N]`: whether the schema a writer's or consumer's code expects is there,
// for its CI; changes nothing. Exit 0 when it is, 3 (like doctor's findings) when it is not.
int checkSchema(Context& ctx, Database& db)
{
    int expected = 0;
    if (ctx.parser.isSet(QStringLiteral("expect"))) {
        bool ok = false;
        expected = ctx.parser.value(QStringLiteral("expect")).trimmed().toInt(&ok);
        if (!ok || expected < 1)
            return ctx.usage(QStringLiteral("--expect takes a schema version (1 or higher)"));
    }
    auto check = Migrator(db).check(expected);
    if (!check)
        return ctx.fail(check.error());
    if (ctx.json())
        ctx.printJson(QJsonObject{{QStringLiteral("database"), db.url().redacted()},
                                  {QStringLiteral("version"), check->currentVersion},
                                  {QStringLiteral("expected"), check->expectedVersion},
                                  {QStringLiteral("ok"), check->ok},
                                  {QStringLiteral("message"), check->message}});
    else
        ctx.out << check->message << "\n";
    return check->ok ? int(Ok) : 3;
}

int runMigrate(Context& ctx)
{
    if (!ctx.positionals.isEmpty())
        return ctx.usage(QStringLiteral("migrate takes no arguments"));
    auto db = ctx.openDatabase(QStringLiteral("migrate"));
    if (!db)
        return ctx.fail(db.error());
    if (ctx.parser.isSet(QStringLiteral("print-grants")))
        return printGrants(ctx, **db);
    if (ctx.parser.isSet(QStringLiteral("check")))
        return checkSchema(ctx, **db);
    if (ctx.parser.isSet(QStringLiteral("expect")))
        return ctx.usage(QStringLiteral("--expect goes with --check"));
    auto report = Migrator(**db).migrate();
    if (!report)
        return ctx.fail(report.error());
    // RabbitMQ: the relay declares nothing by itself; the exchange is declared here, when asked.
    QString declared;
    if (ctx.parser.isSet(QStringLiteral("declare-exchange"))) {
        auto options = RelayOptions::fromConfig(ctx.config());
        if (!options)
            return ctx.fail(options.error());
        if (!options->broker->declaresExchanges())
            return ctx.usage(QStringLiteral("--declare-exchange needs --broker amqp://user@host:5672/vhost"));
        const QString exchange = options->broker->exchangeTemplate();
        if (exchange.isEmpty() || exchange.contains(QLatin1Char('{')))
            return ctx.usage(QStringLiteral("--declare-exchange declares one exchange; \"%1\" is a template: "
                                            "declare each exchange it names with rabbitmqadmin or "
                                            "--exchange NAME")
                                 .arg(exchange));
        auto done = options->broker->declareExchange(exchange);
        if (!done)
            return ctx.fail(done.error());
        declared = *done;
    }
    if (ctx.json()) {
        QJsonArray applied;
        for (int v : report->applied)
            applied.append(v);
        QJsonObject json{{QStringLiteral("database"), (*db)->url().redacted()},
                         {QStringLiteral("applied"), applied},
                         {QStringLiteral("version"), report->currentVersion}};
        if (!declared.isEmpty())
            json.insert(QStringLiteral("declared"), declared);
        ctx.printJson(json);
    } else if (report->applied.isEmpty()) {
        ctx.out << "schema of " << (*db)->url().redacted() << " is up to date (version "
                << report->currentVersion << ")\n";
    } else {
        QStringList versions;
        for (int v : report->applied)
            versions << QString::number(v);
        ctx.out << "applied migration(s) " << versions.join(QStringLiteral(", ")) << " to "
                << (*db)->url().redacted() << "; schema at version " << report->currentVersion << "\n";
    }
    if (!declared.isEmpty() && !ctx.json())
        ctx.out << "declared " << declared << "\n";
    return Ok;
}

} // namespace

Command migrateCommand()
{
    return {QStringLiteral("migrate"),
            QStringLiteral("Create or upgrade the outbox schema."),
            QString(),
            {QCommandLineOption(QStringLiteral("print-grants"),
                                QStringLiteral("Print the GRANT statements for a separate runtime role "
                                               "(relay, consumer, console) instead of migrating."),
                                QStringLiteral("role")),
             QCommandLineOption(
                 QStringLiteral("check"),
                 QStringLiteral("Change nothing: exit 0 when the schema is at the expected version "
                                "or newer, 3 when it is not (for a writer's CI).")),
             QCommandLineOption(QStringLiteral("expect"),
                                QStringLiteral("With --check: the version the writer needs (default: the "
                                               "latest this outboxctl knows)."),
                                QStringLiteral("version")),
             QCommandLineOption(QStringLiteral("declare-exchange"),
                                QStringLiteral("RabbitMQ: also declare [amqp] exchange (durable, topic) on "
                                               "--broker amqp://…"))},
            runMigrate,
            {},
            {QStringLiteral("broker.url"), QStringLiteral("amqp.*")}};
}

} // namespace outbox::cli
