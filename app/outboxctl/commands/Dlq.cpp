#include "app/outboxctl/commands/Dlq.h"

#include "app/outboxctl/BulkAction.h"
#include "app/outboxctl/Filters.h"
#include "app/outboxctl/commands/Commands.h"
#include "core/db/DeadLetterGroups.h"
#include "core/db/EventStatus.h"

namespace outbox::cli {

namespace {

QList<Subcommand> subcommands()
{
    return {dlqList(), dlqShow(), dlqGroups(), dlqEdit(), dlqEditGroup(), dlqReplay(), dlqDiscard()};
}

int runDlq(Context& ctx)
{
    return runSubcommand(ctx, QStringLiteral("dlq"), subcommands());
}

} // namespace

int runDlqAction(Context& ctx, ActionKind kind, const std::function<int(const ActionResult&)>& then)
{
    auto request = baseRequest(ctx);
    if (!request)
        return ctx.fail(request.error());
    if (ctx.parser.isSet(QStringLiteral("group")) || ctx.parser.isSet(QStringLiteral("group-class"))) {
        // A dead-letter failure group as `dlq groups` lists it: consumer, error class, fingerprint.
        for (const char* other : {"topic", "event-id", "error"})
            if (ctx.parser.isSet(QLatin1String(other)))
                return ctx.usage(
                    QStringLiteral("--group takes --consumer, --group-class and --status, not --%1")
                        .arg(QLatin1String(other)));
        DeadLetterGroup group;
        group.fingerprint = ctx.parser.value(QStringLiteral("group"));
        group.errorClass = ctx.parser.value(QStringLiteral("group-class"));
        group.consumerName = ctx.parser.value(QStringLiteral("consumer"));
        if (group.consumerName.isEmpty() || group.errorClass.isEmpty())
            return ctx.usage(
                QStringLiteral("a dead-letter group needs --consumer NAME, --group-class CLASS and "
                               "--group FINGERPRINT (as `outboxctl dlq groups` lists them)"));
        for (const QString& value : ctx.parser.values(QStringLiteral("status")))
            for (const QString& status : value.split(QLatin1Char(','), Qt::SkipEmptyParts)) {
                auto parsed = DeadLetterStatus::parse(status);
                if (!parsed)
                    return ctx.fail(parsed.error());
                group.statuses << *parsed;
            }
        request->deadLetterGroup = group;
    } else if (anySet(ctx.parser, deadLetterFilterOptions())) {
        auto filter = deadLetterFilterFromOptions(ctx.parser);
        if (!filter)
            return ctx.fail(filter.error());
        request->deadLetterFilter = *filter;
    }
    request->force = ctx.parser.isSet(QStringLiteral("force"));
    request->replayTopic = ctx.parser.value(QStringLiteral("to-topic"));
    return runAction(ctx, *request, kind, QStringLiteral("dead letter(s)"), then);
}

Command dlqCommand()
{
    // The options every sub-command may meet; each sub-command adds its own (DlqList.cpp, …).
    QList<QCommandLineOption> options = deadLetterFilterOptions() + actionOptions();
    options << QCommandLineOption(
                   QStringLiteral("group"),
                   QStringLiteral("replay/discard/edit-group: every dead letter of the failure group with "
                                  "this fingerprint (with --consumer and --group-class, as "
                                  "`dlq groups` lists them)."),
                   QStringLiteral("fingerprint"))
            << QCommandLineOption(QStringLiteral("group-class"),
                                  QStringLiteral("replay/discard: the group's error class (retries_exhausted "
                                                 "or permanent)."),
                                  QStringLiteral("class"));
    for (const Subcommand& sub : subcommands())
        options << sub.options;
    return {
        QStringLiteral("dlq"),
        QStringLiteral("Dead letters: list | show ID | groups | edit ID | edit-group | replay | discard."),
        QStringLiteral("list|show|groups|edit|edit-group|replay|discard [IDS...]"),
        options,
        runDlq,
        subcommandNames(subcommands()),
        {QStringLiteral("broker.url"), QStringLiteral("kafka.bootstrap"), QStringLiteral("-X"),
         QStringLiteral("amqp.*")}};
}

} // namespace outbox::cli
