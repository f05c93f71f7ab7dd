#include "app/outboxctl/Cli.h"
#include "app/outboxctl/Signals.h"
#include "app/outboxctl/Systemd.h"
#include "ui/web/AccessControl.h"
#include "ui/web/WebConfig.h"
#include "ui/web/WebServer.h"

#include <QCoreApplication>
#include <QTimer>
#include <memory>

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
    if (!ctx.positionals.isEmpty())
        return ctx.usage(QStringLiteral("serve takes no positional arguments"));
    if (ctx.parser.isSet(QStringLiteral("new-token")))
        return runNewToken(ctx);

    auto config = web::WebConfig::fromFile(ctx.parser.value(QStringLiteral("config")));
    if (!config)
        return ctx.fail(config.error());
    if (ctx.parser.isSet(QStringLiteral("listen"))) {
        if (Status s = config->setListen(ctx.parser.value(QStringLiteral("listen"))); !s)
            return ctx.fail(s.error());
    }
    if (ctx.parser.isSet(QStringLiteral("public-dashboard")))
        config->publicDashboard = true;
    if (ctx.parser.isSet(QStringLiteral("tls-cert")) || ctx.parser.isSet(QStringLiteral("tls-key"))) {
        config->tlsCertificateFile = ctx.parser.value(QStringLiteral("tls-cert"));
        config->tlsKeyFile = ctx.parser.value(QStringLiteral("tls-key"));
    }
    if (config->tlsCertificateFile.isEmpty() != config->tlsKeyFile.isEmpty())
        return ctx.usage(QStringLiteral("TLS needs both a certificate and a key (--tls-cert and --tls-key)"));
    if (ctx.parser.isSet(QStringLiteral("sample-interval"))) {
        bool ok = false;
        config->sampleIntervalMs = ctx.parser.value(QStringLiteral("sample-interval")).toInt(&ok);
        if (!ok || config->sampleIntervalMs < 100 || config->sampleIntervalMs > 600000)
            return ctx.usage(QStringLiteral("--sample-interval must be between 100 and 600000 milliseconds"));
    }

    QString tablePrefix = ctx.parser.value(QStringLiteral("table-prefix"));
    if (tablePrefix.isEmpty()) {
        auto configured = ctx.configValue(QStringLiteral("database/table_prefix"));
        if (!configured)
            return ctx.fail(configured.error());
        tablePrefix = *configured;
    }
    DatabaseUrl url;
    {
        auto db = ctx.openMigratedDatabase(); // refuse early when the schema is missing
        if (!db)
            return ctx.fail(db.error());
        url = (*db)->url();
    }

    web::WebServer server(*config, url, tablePrefix);
    auto port = server.start();
    if (!port)
        return ctx.fail(port.error());
    if (!config->isLoopbackOnly() && !config->tlsEnabled())
        ctx.err << "outboxctl: warning: listening on " << config->address.toString()
                << " without TLS; tokens and payloads cross the network in clear text (use --tls-cert and "
                   "--tls-key)"
                << Qt::endl;
    if (config->tokens.isEmpty())
        ctx.err << "outboxctl: warning: no tokens configured ([tokens] in --config): the API refuses every "
                   "request"
                << (config->publicDashboard ? "" : " and the dashboard cannot connect") << Qt::endl;
    ctx.out << systemd::prefix(systemd::Priority::Notice, stdout) << "serving " << url.redacted() << " on "
            << server.baseUrl().toString()
            << (config->publicDashboard ? " (dashboard public, read-only)" : "") << Qt::endl;
    ctx.out << "  dashboard " << server.baseUrl().toString()
            << (config->publicDashboard ? "" : "#token=VIEWER_TOKEN") << "\n  metrics   "
            << server.baseUrl().resolved(QUrl(QStringLiteral("metrics"))).toString() << "\n  api       "
            << server.baseUrl().resolved(QUrl(QStringLiteral("api/v1/summary"))).toString() << Qt::endl;
    quitOnSignals();
    systemd::notifyReady(QStringLiteral("serving on ") + server.baseUrl().toString());
    QCoreApplication::exec();
    return Ok;
}

} // namespace

QList<Command> serveCommands()
{
    const QList<QCommandLineOption> options = {
        QCommandLineOption(QStringLiteral("listen"),
                           QStringLiteral("Address and port (default 127.0.0.1:8080)."),
                           QStringLiteral("host:port")),
        QCommandLineOption(QStringLiteral("public-dashboard"),
                           QStringLiteral("Dashboard and /metrics readable without a token (read-only).")),
        QCommandLineOption(QStringLiteral("tls-cert"), QStringLiteral("PEM certificate: serve HTTPS."),
                           QStringLiteral("file")),
        QCommandLineOption(QStringLiteral("tls-key"), QStringLiteral("PEM private key of the certificate."),
                           QStringLiteral("file")),
        QCommandLineOption(QStringLiteral("sample-interval"),
                           QStringLiteral("Milliseconds between samples (default 2000)."),
                           QStringLiteral("ms")),
        QCommandLineOption(QStringLiteral("new-token"),
                           QStringLiteral("Print a fresh token and its [tokens] line, then exit."),
                           QStringLiteral("name")),
        QCommandLineOption(QStringLiteral("role"),
                           QStringLiteral("With --new-token: viewer (default) or operator."),
                           QStringLiteral("role")),
    };
    return {{QStringLiteral("serve"),
             QStringLiteral("NOC dashboard, JSON API and Prometheus /metrics over HTTP."),
             QString(),
             options,
             runServe,
             {}}};
}

} // namespace outbox::cli
