#include "core/diagnosis/checks/UnconsumedCheck.h"

#include "core/db/Database.h"
#include "core/db/UnconsumedScope.h"
#include "core/diagnosis/DiagnosisContext.h"
#include "core/diagnosis/Runbook.h"

#include <QJsonArray>
#include <QSqlQuery>

namespace outbox {

namespace {

constexpr int MaxActionIds = 1000;
// Events just before the window that are checked too (a range of ids on the primary key).
constexpr int OlderProbe = 5000;

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
    // The OlderProbe events just before the window are checked too (a range of ids), so that an
    // event does not drop out of the finding the moment it leaves the window; anything older is
    // said not to be checked. `outboxctl reconcile --list` walks everything.
    const QString window =
        QStringLiteral("e.created_at >= %1 AND e.created_at < %2 AND e.status = 'SENT' AND e.sent_at <= %2")
            .arg(d.nowPlusMillis(QStringLiteral(":from")), d.nowPlusMillis(QStringLiteral(":age")));
    const QString before =
        QStringLiteral("e.id < :first AND e.id >= :low AND e.status = 'SENT' AND e.sent_at <= %1")
            .arg(d.nowPlusMillis(QStringLiteral(":age")));
    QVector<Finding> findings;
    for (const QString& consumer : o.consumers) {
        auto scope = UnconsumedScope::load(db, consumer);
        if (!scope)
            return scope.error();
        const SqlCondition counted = scope->condition(QStringLiteral("u"));
        SqlCondition resendable = counted;
        resendable.merge(scope->resendableCondition(QStringLiteral("u")));
        const QVariant from = -(o.unconsumedOlderThanMs + o.unconsumedWindowMs);
        const QVariant age = -o.unconsumedOlderThanMs;
        QVariantMap windowBinds = counted.binds;
        windowBinds.insert(QStringLiteral(":from"), from);
        windowBinds.insert(QStringLiteral(":age"), age);
        auto summary = db.exec(QStringLiteral("SELECT COUNT(*), MIN(e.created_at), MAX(e.created_at) FROM "
                                              "{events} e WHERE %1 AND %2")
                                   .arg(window, counted.where()),
                               windowBinds);
        if (!summary)
            return summary.error();
        qint64 inWindow = 0;
        QDateTime oldest, newest;
        if (summary->next()) {
            inWindow = summary->value(0).toLongLong();
            oldest = d.toDateTime(summary->value(1));
            newest = d.toDateTime(summary->value(2));
        }
        // The first id of the window (or past the newest event when the window is empty).
        auto first = db.scalar(
            QStringLiteral("SELECT COALESCE((SELECT MIN(e.id) FROM {events} e WHERE e.created_at >= %1), "
                           "(SELECT MAX(e.id) FROM {events} e) + 1, 1)")
                .arg(d.nowPlusMillis(QStringLiteral(":from"))),
            {{QStringLiteral(":from"), from}});
        if (!first)
            return first.error();
        QVariantMap beforeBinds = counted.binds;
        beforeBinds.insert(QStringLiteral(":first"), first->toLongLong());
        beforeBinds.insert(QStringLiteral(":low"), first->toLongLong() - OlderProbe);
        beforeBinds.insert(QStringLiteral(":age"), age);
        auto older = db.exec(QStringLiteral("SELECT COUNT(*), MIN(e.created_at), MAX(e.id) FROM {events} e "
                                            "WHERE %1 AND %2")
                                 .arg(before, counted.where()),
                             beforeBinds);
        if (!older)
            return older.error();
        qint64 beforeWindow = 0;
        if (older->next()) {
            beforeWindow = older->value(0).toLongLong();
            if (beforeWindow > 0)
                oldest = d.toDateTime(older->value(1));
        }
        // Events older than what was probed are not checked: say whether there are any.
        auto unchecked = db.scalar(QStringLiteral("SELECT COUNT(*) FROM (SELECT e.id FROM {events} e WHERE "
                                                  "e.id < :low LIMIT 1) x"),
                                   {{QStringLiteral(":low"), first->toLongLong() - OlderProbe}});
        if (!unchecked)
            return unchecked.error();
        const bool olderUnchecked = unchecked->toLongLong() > 0;
        if (inWindow + beforeWindow == 0)
            continue;

        // The first `limit` ids of the window and the probe that `selected` selects.
        const auto idsOf = [&](const SqlCondition& selected, int limit) -> Result<QVector<qint64>> {
            QVariantMap binds = selected.binds;
            binds.insert(QStringLiteral(":from"), from);
            binds.insert(QStringLiteral(":age"), age);
            binds.insert(QStringLiteral(":first"), first->toLongLong());
            binds.insert(QStringLiteral(":low"), first->toLongLong() - OlderProbe);
            binds.insert(QStringLiteral(":limit"), limit);
            auto q =
                db.exec(QStringLiteral("SELECT e.id FROM {events} e WHERE ((%1) OR (%2)) AND %3 ORDER BY "
                                       "e.id LIMIT :limit")
                            .arg(window, before, selected.where()),
                        binds);
            if (!q)
                return q.error();
            QVector<qint64> ids;
            while (q->next())
                ids << q->value(0).toLongLong();
            return ids;
        };
        // The resend: the counted events of the window and the probe that undo no decision.
        auto resendIds = idsOf(resendable, MaxActionIds);
        if (!resendIds)
            return resendIds.error();
        const QVector<qint64>& actionIds = *resendIds;
        // Samples: every counted event, resendable or not.
        auto samples = idsOf(counted, Finding::MaxSamples);
        if (!samples)
            return samples.error();
        const QVector<qint64>& sampleIds = *samples;

        Finding f;
        f.id = id();
        f.key = id() + QLatin1Char('/') + consumer;
        f.severity = Severity::Warning;
        f.evidence.count = inWindow + beforeWindow;
        f.evidence.unit = QStringLiteral("events");
        f.evidence.oldest = oldest;
        f.evidence.newest = newest.isValid() ? newest : oldest;
        f.evidence.sampleKind = QStringLiteral("event");
        f.evidence.sampleIds = sampleIds;
        f.evidence.details.insert(QStringLiteral("consumer"), consumer);
        f.evidence.details.insert(QStringLiteral("older_than_ms"), o.unconsumedOlderThanMs);
        f.evidence.details.insert(QStringLiteral("window_ms"), o.unconsumedWindowMs);
        f.evidence.details.insert(QStringLiteral("in_window"), inWindow);
        f.evidence.details.insert(QStringLiteral("before_window"), beforeWindow);
        f.evidence.details.insert(QStringLiteral("before_window_checked"), OlderProbe);
        f.evidence.details.insert(QStringLiteral("older_not_checked"), olderUnchecked);
        f.evidence.details.insert(QStringLiteral("topics"),
                                  scope->topicsKnown ? QJsonValue(QJsonArray::fromStringList(scope->topics))
                                                     : QJsonValue());
        f.evidence.details.insert(
            QStringLiteral("not_resendable"),
            f.evidence.count > MaxActionIds ? QJsonValue() : QJsonValue(f.evidence.count - actionIds.size()));
        f.title = tr("%1 event(s) SENT over %2 ago are not processed by consumer %3")
                      .arg(f.evidence.count)
                      .arg(DiagnosisContext::duration(o.unconsumedOlderThanMs), consumer);
        if (beforeWindow > 0)
            f.title += tr(" (%1 of them created before the %2 window)")
                           .arg(beforeWindow)
                           .arg(DiagnosisContext::duration(o.unconsumedWindowMs));
        if (olderUnchecked)
            f.title += tr("; events older than the window and the %1 before it not checked").arg(OlderProbe);
        f.causes << rb.cause("down").arg(consumer) << rb.cause("dead-lettered").arg(consumer);
        if (!scope->topicsKnown)
            f.causes << rb.cause("topics-unknown").arg(consumer);
        f.causes << rb.cause("topics") << rb.cause("inbox");
        f.runbook << rb.step("lag").arg(consumer) << rb.step("dead-letters").arg(consumer) << rb.step("list")
                  << rb.step("resend");
        PreparedAction list;
        list.operation = PreparedAction::Operation::RunCommand;
        list.label = tr("List every event %1 has not processed").arg(consumer);
        list.consequence =
            tr("Read-only: lists every unprocessed event, however old, a page at a time (--after-id "
               "continues).");
        if (context.prepareCommand(list,
                                   CommandLine(QStringLiteral("outboxctl"), {QStringLiteral("reconcile")})
                                       .option(QStringLiteral("consumer"), consumer)
                                       .option(QStringLiteral("older-than"),
                                               QStringLiteral("%1s").arg(o.unconsumedOlderThanMs / 1000))
                                       .flag(QStringLiteral("list"))))
            f.actions << list;
        if (!actionIds.isEmpty())
            f.actions << eventsAction(
                context, PreparedAction::Operation::RequeueEvents, actionIds, EventsFlag::Resend,
                tr("Send the %1 unprocessed event(s) again").arg(actionIds.size()),
                tr("The SENT events go back to PENDING and are produced again with their original "
                   "event_id; every consumer receives them again, and an inbox skips what it has. Events "
                   "with a dead letter of %1, or a discarded one of any consumer, are left out.")
                    .arg(consumer));
        findings << f;
    }
    return findings;
}

// Its page of docs/runbooks/ and the lines its findings take (core/diagnosis/Runbook.h).
Runbook UnconsumedCheck::runbook() const
{
    Runbook r = Runbook::page(
        "unconsumed", "Sent events were not processed by a consumer", "warning",
        "Events SENT longer ago than `[doctor] unconsumed_older_than` (looking back "
        "`unconsumed_window` before that) that a consumer of `[doctor] consumers` has not PROCESSED: the "
        "consumer is down, lagging or dead-lettering. Only events of the topics the consumer subscribes to "
        "count (`outboxctl consume` records them when it starts; not recorded: every topic), and not events "
        "whose dead letter an operator discarded or replayed. Unconsumed events just before the window are "
        "counted apart; older ones are not checked (the finding says so; `outboxctl reconcile --list` "
        "lists them all). One finding per consumer.");
    r.causes = {
        {"down",
         QT_TRANSLATE_NOOP(
             "outbox::Runbook",
             "Consumer %1 is not running, or lags far behind (its consumer group's lag shows it)."),
         "", "CONSUMER"},
        {"dead-lettered",
         QT_TRANSLATE_NOOP("outbox::Runbook",
                           "The consumer received the events and dead-lettered them (see dead-letters for "
                           "%1)."),
         "", "CONSUMER"},
        {"topics",
         QT_TRANSLATE_NOOP("outbox::Runbook",
                           "The consumer subscribes to other topics than the events were sent to.")},
        {"topics-unknown",
         QT_TRANSLATE_NOOP(
             "outbox::Runbook",
             "Consumer %1 has not recorded the topics it subscribes to (a consumer of another make, or "
             "one on RabbitMQ without [consumer] topics): events of every topic are counted."),
         "the consumer recorded no topics", "CONSUMER"},
        {"inbox", QT_TRANSLATE_NOOP("outbox::Runbook",
                                    "The consumer writes its inbox to another database than this one.")},
    };
    r.steps = {
        {"lag",
         QT_TRANSLATE_NOOP(
             "outbox::Runbook",
             "Check that consumer %1 runs and look at its consumer-group lag (kafka-consumer-groups "
             "--describe --group GROUP)."),
         "", "CONSUMER"},
        {"dead-letters",
         QT_TRANSLATE_NOOP("outbox::Runbook",
                           "Look for dead letters of %1 (outboxctl dlq list --consumer %1)."),
         "", "CONSUMER"},
        {"list",
         QT_TRANSLATE_NOOP("outbox::Runbook",
                           "List every unconsumed event, beyond this check's window (prepared below).")},
        {"resend",
         QT_TRANSLATE_NOOP(
             "outbox::Runbook",
             "If the events were lost on the way (e.g. a topic was deleted and recreated), send them "
             "again (prepared below): the consumer's inbox ignores any it already processed. Events with a "
             "dead letter of the consumer, or one an operator discarded, are never sent again: decide "
             "their dead letters instead.")},
    };
    return r;
}

} // namespace outbox
