#include "app/outboxctl/Signals.h"
#include "app/outboxctl/Systemd.h"
#include "app/outboxctl/commands/Commands.h"
#include "core/broker/EmbeddedBroker.h"
#include "core/relay/RelayRunner.h"

#include <QDateTime>
#include <QElapsedTimer>
#include <QJsonObject>
#include <QThread>
#include <cstdio>

namespace outbox::cli {

namespace {

int runKafka(Context& ctx)
{
    if (!ctx.positionals.isEmpty())
        return ctx.usage(QStringLiteral("kafka takes no positional arguments"));
    bool ok = true;
    const int brokers = ctx.parser.isSet(QStringLiteral("brokers"))
                            ? ctx.parser.value(QStringLiteral("brokers")).toInt(&ok)
                            : 1;
    if (!ok || brokers < 1 || brokers > 9)
        return ctx.usage(QStringLiteral("--brokers must be between 1 and 9"));
    auto broker = EmbeddedBroker::start(brokers);
    if (!broker)
        return ctx.fail(broker.error());
    for (const QString& spec : ctx.parser.values(QStringLiteral("topic"))) {
        const QString name = spec.section(QLatin1Char(':'), 0, 0);
        const int partitions =
            spec.contains(QLatin1Char(':')) ? spec.section(QLatin1Char(':'), 1, 1).toInt(&ok) : 3;
        if (!ok || partitions < 1 || name.isEmpty())
            return ctx.usage(QStringLiteral("invalid --topic \"%1\" (expected name[:partitions])").arg(spec));
        if (Status s = (*broker)->createTopic(name, partitions, brokers); !s)
            return ctx.fail(s.error());
    }
    std::atomic<bool>& stop = installStopSignals();
    if (ctx.json())
        ctx.printJson(QJsonObject{{QStringLiteral("bootstrap"), (*broker)->bootstrap()},
                                  {QStringLiteral("brokers"), brokers}});
    else
        ctx.out << "bootstrap " << (*broker)->bootstrap() << Qt::endl;
    ctx.err << "outboxctl kafka: embedded broker (" << brokers << " broker(s)) on " << (*broker)->bootstrap()
            << "; Ctrl-C stops it" << Qt::endl;
    while (!stop.load())
        QThread::msleep(100);
    return Ok;
}

} // namespace

Command kafkaCommand()
{
    return {QStringLiteral("kafka"),
            QStringLiteral("Run the embedded Kafka broker and print its bootstrap address."),
            QString(),
            {QCommandLineOption(QStringLiteral("brokers"), QStringLiteral("Number of brokers (default 1)."),
                                QStringLiteral("n")),
             QCommandLineOption(QStringLiteral("topic"), QStringLiteral("Create a topic, repeatable."),
                                QStringLiteral("name[:partitions]"))},
            runKafka,
            {}};
}

} // namespace outbox::cli
