#include "core/config/ConfigReference.h"

#include "core/config/Config.h"

namespace outbox::config {

namespace {

// A table cell: no line breaks, no column separators.
QString cell(QString text)
{
    text.replace(QLatin1Char('\n'), QLatin1Char(' '));
    text.replace(QLatin1Char('|'), QStringLiteral("\\|"));
    return text;
}

QString code(const QString& text)
{
    return text.isEmpty() ? QStringLiteral("—") : QString(QLatin1Char('`') + text + QLatin1Char('`'));
}

QString values(const ConfigKey& k)
{
    switch (k.type) {
    case ValueType::Integer:
        return QStringLiteral("%1–%2").arg(k.min).arg(k.max);
    case ValueType::Boolean:
        return QStringLiteral("true / false");
    case ValueType::Duration:
        return QStringLiteral("duration");
    case ValueType::List:
        return k.repeatable ? QStringLiteral("list (flag repeatable)")
                            : QStringLiteral("comma-separated list");
    case ValueType::Choice: {
        QStringList quoted;
        for (const QString& c : k.choices)
            quoted << code(c);
        return quoted.join(QStringLiteral(", "));
    }
    case ValueType::Text:
        break;
    }
    if (k.secret)
        return QStringLiteral("secret");
    return k.valueName.isEmpty() ? QStringLiteral("text") : k.valueName;
}

QString flagCell(const ConfigKey& k)
{
    if (k.flag.isEmpty())
        return QStringLiteral("—");
    QString text = QStringLiteral("`--%1`").arg(k.flag);
    if (!k.flagSets.isEmpty())
        text += QStringLiteral(" (sets %1)").arg(k.flagSets);
    return text;
}

} // namespace

QString configurationMarkdown()
{
    QString page;
    page += QStringLiteral(
        "<!-- GENERATED from the configuration key table (core/config/Config.cpp) by\n"
        "     build/app/outboxctl/outboxctl help --docs docs\n"
        "     Do not edit: tst_docs fails when this file differs from what the command writes. -->\n\n");
    page +=
        QStringLiteral(
            "# Configuration\n\n"
            "One configuration serves every command of `outboxctl` and the console: an INI file (`--config\n"
            "FILE`), `OUTBOX_*` environment variables and command-line flags, over built-in defaults, with "
            "one\n"
            "rule:\n\n"
            "**%1**\n\n"
            "The same keys hold for every command: `relay`, `consume`, `reconcile`, `serve`, `demo`, "
            "`migrate`,\n"
            "`status`, `events`, the actions and `dlq` all open the database of `[database] url` with its\n"
            "`table_prefix` (e.g. `t_` for `t_outbox_events`, `t_inbox_events`, … beside another "
            "application's\n"
            "unprefixed tables in the same database). `outboxctl config show [--json]` prints the effective\n"
            "configuration with the source of every value (`default`, `file:PATH:LINE`, `env:NAME`,\n"
            "`flag:--name`) and secrets redacted:\n\n"
            "```sh\n"
            "outboxctl config show --config /etc/outbox/orders.ini\n"
            "outboxctl config show --config /etc/outbox/orders.ini --json\n"
            "```\n\n"
            "```ini\n"
            "[general]\n"
            "actor = ops-bot                ; who acts in the audit log (default: the login name)\n"
            "[database]\n"
            "url = postgresql://relay@db.internal:5432/orders\n"
            "table_prefix = t_\n"
            "[kafka]\n"
            "bootstrap = kafka1:9092,kafka2:9092\n"
            "security.protocol = SASL_SSL   ; any librdkafka property\n"
            "sasl.mechanisms = SCRAM-SHA-512\n"
            "sasl.username = outbox\n"
            "[relay]\n"
            "workers = 2\n"
            "batch_size = 500\n"
            "[consumer]\n"
            "name = inventory\n"
            "[web]\n"
            "listen = 127.0.0.1:8080\n"
            "[doctor]\n"
            "backlog_age = 5m\n"
            "consumers = inventory\n"
            "```\n\n"
            "The file: `[section]` headers, `key = value` lines, whole-line comments with `;` or `#`, "
            "inline\n"
            "comments after ` ;`, values in double quotes to keep a `;`. An unknown section or key, a key "
            "set\n"
            "twice, a malformed line or a value of the wrong type is one error line naming the file, the "
            "line\n"
            "and the key (exit 2) — for every command, before anything runs. Bad `OUTBOX_*` values and flags "
            "are\n"
            "reported the same way with the variable's or flag's name. `[relay]` keys may also be written "
            "with\n"
            "dashes (`batch-size`). An empty variable counts as not set.\n\n"
            "Secrets — the database password, Kafka passwords (any property with `password` or `secret` in "
            "its\n"
            "name, `sasl.oauthbearer.config`) and tokens — are never printed (`config show` shows `***`, a\n"
            "password inside a URL too), never in error messages, and never taken from the command line: "
            "give\n"
            "them in the environment (`OUTBOX_DB_PASSWORD`, `OUTBOX_KAFKA_SASL_PASSWORD`) or in a file "
            "readable\n"
            "by the service only. `-X sasl.password=…` is refused.\n\n")
            .arg(Config::precedence());

    page += QStringLiteral("## Keys\n\n"
                           "A flag belongs to the commands that use its key (`outboxctl COMMAND --help` "
                           "lists them with their\nvariable and default). Durations are written `30s`, "
                           "`15m`, `2h`, `7d`, `500ms` or `0`; a plain number is seconds.\n");
    QString section;
    for (const ConfigKey& k : Config::keys()) {
        if (k.section() != section) {
            section = k.section();
            page += QStringLiteral("\n### [%1]\n\n").arg(section);
            page += QStringLiteral("| key | environment | flag | default | values | |\n"
                                   "|---|---|---|---|---|---|\n");
        }
        page += QStringLiteral("| `[%1] %2` | %3 | %4 | %5 | %6 | %7 |\n")
                    .arg(k.section(), k.name(), code(k.env), flagCell(k),
                         k.defaultValue.isEmpty() ? QStringLiteral("—") : code(k.defaultValue),
                         cell(values(k)), cell(k.help));
    }
    page += QStringLiteral(
        "\n### Other Kafka properties and tokens\n\n"
        "- `[kafka]` takes any librdkafka property besides those above (`security.protocol`,\n"
        "  `sasl.mechanisms`, `ssl.ca.location`, …), and `-X name=value` sets one on the command line, for\n"
        "  the relay's producer, the consumer and `dlq replay --deliver`. The relay sets\n"
        "  `enable.idempotence=true` and `acks=all` and refuses to weaken either.\n"
        "- `[tokens] NAME = viewer:SHA256HEX` or `operator:SHA256HEX`: the API tokens of `outboxctl serve`\n"
        "  (a secret; `outboxctl serve --new-token NAME [--role operator]` prints a new one). With a fleet,\n"
        "  `members=SELECTORS` limits the members the token sees at all and `operator=SELECTORS` makes a\n"
        "  viewer's token an operator on some members (SELECTORS: member names or tags, comma-separated:\n"
        "  `pay = operator:SHA256HEX members=team=payments`).\n"
        "- `[oidc_groups] GROUP = ROLE [members=SELECTORS] [operator=SELECTORS]`: with `[oidc] issuer`, what "
        "a\n"
        "  group of the identity provider's groups claim grants a person signed in with it (`viewer` or\n"
        "  `operator`, and fleet scopes as for tokens); `LABEL = ROLE group=NAME …` for a group name the "
        "key\n"
        "  cannot hold (`/ops/payments`). See docs/operator-guide.md, \"Sign in with your identity "
        "provider\".\n\n"
        "The console reads `[database]` from the same sources (`outbox-console --config FILE`, `--db`,\n"
        "`--table-prefix`, `OUTBOX_DB_*`); its connection profiles hold a table prefix too.\n"
        "(`OUTBOX_FAILPOINTS`, the fault injection of the crash tests, is not configuration.)\n");
    return page;
}

} // namespace outbox::config
