#include "app/outboxctl/commands/Dlq.h"
#include "core/db/DeadLetterGroups.h"
#include "core/db/EventStatus.h"
#include "core/support/JsonPage.h"

#include <QJsonArray>
#include <QJsonObject>

namespace outbox::cli {

namespace {

int runDlqGroups(Context& ctx)
{
    QStringList statuses;
    for (const QString& value : ctx.parser.values(QStringLiteral("status")))
        statuses << value.split(QLatin1Char(','), Qt::SkipEmptyParts);
    auto groups = ctx.onDatabase([&](Database& db) { return DeadLetterGroups(db).list(statuses); });
    if (!groups)
        return ctx.fail(groups.error());
    const QString consumer = ctx.parser.value(QStringLiteral("consumer"));
    QVector<DeadLetterGroup> shown;
    for (const DeadLetterGroup& g : *groups)
        if (consumer.isEmpty() || g.consumerName == consumer)
            shown << g;
    if (ctx.json())
        return ctx.printJson(QJsonObject{{QStringLiteral("groups"), rowsJson(shown)}});
    if (shown.isEmpty()) {
        ctx.out << "no dead-letter groups\n";
        return Ok;
    }
    QVector<QStringList> rows;
    for (const DeadLetterGroup& g : shown)
        rows << QStringList{QString::number(g.count), g.consumerName, g.errorClass, g.fingerprint.left(70),
                            QStringLiteral("#%1").arg(g.firstId)};
    ctx.out << table({QStringLiteral("COUNT"), QStringLiteral("CONSUMER"), QStringLiteral("CLASS"),
                      QStringLiteral("FINGERPRINT"), QStringLiteral("FIRST")},
                     rows);
    ctx.out << "act on a group: outboxctl dlq replay|discard --consumer NAME --group-class CLASS --group "
               "FINGERPRINT --reason TEXT\n";
    return Ok;
}

} // namespace

Subcommand dlqGroups()
{
    return {QStringLiteral("groups"), {}, withoutPositionals(QStringLiteral("dlq groups"), runDlqGroups)};
}

} // namespace outbox::cli
