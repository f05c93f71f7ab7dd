#include "app/outboxctl/commands/Commands.h"
#include "core/support/TerminalText.h"

#include <QSet>
#include <optional>

namespace outbox::cli {

namespace {

// Every key of the table with a flag, except where two sections share a flag name (the relay's and
// the consumer's --max-attempts): those keep their flag on their own command only.
QStringList showableKeys()
{
    QStringList keys;
    QHash<QString, int> flags;
    for (const config::ConfigKey& k : config::Config::keys())
        if (!k.flag.isEmpty() && !k.secret)
            flags[k.flag] += 1;
    for (const config::ConfigKey& k : config::Config::keys())
        if (!k.flag.isEmpty() && !k.secret && flags.value(k.flag) == 1 && !commonConfigKeys().contains(k.key))
            keys << k.key;
    keys << QStringLiteral("-X");
    return keys;
}

int runConfig(Context& ctx)
{
    if (ctx.positionals.size() != 1 || ctx.positionals.first() != QLatin1String("show"))
        return ctx.usage(
            QStringLiteral("config needs the sub-command show (outboxctl config show [--json])"));
    // With a fleet file: every member too, each value with its source, passwords redacted.
    auto configuredFleet = ctx.configuredFleet();
    if (!configuredFleet)
        return ctx.fail(configuredFleet.error());
    const std::optional<Fleet>& fleet = *configuredFleet;
    if (ctx.json()) {
        QJsonObject json = ctx.config().toJson();
        if (fleet)
            json.insert(QStringLiteral("fleet"), fleet->toJson());
        ctx.printJson(json);
    } else {
        ctx.out << ctx.config().toText();
        if (fleet)
            ctx.out << "\n" << TerminalText::escapeKeepingLines(fleet->toText());
        ctx.out << Qt::flush;
    }
    return Ok;
}

} // namespace

Command configCommand()
{
    return {QStringLiteral("config"),
            QStringLiteral("config show: the effective configuration (and the fleet file's members), the "
                           "source of each value, secrets redacted."),
            QStringLiteral("show"),
            {},
            runConfig,
            {QStringLiteral("show")},
            showableKeys(),
            true};
}

} // namespace outbox::cli
