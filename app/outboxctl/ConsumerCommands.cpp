#include "app/outboxctl/Cli.h"
#include "core/consumer/ConsumerOverview.h"
#include "core/db/InboxStore.h"

#include <QJsonArray>
#include <QJsonObject>

namespace outbox::cli {

namespace {

QString oneLine(QString text, int max)
{
    text.replace(QLatin1Char('\n'), QLatin1Char(' '));
    return text.size() > max ? text.left(max - 1) + QChar(0x2026) : text;
}

QString timeText(const QDateTime& t)
{
    return t.isValid() ? t.toUTC().toString(QStringLiteral("yyyy-MM-dd HH:mm:ss")) : QStringLiteral("-");
}

int runConsumers(Context& ctx)
{
    if (!ctx.positionals.isEmpty())
        return ctx.usage(QStringLiteral("consumers takes no positional arguments"));
    ConsumerOverviewQuery::Options options;
    options.consumerName = ctx.parser.value(QStringLiteral("consumer"));
    const QString age = ctx.parser.isSet(QStringLiteral("older-than"))
                            ? ctx.parser.value(QStringLiteral("older-than"))
                            : QStringLiteral("5m");
    auto since = parseTimeArgument(age, QStringLiteral("older-than"));
    if (!since)
        return ctx.fail(since.error());
    options.unconsumedOlderThanMs = std::max<qint64>(0, since->msecsTo(QDateTime::currentDateTimeUtc()));
    options.reconcile = !ctx.parser.isSet(QStringLiteral("no-reconcile"));
    if (ctx.parser.isSet(QStringLiteral("rate-window"))) {
        auto window =
            parseTimeArgument(ctx.parser.value(QStringLiteral("rate-window")), QStringLiteral("rate-window"));
        if (!window)
            return ctx.fail(window.error());
        options.rateWindowMs = std::max<qint64>(0, window->msecsTo(QDateTime::currentDateTimeUtc()));
    }
    options.lag.bootstrap = ctx.config().value(QStringLiteral("kafka.bootstrap"));
    if (ctx.config().isSet(QStringLiteral("consumer.topics"))) // else every topic the group committed on
        options.lag.topics = ctx.config().list(QStringLiteral("consumer.topics"));
    for (const auto& p : ctx.config().kafkaProperties())
        options.lag.kafka.insert(p.key, p.value);

    auto db = ctx.openMigratedDatabase();
    if (!db)
        return ctx.fail(db.error());
    auto overview = ConsumerOverviewQuery(**db).load(options);
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
                          QStringLiteral("UNCONSUMED"), QStringLiteral("PER MIN"),
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

int runInboxList(Context& ctx)
{
    if (!ctx.positionals.isEmpty())
        return ctx.usage(QStringLiteral("inbox list takes no positional arguments"));
    InboxFilter filter;
    filter.consumerName = ctx.parser.value(QStringLiteral("consumer"));
    filter.status = ctx.parser.value(QStringLiteral("status")).toUpper();
    filter.eventId = ctx.parser.value(QStringLiteral("event-id"));
    if (Status s = filter.validate(); !s)
        return ctx.fail(s.error());
    auto paging = pagingFromOptions(ctx.parser);
    if (!paging)
        return ctx.fail(paging.error());
    auto db = ctx.openMigratedDatabase();
    if (!db)
        return ctx.fail(db.error());
    auto page = InboxStore(**db).list(filter, paging->afterId, paging->limit);
    if (!page)
        return ctx.fail(page.error());
    if (ctx.json()) {
        QJsonArray rows;
        for (const InboxRecord& r : page->records)
            rows.append(r.toJson());
        ctx.printJson(QJsonObject{{QStringLiteral("inbox"), rows},
                                  {QStringLiteral("next_after_id"),
                                   page->nextAfterId > 0 ? QJsonValue(page->nextAfterId) : QJsonValue()}});
        return Ok;
    }
    QVector<QStringList> rows;
    for (const InboxRecord& r : page->records)
        rows << QStringList{QString::number(r.id),
                            r.consumerName,
                            r.status,
                            QString::number(r.attempts),
                            r.eventId,
                            r.aggregateId,
                            timeText(r.processedAt),
                            oneLine(r.lastError, 60)};
    ctx.out << table({QStringLiteral("ID"), QStringLiteral("CONSUMER"), QStringLiteral("STATUS"),
                      QStringLiteral("ATT"), QStringLiteral("EVENT ID"), QStringLiteral("AGGREGATE"),
                      QStringLiteral("AT (UTC)"), QStringLiteral("LAST ERROR")},
                     rows);
    if (page->nextAfterId > 0)
        ctx.out << "more: --after-id " << page->nextAfterId << "\n";
    return Ok;
}

int runInbox(Context& ctx)
{
    if (ctx.positionals.isEmpty())
        return ctx.usage(QStringLiteral("inbox needs a sub-command: list"));
    const QString sub = ctx.positionals.takeFirst();
    if (sub == QLatin1String("list"))
        return runInboxList(ctx);
    return ctx.usage(QStringLiteral("unknown inbox sub-command \"%1\" (expected list)").arg(sub));
}

} // namespace

QList<Command> consumerCommands()
{
    return {
        {QStringLiteral("consumers"),
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
         runConsumers,
         {},
         {QStringLiteral("kafka.bootstrap"), QStringLiteral("consumer.topics"), QStringLiteral("-X")}},
        {QStringLiteral("inbox"),
         QStringLiteral("Browse the consumers' inbox rows: list [--consumer C] [--status S] [--event-id E]."),
         QStringLiteral("list"),
         {QCommandLineOption(QStringLiteral("consumer"), QStringLiteral("Consumer name (exact)."),
                             QStringLiteral("name")),
          QCommandLineOption(QStringLiteral("status"), QStringLiteral("PROCESSED or FAILED."),
                             QStringLiteral("status")),
          QCommandLineOption(QStringLiteral("event-id"), QStringLiteral("Event id (exact)."),
                             QStringLiteral("id")),
          QCommandLineOption(QStringLiteral("limit"), QStringLiteral("Rows per page (default 50)."),
                             QStringLiteral("n")),
          QCommandLineOption(QStringLiteral("after-id"),
                             QStringLiteral("Continue after this id (keyset paging)."),
                             QStringLiteral("id"))},
         runInbox,
         {QStringLiteral("list")}}};
}

} // namespace outbox::cli
