#include "app/outboxctl/Signals.h"
#include "app/outboxctl/Systemd.h"
#include "app/outboxctl/commands/Commands.h"
#include "ui/web/WebConfig.h"
#include "ui/web/WebServer.h"
#include "ui/web/api/ApiRoutes.h"
#include "ui/web/http/AccessControl.h"

#include <QCoreApplication>
#include <QTimer>
#include <memory>
#include <optional>

namespace outbox::cli {

namespace {

// SIGINT/SIGTERM (flag set by the shared handler) end the event loop cleanly: the sampler and
// database threads are joined on the way out.
void quitOnSignals()
{
    std::atomic<bool>& stop = installStopSignals();
    auto* poll = new QTimer(QCoreApplication::instance());
    auto watchdog = std::make_shared<systemd::Watchdog>();
    QObject::connect(poll, &QTimer::timeout, QCoreApplication::instance(), [&stop, watchdog] {
        watchdog->ping(); // the event loop that serves every request is alive
        if (stop.load()) {
            systemd::notifyStopping(QStringLiteral("stopping"));
            QCoreApplication::quit();
        }
    });
    poll->start(100);
}

int runNewToken(Context& ctx)
{
    const QString name = ctx.parser.value(QStringLiteral("new-token"));
    const QString role = ctx.parser.value(QStringLiteral("role")).isEmpty()
                             ? QStringLiteral("viewer")
                             : ctx.parser.value(QStringLiteral("role"));
    if (role != QLatin1String("viewer") && role != QLatin1String("operator"))
        return ctx.usage(QStringLiteral("--role must be viewer or operator"));
    if (name.trimmed().isEmpty() || name.contains(QLatin1Char('=')) || name.contains(QLatin1Char('/')))
        return ctx.usage(QStringLiteral("--new-token needs a name without = or /"));
    const QByteArray secret = web::AccessControl::generateSecret();
    ctx.out << "token (give it to the user once; it is not stored):\n  " << secret << "\n"
            << "configuration line for the [tokens] section:\n  " << name << " = " << role << ":"
            << web::AccessControl::hashToken(secret) << "\n";
    return Ok;
}

int runServe(Context& ctx)
{
    if (ctx.parser.isSet(QStringLiteral("new-token")))
        return runNewToken(ctx);
    if (ctx.parser.isSet(QStringLiteral("api-reference"))) {
        ctx.out << web::ApiRoutes::reference();
        return Ok;
    }

    auto config = web::WebConfig::fromConfig(ctx.config());
    if (!config)
        return ctx.fail(config.error());
    if (config->tlsCertificateFile.isEmpty() != config->tlsKeyFile.isEmpty())
        return ctx.usage(QStringLiteral("TLS needs both a certificate and a key (--tls-cert and --tls-key)"));

    // With a fleet: every member sampled for the wall, /api/v1/fleet and /metrics, and served at
    // /api/v1/members/{name}/…. Without --member (or --db) the server has no database of its own:
    // a member that is down must not keep the wall from starting, and no member is the default one
    // an operator could act on by mistake.
    auto configuredFleet = ctx.configuredFleet();
    if (!configuredFleet)
        return ctx.fail(configuredFleet.error());
    const std::optional<Fleet>& fleet = *configuredFleet;
    const bool wallOnly = fleet && ctx.config().value(QStringLiteral("database.url")).isEmpty();
    DatabaseTarget target;
    if (!wallOnly) {
        auto own = ctx.target();
        if (!own)
            return ctx.fail(own.error());
        if (auto db = ctx.openMigratedDatabase(); !db) // refuse early when the schema is missing
            return ctx.fail(db.error());
        target = std::move(own).value();
    }
    const DatabaseUrl& url = target.url();
    const QString tablePrefix = target.tablePrefix();

    web::WebServer server(*config, target);
    if (fleet)
        server.watchFleet(*fleet);
    auto port = server.start();
    if (!port)
        return ctx.fail(port.error());
    if (!config->isLoopbackOnly() && !config->tlsEnabled())
        ctx.err << "outboxctl: warning: listening on " << config->address.toString()
                << " without TLS; tokens and payloads cross the network in clear text (use --tls-cert and "
                   "--tls-key)"
                << Qt::endl;
    if (config->oidc.enabled())
        ctx.err << "outboxctl: people sign in with the identity provider " << config->oidc.issuer << " ("
                << config->oidc.groups.size() << " group(s) mapped)" << Qt::endl;
    else if (config->tokens.isEmpty())
        ctx.err << "outboxctl: warning: no tokens configured ([tokens] in --config): the API refuses every "
                   "request"
                << (config->publicDashboard ? "" : " and the dashboard cannot connect") << Qt::endl;
    ctx.out
        << systemd::prefix(systemd::Priority::Notice, stdout) << "serving "
        << (wallOnly
                ? QStringLiteral("the fleet %1 (%2 members)").arg(fleet->file()).arg(fleet->members().size())
                : url.redacted())
        << (tablePrefix.isEmpty() ? QString() : QStringLiteral(" (tables %1*)").arg(tablePrefix)) << " on "
        << server.baseUrl().toString() << (config->publicDashboard ? " (dashboard public, read-only)" : "")
        << Qt::endl;
    ctx.out << "  dashboard " << server.baseUrl().toString()
            << (config->publicDashboard ? "" : "#token=VIEWER_TOKEN") << "\n  console   "
            << server.baseUrl().resolved(QUrl(QStringLiteral("console/"))).toString() << "#token=TOKEN"
            << "\n  metrics   " << server.baseUrl().resolved(QUrl(QStringLiteral("metrics"))).toString()
            << "\n  api       "
            // A wall without a database of its own has no /api/v1/summary: its API starts at the fleet.
            << server.baseUrl()
                   .resolved(
                       QUrl(wallOnly ? QStringLiteral("api/v1/fleet") : QStringLiteral("api/v1/summary")))
                   .toString()
            << Qt::endl;
    quitOnSignals();
    systemd::notifyReady(QStringLiteral("serving on ") + server.baseUrl().toString());
    QCoreApplication::exec();
    return Ok;
}

} // namespace

Command serveCommand()
{
    const QList<QCommandLineOption> options = {
        QCommandLineOption(QStringLiteral("new-token"),
                           QStringLiteral("Print a fresh token and its [tokens] line, then exit."),
                           QStringLiteral("name")),
        QCommandLineOption(QStringLiteral("role"),
                           QStringLiteral("With --new-token: viewer (default) or operator."),
                           QStringLiteral("role")),
        QCommandLineOption(QStringLiteral("api-reference"),
                           QStringLiteral("Print the JSON API's reference (Markdown, from the route table; "
                                          "docs/api.md), then exit.")),
    };
    return {QStringLiteral("serve"),
            QStringLiteral("NOC dashboard, JSON API and Prometheus /metrics over HTTP."),
            QString(),
            options,
            withoutPositionals(QStringLiteral("serve"), runServe),
            {},
            {QStringLiteral("web.*"), QStringLiteral("kafka.bootstrap")},
            true};
}

} // namespace outbox::cli
