#include "core/diagnosis/checks/UnconsumedCheck.h"

#include "core/db/Database.h"
#include "core/diagnosis/DiagnosisContext.h"
#include "core/diagnosis/Runbook.h"

#include <QSqlQuery>

namespace outbox {

namespace {

constexpr int MaxActionIds = 1000;

} // namespace

QString UnconsumedCheck::notApplicable(DiagnosisContext& context) const
{
    return context.options().consumers.isEmpty() ? tr("no consumer configured ([doctor] consumers)")
                                                 : QString();
}

Result<QVector<Finding>> UnconsumedCheck::run(DiagnosisContext& context)
{
    const Runbook& rb = Runbook::of(id());
    Database& db = context.db();
    const Dialect& d = db.dialect();
    const DiagnosisOptions& o = context.options();
    // Only a window of events (created within unconsumed_window before the age limit) is looked at:
    // a range on the created_at index plus one inbox lookup per SENT row, cheap on any table size.
    // `outboxctl reconcile` walks everything.
    const QString condition =
        QStringLiteral(
            "e.created_at >= %1 AND e.created_at < %2 AND e.status = 'SENT' AND e.sent_at <= %2 AND NOT "
            "EXISTS (SELECT 1 FROM {inbox} i WHERE i.event_id = e.event_id AND i.consumer_name = "
            ":consumer AND i.status = 'PROCESSED')")
            .arg(d.nowPlusMillis(QStringLiteral(":from")), d.nowPlusMillis(QStringLiteral(":age")));
    QVector<Finding> findings;
    for (const QString& consumer : o.consumers) {
        QVariantMap binds{{QStringLiteral(":from"), -(o.unconsumedOlderThanMs + o.unconsumedWindowMs)},
                          {QStringLiteral(":age"), -o.unconsumedOlderThanMs},
                          {QStringLiteral(":consumer"), consumer}};
        auto summary = db.exec(
            QStringLiteral("SELECT COUNT(*), MIN(e.created_at), MAX(e.created_at) FROM {events} e WHERE %1")
                .arg(condition),
            binds);
        if (!summary)
            return summary.error();
        if (!summary->next() || summary->value(0).toLongLong() == 0)
            continue;
        Finding f;
        f.id = id();
        f.key = id() + QLatin1Char('/') + consumer;
        f.severity = Severity::Warning;
        f.evidence.count = summary->value(0).toLongLong();
        f.evidence.unit = QStringLiteral("events");
        f.evidence.oldest = d.toDateTime(summary->value(1));
        f.evidence.newest = d.toDateTime(summary->value(2));
        f.evidence.sampleKind = QStringLiteral("event");
        binds.insert(QStringLiteral(":limit"), MaxActionIds);
        auto ids = db.exec(
            QStringLiteral("SELECT e.id FROM {events} e WHERE %1 ORDER BY e.id LIMIT :limit").arg(condition),
            binds);
        if (!ids)
            return ids.error();
        QVector<qint64> actionIds;
        while (ids->next())
            actionIds << ids->value(0).toLongLong();
        f.evidence.sampleIds = actionIds.mid(0, Finding::MaxSamples);
        f.evidence.details.insert(QStringLiteral("consumer"), consumer);
        f.evidence.details.insert(QStringLiteral("older_than_ms"), o.unconsumedOlderThanMs);
        f.evidence.details.insert(QStringLiteral("window_ms"), o.unconsumedWindowMs);
        f.title = tr("%1 event(s) SENT over %2 ago are not processed by consumer %3")
                      .arg(f.evidence.count)
                      .arg(DiagnosisContext::duration(o.unconsumedOlderThanMs), consumer);
        f.causes << rb.cause("down").arg(consumer) << rb.cause("dead-lettered").arg(consumer)
                 << rb.cause("topics") << rb.cause("inbox");
        f.runbook << rb.step("lag").arg(consumer) << rb.step("dead-letters").arg(consumer) << rb.step("list")
                  << rb.step("resend");
        PreparedAction list;
        list.operation = PreparedAction::Operation::RunCommand;
        list.label = tr("List every event %1 has not processed").arg(consumer);
        list.consequence = tr("Read-only: prints the count and a sample.");
        if (context.prepareCommand(list,
                                   CommandLine(QStringLiteral("outboxctl"), {QStringLiteral("reconcile")})
                                       .option(QStringLiteral("consumer"), consumer)
                                       .option(QStringLiteral("older-than"),
                                               QStringLiteral("%1s").arg(o.unconsumedOlderThanMs / 1000))))
            f.actions << list;
        PreparedAction resend;
        resend.operation = PreparedAction::Operation::RequeueEvents;
        resend.resend = true;
        resend.ids = actionIds;
        resend.typedConfirmation = true;
        resend.label = tr("Send the %1 unprocessed event(s) again").arg(actionIds.size());
        resend.consequence =
            tr("The SENT events go back to PENDING and are produced again with their original "
               "event_id; every consumer receives them again, and an inbox skips what it has.");
        CommandLine command(QStringLiteral("outboxctl"), {QStringLiteral("requeue")});
        command.flag(QStringLiteral("resend"));
        for (qint64 eventId : actionIds)
            command.positional(QString::number(eventId));
        context.prepareCommand(resend, command);
        f.actions << resend;
        findings << f;
    }
    return findings;
}

} // namespace outbox
