#include "app/outboxctl/commands/Commands.h"
#include "core/ops/AuditCsv.h"
#include "core/ops/AuditLog.h"
#include "core/support/JsonPage.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

namespace outbox::cli {
namespace {

int runAuditList(Context& ctx)
{
    AuditQuery query;
    if (ctx.parser.isSet(QStringLiteral("since"))) {
        auto since = parseTimeArgument(ctx.parser.value(QStringLiteral("since")), QStringLiteral("since"));
        if (!since)
            return ctx.fail(since.error());
        query.since = *since;
    }
    query.action = ctx.parser.value(QStringLiteral("action"));
    query.actor = ctx.parser.value(QStringLiteral("by"));
    auto paging = pagingFromOptions(ctx.parser);
    if (!paging)
        return ctx.fail(paging.error());
    query.limit = paging->limit;
    query.afterId = paging->afterId;
    auto entries = ctx.onDatabase([&](Database& db) { return AuditLog(db).list(query); });
    if (!entries)
        return ctx.fail(entries.error());
    if (ctx.parser.isSet(QStringLiteral("csv"))) {
        // The same cells as the console's and the web API's export (core's AuditCsv): a value that
        // starts like a spreadsheet formula arrives as text.
        QByteArray csv = query.afterId > 0 ? QByteArray() : AuditCsv::header();
        for (const AuditEntry& e : *entries)
            csv += AuditCsv::line(e.toJson());
        ctx.out << QString::fromUtf8(csv);
        ctx.out.flush();
        return Ok;
    }
    if (ctx.json())
        return ctx.printJson(QJsonObject{{QStringLiteral("entries"), rowsJson(*entries)}});
    QVector<QStringList> rows;
    for (const AuditEntry& e : *entries)
        rows << QStringList{QString::number(e.id),
                            e.at.toString(QStringLiteral("yyyy-MM-dd HH:mm:ss")),
                            e.actor + QLatin1Char('@') + e.host,
                            e.action,
                            QString::number(e.affectedCount),
                            e.outcome,
                            e.reason.left(60)};
    ctx.out << table({QStringLiteral("ID"), QStringLiteral("AT (UTC)"), QStringLiteral("ACTOR"),
                      QStringLiteral("ACTION"), QStringLiteral("COUNT"), QStringLiteral("OUTCOME"),
                      QStringLiteral("REASON")},
                     rows);
    return Ok;
}

int runAudit(Context& ctx)
{
    if (ctx.positionals.isEmpty() || ctx.positionals.first() != QLatin1String("list"))
        return ctx.usage(QStringLiteral("audit needs the sub-command list"));
    ctx.positionals.removeFirst();
    if (!ctx.positionals.isEmpty())
        return ctx.usage(QStringLiteral("audit list takes no positional arguments"));
    return runAuditList(ctx);
}

} // namespace

Command auditCommand()
{
    return {
        QStringLiteral("audit"),
        QStringLiteral("Read the audit log: list [--since T] [--action A] [--by ACTOR] [--csv]."),
        QStringLiteral("list"),
        {QCommandLineOption(QStringLiteral("since"),
                            QStringLiteral("Entries at or after (15m, 2h, 7d or ISO 8601)."),
                            QStringLiteral("time")),
         QCommandLineOption(QStringLiteral("action"), QStringLiteral("Action, e.g. events.requeue."),
                            QStringLiteral("action")),
         QCommandLineOption(QStringLiteral("by"), QStringLiteral("Actor."), QStringLiteral("name")),
         QCommandLineOption(QStringLiteral("limit"), QStringLiteral("Rows (default 50)."),
                            QStringLiteral("n")),
         QCommandLineOption(QStringLiteral("after-id"), QStringLiteral("Continue after this id."),
                            QStringLiteral("id")),
         QCommandLineOption(QStringLiteral("csv"),
                            QStringLiteral("Print CSV (header on the first page; cells never formulas)."))},
        runAudit,
        {QStringLiteral("list")}};
}

} // namespace outbox::cli
