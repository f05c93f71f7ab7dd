#include "core/diagnosis/FailureGroupFinding.h"

#include "core/db/Database.h"
#include "core/db/JsonShape.h"
#include "core/db/SqlCondition.h"
#include "core/diagnosis/DiagnosisContext.h"
#include "core/diagnosis/FailureAdvice.h"
#include "core/support/TextClip.h"

#include <QLocale>
#include <QSqlQuery>

namespace outbox {

PreparedAction FailureGroupFinding::action(DiagnosisContext& context, PreparedAction::Operation operation,
                                           const QString& status, const EventErrorGroup& group)
{
    const bool requeue = operation == PreparedAction::Operation::RequeueEvents;
    PreparedAction a;
    a.operation = operation;
    a.typedConfirmation = group.count > 1;
    a.label = requeue ? tr("Requeue the %1 %2 event(s) of this group").arg(group.count).arg(status)
                      : tr("Mark the %1 %2 event(s) of this group DEAD").arg(group.count).arg(status);
    a.consequence =
        requeue ? tr("They go back to PENDING with their attempts reset, and a relay sends them again "
                     "in id order.")
                : tr("They become DEAD: never sent, kept in the table for the audit trail.");
    CommandLine command(QStringLiteral("outboxctl"),
                        {requeue ? QStringLiteral("requeue") : QStringLiteral("dead")});
    if (group.count <= group.sampleIds.size()) {
        // All its ids are known: exactly these events.
        a.ids = group.sampleIds;
        for (qint64 id : group.sampleIds)
            command.positional(QString::number(id));
    } else {
        // The failure group itself (error class and fingerprint) in this status, as the console and
        // the bulk engine know it: never a substring of the error text, which can match another
        // group ("unknown SKU SKU-" also matches "unknown SKU sku-27" where LIKE ignores case).
        FailureGroup target;
        target.errorClass = group.errorClass;
        target.fingerprint = group.fingerprint;
        target.count = group.count;
        target.statuses = QStringList{status};
        a.group = target;
        command.option(QStringLiteral("status"), status).option(QStringLiteral("group"), group.fingerprint);
        if (!group.errorClass.isEmpty())
            command.option(QStringLiteral("group-class"), group.errorClass);
    }
    context.prepareCommand(a, command);
    return a;
}

Finding FailureGroupFinding::make(DiagnosisContext& context, const QString& checkId, const QString& status,
                                  const EventErrorGroup& group, Severity severity)
{
    const bool dead = status == QLatin1String("DEAD");
    const FailureAdvice advice = FailureAdvice::forEvents(group.errorClass, group.example, dead);
    Finding f;
    f.id = checkId;
    f.key = checkId + QLatin1Char('/') + group.errorClass + QLatin1Char('/') + group.fingerprint;
    f.severity = severity;
    const QString error =
        group.fingerprint.isEmpty() ? tr("no error text") : clipAtWord(group.fingerprint, 100);
    f.title = tr("%1 %2 event(s): %3").arg(group.count).arg(status, error);
    f.evidence.count = group.count;
    f.evidence.unit = QStringLiteral("events");
    f.evidence.oldest = group.oldest;
    f.evidence.newest = group.newest;
    f.evidence.sampleKind = QStringLiteral("event");
    f.evidence.sampleIds = group.sampleIds;
    f.evidence.details.insert(QStringLiteral("status"), status);
    f.evidence.details.insert(QStringLiteral("error_class"), group.errorClass);
    f.evidence.details.insert(QStringLiteral("fingerprint"), group.fingerprint);
    f.evidence.details.insert(QStringLiteral("example"), group.example);
    f.evidence.details.insert(QStringLiteral("cause"), advice.name);
    f.causes = advice.causes;
    f.runbook = advice.runbook;
    // The payload sizes of the samples (a few rows by primary key): the too-large runbook says to
    // look at them, so the evidence shows them (issue 25 item 8).
    if (!group.sampleIds.isEmpty()) {
        Database& db = context.db();
        QVariantList ids;
        for (qint64 id : group.sampleIds)
            ids << id;
        SqlCondition c;
        c.addIn(QStringLiteral("id"), QStringLiteral("s"), ids);
        auto sizes = db.exec(QStringLiteral("SELECT MIN(%1), MAX(%1) FROM {events} WHERE %2")
                                 .arg(JsonShape::payloadBytes(db.kind()), c.where()),
                             c.binds);
        if (sizes && sizes->next() && !sizes->value(1).isNull()) {
            const qint64 smallest = sizes->value(0).toLongLong();
            const qint64 largest = sizes->value(1).toLongLong();
            f.evidence.details.insert(QStringLiteral("payload_bytes_min"), smallest);
            f.evidence.details.insert(QStringLiteral("payload_bytes_max"), largest);
            const QString sizeText =
                smallest == largest
                    ? tr("The sample events' payloads are %1 bytes.").arg(QLocale::c().toString(largest))
                    : tr("The sample events' payloads are %1 to %2 bytes.")
                          .arg(QLocale::c().toString(smallest), QLocale::c().toString(largest));
            f.evidence.details.insert(QStringLiteral("payload"), sizeText);
            if (advice.name == QLatin1String("message-too-large"))
                f.runbook.prepend(sizeText);
        }
    }
    const PreparedAction requeue = action(context, PreparedAction::Operation::RequeueEvents, status, group);
    if (dead) {
        f.actions << requeue;
    } else {
        const PreparedAction markDead =
            action(context, PreparedAction::Operation::MarkEventsDead, status, group);
        if (advice.deadFirst)
            f.actions << markDead << requeue;
        else
            f.actions << requeue << markDead;
    }
    return f;
}

} // namespace outbox
