#include "app/outboxctl/Usage.h"

#include "core/config/Config.h"
#include "core/config/ConfigReference.h"
#include "core/diagnosis/Runbook.h"

#include <QDir>
#include <QSaveFile>
#include <QStringList>

namespace outbox::cli {

namespace {

// Text for a roff line: backslashes and a leading dot or quote must not become requests.
QString roff(QString text)
{
    text.replace(QLatin1Char('\\'), QStringLiteral("\\e"));
    text.replace(QLatin1Char('-'), QStringLiteral("\\-"));
    if (text.startsWith(QLatin1Char('.')) || text.startsWith(QLatin1Char('\'')))
        text.prepend(QStringLiteral("\\&"));
    return text;
}

QString optionItem(const QCommandLineOption& option)
{
    QStringList names;
    for (const QString& name : option.names())
        names << QStringLiteral("\\fB") +
                     roff((name.size() == 1 ? QStringLiteral("-") : QStringLiteral("--")) + name) +
                     QStringLiteral("\\fR");
    QString item = QStringLiteral(".TP\n") + names.join(QStringLiteral(", "));
    if (!option.valueName().isEmpty())
        item += QStringLiteral(" \\fI") + roff(option.valueName()) + QStringLiteral("\\fR");
    return item + QLatin1Char('\n') + roff(option.description()) + QLatin1Char('\n');
}

} // namespace

QString usageText(const QList<Command>& commands)
{
    QString text = QStringLiteral("usage: outboxctl COMMAND [options]\n\ncommands:\n");
    for (const Command& c : commands)
        text += QStringLiteral("  ") + c.name.leftJustified(10) + c.summary + QLatin1Char('\n');
    text += QStringLiteral("\ncommon options:");
    for (const QCommandLineOption& o : commonOptions() + configOptions(commonConfigKeys()))
        text += QStringLiteral("  --") + o.names().constLast() +
                (o.valueName().isEmpty() ? QString() : QLatin1Char(' ') + o.valueName().toUpper());
    text +=
        QStringLiteral("\nconfiguration: flags > environment (OUTBOX_*) > --config file > defaults; see "
                       "`outboxctl config show`\n"
                       "run `outboxctl COMMAND --help` for a command's options; `man outboxctl` for all\n");
    return text;
}

QString manPage(const QList<Command>& commands)
{
    QString page;
    page += QStringLiteral(".TH OUTBOXCTL 1 \"\" \"outboxctl %1\" \"Outbox Console\"\n")
                .arg(QStringLiteral(OUTBOX_VERSION));
    page +=
        QStringLiteral(".SH NAME\noutboxctl \\- the headless tool of Outbox Console (transactional outbox "
                       "relay, operations and NOC server)\n");
    page += QStringLiteral(".SH SYNOPSIS\n.B outboxctl\n.I COMMAND\n[\\fIoptions\\fR]\n.br\n.B outboxctl\n"
                           ".BR \\-\\-help \" | \" \\-\\-version\n");
    page += QStringLiteral(
        ".SH DESCRIPTION\n"
        "Business transactions write their events into an outbox table in the same database transaction; "
        "outboxctl delivers them to Kafka (\\fBrelay\\fR), shows and repairs the table (\\fBstatus\\fR, "
        "\\fBevents\\fR, audited operator actions), runs the consumer side (\\fBconsume\\fR, \\fBdlq\\fR, "
        "\\fBreconcile\\fR) and serves the NOC dashboard, JSON API and Prometheus metrics (\\fBserve\\fR). "
        "Databases: PostgreSQL, MariaDB/MySQL and SQLite, given as a URL such as "
        "postgresql://user@host:5432/db, mysql://user@host/db or sqlite:///path/file.db.\n");
    page += QStringLiteral(".SH COMMANDS\n");
    for (const Command& c : commands) {
        QString synopsis = QStringLiteral("outboxctl ") + c.name;
        if (!c.syntax.isEmpty())
            synopsis += QLatin1Char(' ') + c.syntax;
        page += QStringLiteral(".SS \"%1\"\n")
                    .arg(roff(synopsis).replace(QLatin1Char('"'), QStringLiteral("\\(dq")));
        page += roff(c.summary) + QLatin1Char('\n');
        for (const QCommandLineOption& o : configOptions(c.configKeys) + c.options)
            if (!(o.flags() & QCommandLineOption::HiddenFromHelp))
                page += optionItem(o);
    }
    page += QStringLiteral(".SH COMMON OPTIONS\nEvery command takes these.\n");
    for (const QCommandLineOption& o : commonOptions() + configOptions(commonConfigKeys()))
        page += optionItem(o);
    page += QStringLiteral(".TP\n\\fB\\-h\\fR, \\fB\\-\\-help\\fR\nThe command's options.\n");
    page += QStringLiteral(".SH EXIT STATUS\n"
                           ".TP\n0\nSuccess.\n"
                           ".TP\n1\nA runtime error (database, broker, a refused operation).\n"
                           ".TP\n2\nA usage or configuration error.\n"
                           "Every error is one line on standard error.\n");
    page +=
        QStringLiteral(".SH CONFIGURATION\n"
                       "Flags win over the environment, the environment over the \\-\\-config file, the file "
                       "over the defaults; \\fBoutboxctl config show\\fR prints the effective configuration "
                       "and the source of each key. The keys, their variables and defaults:\n");
    for (const config::ConfigKey& k : config::Config::keys()) {
        page += QStringLiteral(".TP\n\\fB") + roff(k.key) + QStringLiteral("\\fR");
        if (!k.env.isEmpty())
            page += QStringLiteral(" (\\fB") + roff(k.env) + QStringLiteral("\\fR)");
        page += QLatin1Char('\n') + roff(k.help);
        if (!k.defaultValue.isEmpty())
            page += QStringLiteral(" Default: ") + roff(k.defaultValue) + QLatin1Char('.');
        page += QLatin1Char('\n');
    }
    page += QStringLiteral(
        ".SH ENVIRONMENT\n"
        "Every configuration key above has its OUTBOX_* variable. Besides:\n"
        ".TP\n.B CREDENTIALS_DIRECTORY\nUnder systemd, a credential named db\\-password "
        "(LoadCredential=db\\-password:FILE) is read as OUTBOX_DB_PASSWORD.\n"
        ".TP\n.BR NOTIFY_SOCKET \", \" WATCHDOG_USEC \", \" JOURNAL_STREAM\n"
        "Set by systemd: relay and serve report readiness, watchdog pings and their drain, and write "
        "their lines with journal priorities.\n");
    page += QStringLiteral(
        ".SH FILES\n"
        ".TP\n.I /etc/outbox/outbox.ini.example\nEvery configuration key, commented.\n"
        ".TP\n.I /etc/outbox/NAME.ini\nThe configuration of the units outbox\\-relay@NAME.service, "
        "outbox\\-serve@NAME.service and outbox\\-doctor@NAME.timer; "
        "\\fI/etc/outbox/NAME.env\\fR (optional, mode 0600) holds OUTBOX_DB_PASSWORD for them.\n"
        ".TP\n.I /usr/share/doc/outboxctl/runbooks/\nOne runbook page per doctor finding, the text "
        "\\fBoutboxctl doctor\\fR prints; \\fBoutboxctl serve\\fR serves the same pages at "
        "/docs/runbooks/ID.\n"
        ".TP\n.I /usr/share/doc/outboxctl/prometheus/outbox.rules.yml\nPrometheus alert rules on the "
        "doctor's findings; each links its runbook page (runbook_url).\n");
    page += QStringLiteral(".SH SEE ALSO\n.BR systemctl (1),\n.BR journalctl (1)\n");
    return page;
}

QString iniExample()
{
    QString ini = QStringLiteral(
        "; Outbox Console configuration: every key, commented out, with its default.\n"
        ";\n"
        "; Copy to /etc/outbox/NAME.ini for the units outbox-relay@NAME.service, outbox-serve@NAME.service\n"
        "; and outbox-doctor@NAME.timer, or pass it to any command with --config FILE. Flags win over the\n"
        "; environment (the OUTBOX_* variable named with each key), the environment over this file.\n"
        "; `outboxctl config show --config FILE` prints the effective values and where each comes from.\n"
        ";\n"
        "; Passwords do not belong here. Give them to the services through\n"
        ";   /etc/outbox/NAME.env          OUTBOX_DB_PASSWORD=...   (owner root, mode 0600), or\n"
        ";   a systemd credential          systemctl edit outbox-relay@NAME:\n"
        ";                                   [Service]\n"
        ";                                   LoadCredential=db-password:/etc/outbox/NAME.password\n"
        "; and to interactive commands through the environment (OUTBOX_DB_PASSWORD).\n"
        "; SQLite files used by the services must lie below /var/lib/outbox (their only writable place).\n");
    QString section;
    for (const config::ConfigKey& k : config::Config::keys()) {
        if (k.section() != section) {
            section = k.section();
            ini += QStringLiteral("\n[%1]\n").arg(section);
            if (section == QLatin1String("kafka"))
                ini += QStringLiteral("; Besides the keys below, any librdkafka property, e.g.\n"
                                      ";security.protocol = SASL_SSL\n"
                                      ";sasl.mechanisms = SCRAM-SHA-512\n"
                                      ";compression.type = lz4\n");
        }
        ini += QStringLiteral("; ") + k.help +
               (k.env.isEmpty() ? QString() : QStringLiteral(" [%1]").arg(k.env)) + QLatin1Char('\n');
        if (k.secret)
            ini +=
                QStringLiteral("; a secret: give it through the environment or a credential, not here\n;") +
                k.name() + QStringLiteral(" =\n");
        else
            ini += QLatin1Char(';') + k.name() + QStringLiteral(" =") +
                   (k.defaultValue.isEmpty() ? QString() : QLatin1Char(' ') + k.defaultValue) +
                   QLatin1Char('\n');
    }
    ini += QStringLiteral(
        "\n[tokens]\n"
        "; API and dashboard tokens: NAME = viewer:SHA256 or operator:SHA256 of the secret;\n"
        "; `outboxctl serve --new-token NAME [--role operator]` prints a secret and its line.\n"
        ";wallboard = viewer:<sha256 hex of the secret>\n"
        "\n[oidc_groups]\n"
        "; With [oidc] issuer: GROUP = viewer or operator [members=SELECTORS] [operator=SELECTORS]\n"
        ";payments-oncall = operator members=team=payments\n");
    return ini;
}

QString writeGeneratedDocs(const QString& dir)
{
    const QDir root(dir);
    if (!root.mkpath(QStringLiteral("runbooks")))
        return QStringLiteral("cannot create %1").arg(root.filePath(QStringLiteral("runbooks")));
    QList<QPair<QString, QString>> files;
    files << qMakePair(QStringLiteral("configuration.md"), config::configurationMarkdown());
    files << qMakePair(QStringLiteral("runbooks/README.md"), Runbook::indexMarkdown());
    for (const Runbook& r : Runbook::all())
        files << qMakePair(QStringLiteral("runbooks/%1.md").arg(r.id), r.markdown());
    for (const auto& [name, text] : files) {
        QSaveFile file(root.filePath(name));
        if (!file.open(QIODevice::WriteOnly) || file.write(text.toUtf8()) < 0 || !file.commit())
            return QStringLiteral("cannot write %1: %2").arg(file.fileName(), file.errorString());
    }
    return {};
}

} // namespace outbox::cli
