#include "app/outboxctl/Signals.h"
#include "app/outboxctl/Systemd.h"
#include "app/outboxctl/commands/Commands.h"
#include "core/broker/kafka/EmbeddedBroker.h"
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
    bool ok = true;
    const int brokers = ctx.parser.isSet(QStringLiteral("brokers"))
                            ? ctx.parser.value(QStringLiteral("brokers")).toInt(&ok)
                            : 1;
    if (!ok || brokers < 1 || brokers > 9)
        return ctx.usage(QStringLiteral("--brokers must be between 1 and 9"));
    int port = 0;
    if (ctx.parser.isSet(QStringLiteral("port"))) {
        port = ctx.parser.value(QStringLiteral("port")).toInt(&ok);
        if (!ok || port < 1 || port > 65535)
            return ctx.usage(QStringLiteral("--port must be a TCP port (1 to 65535)"));
    }
    auto broker = EmbeddedBroker::start(brokers);
    if (!broker)
        return ctx.fail(broker.error());
    if (port != 0)
        if (Status s = (*broker)->bootstrapOn(quint16(port)); !s)
            return ctx.fail(s.error());
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
            << "; Ctrl-C stops it" << Qt::endl
            << "outboxctl kafka: it keeps the newest "
            << EmbeddedBroker::KeptBytesPerPartition / (1024 * 1024)
            << " MiB of each partition and drops older messages: for a demo and tests, not for data you keep"
            << Qt::endl;
    while (!stop.load())
        QThread::msleep(100);
    return Ok;
}

} // namespace

Command kafkaCommand()
{
    return {
        QStringLiteral("kafka"),
        QStringLiteral("Run the embedded Kafka broker and print its bootstrap address."),
        QString(),
        {QCommandLineOption(QStringLiteral("brokers"), QStringLiteral("Number of brokers (default 1)."),
                            QStringLiteral("n")),
         QCommandLineOption(QStringLiteral("topic"), QStringLiteral("Create a topic, repeatable."),
                            QStringLiteral("name[:partitions]")),
         QCommandLineOption(QStringLiteral("port"),
                            QStringLiteral("Bootstrap port on 127.0.0.1 (default: one the system picks)."),
                            QStringLiteral("port"))},
        withoutPositionals(QStringLiteral("kafka"), runKafka),
        {}};
}

} // namespace outbox::cli
