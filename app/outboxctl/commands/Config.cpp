#include "app/outboxctl/commands/Commands.h"

#include <QSet>

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
    if (ctx.json())
        ctx.printJson(ctx.config().toJson());
    else
        ctx.out << ctx.config().toText() << Qt::flush;
    return Ok;
}

} // namespace

Command configCommand()
{
    return {QStringLiteral("config"),
            QStringLiteral("config show: the effective configuration, the source of each value, secrets "
                           "redacted."),
            QStringLiteral("show"),
            {},
            runConfig,
            {QStringLiteral("show")},
            showableKeys()};
}

} // namespace outbox::cli
