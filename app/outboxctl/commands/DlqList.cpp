#include "app/outboxctl/Filters.h"
#include "app/outboxctl/commands/Dlq.h"
#include "core/db/DeadLetterStore.h"
#include "core/support/JsonPage.h"

#include <QJsonArray>
#include <QJsonObject>

namespace outbox::cli {

namespace {

int runDlqList(Context& ctx)
{
    auto filter = deadLetterFilterFromOptions(ctx.parser);
    if (!filter)
        return ctx.fail(filter.error());
    auto paging = pagingFromOptions(ctx.parser);
    if (!paging)
        return ctx.fail(paging.error());
    auto page = ctx.onDatabase(
        [&](Database& db) { return DeadLetterStore(db).list(*filter, paging->afterId, paging->limit); });
    if (!page)
        return ctx.fail(page.error());
    if (ctx.json())
        return ctx.printJson(
            pageJson(QStringLiteral("dead_letters"), rowsJson(page->letters), page->nextAfterId));
    // The replay column: where a requested replay stands, or why the last one gave up.
    const auto replayState = [](const DeadLetter& l) -> QString {
        if (l.status == QLatin1String("REPLAYING")) {
            if (l.replayLeaseUntil.isValid() && l.replayLeaseUntil > QDateTime::currentDateTimeUtc())
                return QStringLiteral("try %1 by %2").arg(l.replayAttempts).arg(l.replayWorker);
            if (!l.replayError.isEmpty())
                return QStringLiteral("retry %1 after %2: %3")
                    .arg(l.replayAttempts + 1)
                    .arg(l.replayAvailableAt.toString(QStringLiteral("HH:mm:ss")), l.replayError.left(40));
            return QStringLiteral("waiting for a relay");
        }
        if (!l.replayError.isEmpty())
            return QStringLiteral("failed: %1").arg(l.replayError.left(50));
        return QStringLiteral("-");
    };
    QVector<QStringList> rows;
    for (const DeadLetter& l : page->letters)
        rows << QStringList{QString::number(l.id),
                            l.status,
                            l.consumerName,
                            l.topic,
                            l.eventId,
                            QString::number(l.attempts),
                            l.lastFailedAt.toString(QStringLiteral("yyyy-MM-dd HH:mm:ss")),
                            l.error.left(60),
                            replayState(l)};
    ctx.out << table({QStringLiteral("ID"), QStringLiteral("STATUS"), QStringLiteral("CONSUMER"),
                      QStringLiteral("TOPIC"), QStringLiteral("EVENT ID"), QStringLiteral("ATT"),
                      QStringLiteral("LAST FAILED (UTC)"), QStringLiteral("ERROR"), QStringLiteral("REPLAY")},
                     rows);
    ctx.printNextPage(page->nextAfterId);
    return Ok;
}

} // namespace

Subcommand dlqList()
{
    return {QStringLiteral("list"),
            {QCommandLineOption(QStringLiteral("limit"), QStringLiteral("list: rows per page (default 50)."),
                                QStringLiteral("n")),
             QCommandLineOption(QStringLiteral("after-id"), QStringLiteral("list: continue after this id."),
                                QStringLiteral("id"))},
            withoutPositionals(QStringLiteral("dlq list"), runDlqList)};
}

} // namespace outbox::cli
