#include "app/outboxctl/commands/Commands.h"
#include "core/consumer/ConsumerOverview.h"
#include "core/db/InboxStore.h"

#include <QJsonArray>
#include <QJsonObject>

namespace outbox::cli {

namespace {

int runConsumers(Context& ctx)
{
    ConsumerOverviewQuery::Options options;
    options.consumerName = ctx.parser.value(QStringLiteral("consumer"));
    auto olderThan = ageOption(ctx.parser, QStringLiteral("older-than"), QStringLiteral("5m"));
    if (!olderThan)
        return ctx.fail(olderThan.error());
    options.unconsumedOlderThanMs = *olderThan;
    options.reconcile = !ctx.parser.isSet(QStringLiteral("no-reconcile"));
    if (ctx.parser.isSet(QStringLiteral("rate-window"))) {
        auto window = ageOption(ctx.parser, QStringLiteral("rate-window"), QString());
        if (!window)
            return ctx.fail(window.error());
        options.rateWindowMs = *window;
    }
    options.lag.bootstrap = ctx.config().value(QStringLiteral("kafka.bootstrap"));
    if (ctx.config().isSet(QStringLiteral("consumer.topics"))) // else every topic the group committed on
        options.lag.topics = ctx.config().list(QStringLiteral("consumer.topics"));
    for (const auto& p : ctx.config().kafkaProperties())
        options.lag.kafka.insert(p.key, p.value);

    auto overview = ctx.onDatabase([&](Database& db) { return ConsumerOverviewQuery(db).load(options); });
    if (!overview)
        return ctx.fail(overview.error());
    if (ctx.json()) {
        ctx.printJson(overview->toJson());
    } else {
        QVector<QStringList> rows;
        for (const ConsumerSummary& c : overview->consumers) {
            qint64 recent = 0;
            for (qint64 n : c.rateCounts)
                recent += n;
            rows << QStringList{
                c.consumerName,
                QString::number(c.processed),
                QString::number(c.failed),
                QString::number(c.duplicates),
                QString::number(c.deadLettersNew),
                overview->reconciled ? QString::number(c.unconsumed) : QStringLiteral("-"),
                QString::number(double(recent) * 60000.0 /
                                    double(std::max<qint64>(1, overview->bucketMs * c.rateCounts.size())),
                                'f', 1),
                timeText(c.lastProcessedAt),
                overview->lagQueried && overview->lagError.isEmpty() ? QString::number(c.totalLag())
                                                                     : QStringLiteral("-")};
        }
        ctx.out << table({QStringLiteral("CONSUMER"), QStringLiteral("PROCESSED"), QStringLiteral("FAILED"),
                          QStringLiteral("DUPLICATES"), QStringLiteral("DLQ NEW"),
                          QStringLiteral("UNCONSUMED"), QStringLiteral("AVG/MIN"),
                          QStringLiteral("LAST PROCESSED (UTC)"), QStringLiteral("LAG")},
                         rows);
        if (overview->lagQueried && overview->lagError.isEmpty()) {
            QVector<QStringList> lagRows;
            for (const ConsumerSummary& c : overview->consumers)
                for (const PartitionLag& l : c.lag)
                    lagRows << QStringList{c.consumerName,
                                           l.topic,
                                           QString::number(l.partition),
                                           QString::number(l.committed),
                                           QString::number(l.highWatermark),
                                           QString::number(l.lag)};
            if (!lagRows.isEmpty())
                ctx.out << "\n"
                        << table({QStringLiteral("CONSUMER"), QStringLiteral("TOPIC"),
                                  QStringLiteral("PARTITION"), QStringLiteral("COMMITTED"),
                                  QStringLiteral("HIGH WATERMARK"), QStringLiteral("LAG")},
                                 lagRows);
        }
    }
    if (!overview->lagError.isEmpty())
        return ctx.fail(Error::runtime(QStringLiteral("consumer lag: %1").arg(overview->lagError)));
    return Ok;
}

} // namespace

Command consumersCommand()
{
    return {
        QStringLiteral("consumers"),
        QStringLiteral(
            "Per consumer: processed, failed, duplicates, dead letters, unconsumed events, rate, lag."),
        QString(),
        {QCommandLineOption(QStringLiteral("consumer"), QStringLiteral("Only this consumer."),
                            QStringLiteral("name")),
         QCommandLineOption(QStringLiteral("older-than"),
                            QStringLiteral("Unconsumed: events SENT before this (default 5m)."),
                            QStringLiteral("age")),
         QCommandLineOption(QStringLiteral("no-reconcile"),
                            QStringLiteral("Skip the unconsumed count (it walks the SENT events).")),
         QCommandLineOption(QStringLiteral("rate-window"),
                            QStringLiteral("Processing-rate history (default 1h)."), QStringLiteral("age"))},
        withoutPositionals(QStringLiteral("consumers"), runConsumers),
        {},
        {QStringLiteral("kafka.bootstrap"), QStringLiteral("consumer.topics"), QStringLiteral("-X")}};
}

} // namespace outbox::cli
