#include "app/outboxctl/commands/Commands.h"
#include "core/consumer/Reconciler.h"
#include "core/db/DatabaseTarget.h"
#include "core/support/TerminalText.h"

#include <QJsonObject>

namespace outbox::cli {

namespace {

int runReconcile(Context& ctx)
{
    ReconcileOptions options;
    options.consumerName = ctx.config().value(QStringLiteral("consumer.name"));
    if (options.consumerName.trimmed().isEmpty())
        return ctx.usage(QStringLiteral("reconcile needs --consumer NAME (or [consumer] name)"));
    auto olderThan = ageOption(ctx.parser, QStringLiteral("older-than"), QStringLiteral("5m"));
    if (!olderThan)
        return ctx.fail(olderThan.error());
    options.olderThanMs = *olderThan;
    for (const auto& [name, field, max] :
         {std::make_tuple(QStringLiteral("chunk"), &options.chunkSize, 10000),
          std::make_tuple(QStringLiteral("sample"), &options.sampleSize, 1000)}) {
        if (!ctx.parser.isSet(name))
            continue;
        bool ok = false;
        const int v = ctx.parser.value(name).toInt(&ok);
        if (!ok || v < 1 || v > max)
            return ctx.usage(QStringLiteral("--%1 must be a number between 1 and %2").arg(name).arg(max));
        *field = v;
    }

    const bool list = ctx.parser.isSet(QStringLiteral("list"));
    if (!list && (ctx.parser.isSet(QStringLiteral("limit")) || ctx.parser.isSet(QStringLiteral("after-id"))))
        return ctx.usage(QStringLiteral("--limit and --after-id page the listing: add --list"));
    if (list) {
        auto paging = pagingFromOptions(ctx.parser);
        if (!paging)
            return ctx.fail(paging.error());
        options.listLimit = ctx.parser.isSet(QStringLiteral("limit")) ? paging->limit : 1000;
        options.afterId = paging->afterId;
    }

    auto outbox = ctx.openMigratedDatabase();
    if (!outbox)
        return ctx.fail(outbox.error());
    std::unique_ptr<Database> inbox;
    if (ctx.parser.isSet(QStringLiteral("inbox-db"))) {
        auto target = DatabaseTarget::fromConfig(ctx.config(), ctx.parser.value(QStringLiteral("inbox-db")),
                                                 ctx.config().tablePrefix());
        if (!target)
            return ctx.fail(target.error());
        auto opened = target->open(QStringLiteral("inbox"));
        if (!opened)
            return ctx.fail(opened.error());
        inbox = std::move(opened).value();
    }
    auto result = Reconciler(**outbox, inbox.get()).run(options);
    if (!result)
        return ctx.fail(result.error());
    if (ctx.json())
        return ctx.printJson(result->toJson());
    const QString topics = result->topicsKnown
                               ? QStringLiteral("topics %1").arg(result->topics.join(QStringLiteral(", ")))
                               : QStringLiteral("every topic (the consumer recorded none)");
    if (list) {
        ctx.out << result->events.size() << " event(s) SENT more than " << formatAge(options.olderThanMs)
                << " ago not PROCESSED by consumer \"" << TerminalText::escape(options.consumerName) << "\" ("
                << TerminalText::escape(topics) << ")"
                << (options.afterId > 0 ? QStringLiteral(" after id %1").arg(options.afterId) : QString())
                << "\n";
        QVector<QStringList> rows;
        for (const ReconcileResult::Event& e : result->events)
            rows << QStringList{QString::number(e.id), e.eventId,
                                e.topic.isNull() ? QStringLiteral("-") : e.topic, timeText(e.createdAt),
                                timeText(e.sentAt)};
        if (!rows.isEmpty())
            ctx.out << table({QStringLiteral("ID"), QStringLiteral("EVENT ID"), QStringLiteral("TOPIC"),
                              QStringLiteral("CREATED (UTC)"), QStringLiteral("SENT (UTC)")},
                             rows);
        ctx.printNextPage(result->nextAfterId);
        return Ok;
    }
    ctx.out << result->unconsumed << " of " << result->scanned << " event(s) SENT more than "
            << formatAge(options.olderThanMs) << " ago not PROCESSED by consumer \"" << options.consumerName
            << "\" (" << TerminalText::escape(topics) << ")"
            << (result->separateInbox ? QStringLiteral(" (inbox in a separate database)") : QString())
            << "\n";
    for (int i = 0; i < result->sampleIds.size(); ++i)
        ctx.out << "  #" << result->sampleIds.at(i) << " " << result->sampleEventIds.at(i) << "\n";
    if (result->unconsumed > result->sampleIds.size())
        ctx.out << "  … and " << result->unconsumed - result->sampleIds.size() << " more\n";
    return Ok;
}

} // namespace

Command reconcileCommand()
{
    return {
        QStringLiteral("reconcile"),
        QStringLiteral("Find events SENT long ago that a consumer has not PROCESSED."),
        QString(),
        {QCommandLineOption(QStringLiteral("older-than"),
                            QStringLiteral("Only events SENT before this (default 5m)."),
                            QStringLiteral("age")),
         QCommandLineOption(
             QStringLiteral("inbox-db"),
             QStringLiteral("The consumer's database, when its inbox is not in the outbox database."),
             QStringLiteral("url")),
         QCommandLineOption(QStringLiteral("chunk"), QStringLiteral("Outbox rows per chunk (default 1000)."),
                            QStringLiteral("n")),
         QCommandLineOption(QStringLiteral("sample"), QStringLiteral("Event ids to print (default 20)."),
                            QStringLiteral("n")),
         QCommandLineOption(QStringLiteral("list"),
                            QStringLiteral("List every unprocessed event, a page at a time, instead of a "
                                           "count and a sample.")),
         QCommandLineOption(QStringLiteral("limit"),
                            QStringLiteral("--list: events per page (default 1000)."), QStringLiteral("n")),
         QCommandLineOption(QStringLiteral("after-id"),
                            QStringLiteral("--list: continue after this outbox id."), QStringLiteral("id"))},
        withoutPositionals(QStringLiteral("reconcile"), runReconcile),
        {},
        {QStringLiteral("consumer.name")}};
}

} // namespace outbox::cli
