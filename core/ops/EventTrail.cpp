#include "core/ops/EventTrail.h"

#include "core/db/Database.h"
#include "core/db/DeadLetter.h"
#include "core/db/EventStore.h"
#include "core/db/HeldClaim.h"
#include "core/ops/AuditLog.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QSqlQuery>
#include <algorithm>

namespace outbox {

namespace {

QJsonValue time(const QDateTime& t)
{
    return t.isValid() ? QJsonValue(t.toUTC().toString(Qt::ISODateWithMs)) : QJsonValue();
}

// Order of steps that share a timestamp: how an event's life runs.
int rank(const QString& kind)
{
    static const QStringList order = {
        QStringLiteral("created"),     QStringLiteral("attempts"), QStringLiteral("held"),
        QStringLiteral("last_error"),  QStringLiteral("sent"),     QStringLiteral("inbox"),
        QStringLiteral("dead_letter"), QStringLiteral("audit"),    QStringLiteral("replayed")};
    const int i = order.indexOf(kind);
    return i < 0 ? int(order.size()) : i;
}

TrailStep step(const QDateTime& at, const QString& kind, const QString& summary, QJsonObject details = {})
{
    return TrailStep{at.toUTC(), kind, summary, std::move(details)};
}

TrailStep auditStep(const AuditEntry& a, const QString& target)
{
    QString summary = QStringLiteral("%1 by %2%3 (%4): \"%5\"")
                          .arg(a.action, a.actor, a.host.isEmpty() ? QString() : QStringLiteral("@") + a.host,
                               target, a.reason);
    if (a.outcome != QLatin1String("ok"))
        summary += QStringLiteral(", outcome %1").arg(a.outcome);
    return step(a.at, QStringLiteral("audit"), summary, a.toJson());
}

} // namespace

QJsonObject TrailStep::toJson() const
{
    return QJsonObject{{QStringLiteral("at"), time(at)},
                       {QStringLiteral("kind"), kind},
                       {QStringLiteral("summary"), summary},
                       {QStringLiteral("details"), details}};
}

QJsonObject EventTrail::toJson() const
{
    QJsonArray list;
    for (const TrailStep& s : steps)
        list.append(s.toJson());
    return QJsonObject{{QStringLiteral("event"), event.toJson()}, {QStringLiteral("steps"), list}};
}

Result<EventTrail> EventTrail::build(Database& db, const QString& idOrEventId)
{
    const Dialect& d = db.dialect();
    Transaction tx(db);
    if (Status s = tx.beginRead(); !s)
        return s.error();
    auto found = EventStore(db).find(idOrEventId);
    if (!found)
        return found.error();
    EventTrail trail;
    trail.event = *found;
    const OutboxEvent& e = trail.event;
    QVector<TrailStep>& steps = trail.steps;

    // The W3C trace the writer started (docs/contract.md, "Trace context"): the relay sends the
    // header on, consumers record it in their inbox rows.
    const QJsonValue traceHeader =
        QJsonDocument::fromJson(e.headers).object().value(QStringLiteral("traceparent"));
    const QString traceparent = traceHeader.isString() ? traceHeader.toString() : QString();
    steps << step(
        e.createdAt, QStringLiteral("created"),
        QStringLiteral("%1 of %2/%3%4%5")
            .arg(e.eventType, e.aggregateType, e.aggregateId,
                 e.topic.isEmpty() ? QString() : QStringLiteral(" for topic %1").arg(e.topic),
                 traceparent.isEmpty() ? QString() : QStringLiteral(", traceparent %1").arg(traceparent)),
        QJsonObject{{QStringLiteral("event_type"), e.eventType},
                    {QStringLiteral("aggregate_type"), e.aggregateType},
                    {QStringLiteral("aggregate_id"), e.aggregateId},
                    {QStringLiteral("traceparent"), traceparent.isEmpty() ? QJsonValue() : traceparent}});

    // Claims: the row keeps the count, the current or last lease holder and the last error; the
    // time of each attempt is not recorded. The step stands where the last attempt is known to
    // have ended (sent, lease, retry time), else right after creation.
    if (e.attempts > 0) {
        QDateTime at = e.sentAt.isValid()            ? e.sentAt
                       : e.leaseUntil.isValid()      ? e.leaseUntil
                       : e.availableAt > e.createdAt ? e.availableAt
                                                     : e.createdAt;
        QString summary = QStringLiteral("claimed %1 time(s)").arg(e.attempts);
        // A lease without an end is no lease: the relay let go of the row (sent, failed, released).
        if (!e.workerId.isEmpty() && e.leaseUntil.isValid())
            summary += QStringLiteral(", lease held by %1 until %2")
                           .arg(e.workerId, e.leaseUntil.toUTC().toString(Qt::ISODateWithMs));
        else if (!e.workerId.isEmpty())
            summary += QStringLiteral(", last claimed by %1 (no lease held now)").arg(e.workerId);
        summary += QStringLiteral("; status now %1").arg(e.status);
        steps << step(
            at, QStringLiteral("attempts"), summary,
            QJsonObject{{QStringLiteral("attempts"), e.attempts},
                        {QStringLiteral("status"), e.status},
                        {QStringLiteral("worker_id"), e.workerId.isEmpty() ? QJsonValue() : e.workerId},
                        {QStringLiteral("lease_until"), time(e.leaseUntil)},
                        {QStringLiteral("available_at"), time(e.availableAt)},
                        {QStringLiteral("per_attempt_times_recorded"), false}});
        if (!e.lastError.isEmpty())
            steps << step(
                at, QStringLiteral("last_error"),
                QStringLiteral("last error (%1): %2")
                    .arg(e.lastErrorClass.isEmpty() ? QStringLiteral("unclassified") : e.lastErrorClass,
                         e.lastError),
                QJsonObject{{QStringLiteral("error"), e.lastError},
                            {QStringLiteral("error_class"), e.lastErrorClass}});
    }
    // A held claim (relay.claim_mode = held) leaves the row PENDING under a row lock while its relay
    // sends it: the journal says who holds it and since when, so the trail does not read "waiting".
    if (e.status == QLatin1String("PENDING")) {
        auto holder = HeldClaim::holderOf(db, e.id);
        if (!holder)
            return holder.error();
        if (*holder) {
            const HeldClaim::Holder& h = **holder;
            steps << step(h.since.isValid() ? h.since : e.createdAt, QStringLiteral("held"),
                          QStringLiteral("held by relay %1 since %2, being sent now (held until %3; a relay "
                                         "that dies lets go at once and the attempt is counted after that)")
                              .arg(h.workerId,
                                   h.since.isValid() ? h.since.toUTC().toString(Qt::ISODateWithMs)
                                                     : QStringLiteral("an unrecorded time"),
                                   h.until.toUTC().toString(Qt::ISODateWithMs)),
                          QJsonObject{{QStringLiteral("worker_id"), h.workerId},
                                      {QStringLiteral("held_since"), time(h.since)},
                                      {QStringLiteral("held_until"), time(h.until)}});
        }
    }
    if (e.sentAt.isValid()) {
        const QString topic = e.sentTopic.isEmpty() ? e.topic : e.sentTopic;
        steps << step(e.sentAt, QStringLiteral("sent"),
                      QStringLiteral("sent to %1 partition %2 offset %3")
                          .arg(topic.isEmpty() ? QStringLiteral("(topic not recorded)") : topic)
                          .arg(e.brokerPartition ? QString::number(*e.brokerPartition) : QStringLiteral("?"))
                          .arg(e.brokerOffset ? QString::number(*e.brokerOffset) : QStringLiteral("?")),
                      QJsonObject{{QStringLiteral("topic"), topic.isEmpty() ? QJsonValue() : topic},
                                  {QStringLiteral("partition"),
                                   e.brokerPartition ? QJsonValue(*e.brokerPartition) : QJsonValue()},
                                  {QStringLiteral("offset"),
                                   e.brokerOffset ? QJsonValue(double(*e.brokerOffset)) : QJsonValue()}});
    }

    AuditLog audit(db);
    AuditQuery aq;
    aq.targetKind = QStringLiteral("event");
    aq.targetId = e.id;
    aq.limit = MaxSteps;
    auto eventAudit = audit.list(aq);
    if (!eventAudit)
        return eventAudit.error();
    for (const AuditEntry& a : *eventAudit)
        steps << auditStep(a, QStringLiteral("event %1").arg(e.id));

    auto inbox = db.exec(QStringLiteral("SELECT consumer_name, status, attempts, processed_at, last_error, "
                                        "created_at, traceparent FROM {inbox} WHERE event_id = :event_id "
                                        "ORDER BY id LIMIT :limit"),
                         {{QStringLiteral(":event_id"), e.eventId}, {QStringLiteral(":limit"), MaxSteps}});
    if (!inbox)
        return inbox.error();
    while (inbox->next()) {
        const QString consumer = inbox->value(0).toString();
        const QString status = inbox->value(1).toString();
        const int attempts = inbox->value(2).toInt();
        const QDateTime processedAt = d.toDateTime(inbox->value(3));
        const QString error = inbox->value(4).toString();
        const QDateTime createdAt = d.toDateTime(inbox->value(5));
        const QString inboxTrace = inbox->value(6).toString();
        QString summary =
            QStringLiteral("consumer %1: %2 (%3 attempt(s))").arg(consumer, status).arg(attempts);
        if (!inboxTrace.isEmpty())
            summary += QStringLiteral(", traceparent %1").arg(inboxTrace);
        if (!error.isEmpty())
            summary += QStringLiteral(": %1").arg(error);
        steps << step(
            processedAt.isValid() ? processedAt : createdAt, QStringLiteral("inbox"), summary,
            QJsonObject{{QStringLiteral("consumer"), consumer},
                        {QStringLiteral("status"), status},
                        {QStringLiteral("attempts"), attempts},
                        {QStringLiteral("processed_at"), time(processedAt)},
                        {QStringLiteral("first_seen_at"), time(createdAt)},
                        {QStringLiteral("last_error"), error.isEmpty() ? QJsonValue() : error},
                        {QStringLiteral("traceparent"), inboxTrace.isEmpty() ? QJsonValue() : inboxTrace}});
    }

    auto letters =
        db.exec(QStringLiteral("SELECT %1 FROM {dead_letters} WHERE event_id = :event_id ORDER BY id "
                               "LIMIT :limit")
                    .arg(DeadLetter::columns()),
                {{QStringLiteral(":event_id"), DeadLetter::storableEventId(e.eventId)},
                 {QStringLiteral(":limit"), MaxSteps}});
    if (!letters)
        return letters.error();
    QVector<DeadLetter> deadLetters;
    while (letters->next())
        deadLetters << DeadLetter::fromQuery(*letters, d);
    for (const DeadLetter& l : deadLetters) {
        steps << step(l.firstFailedAt, QStringLiteral("dead_letter"),
                      QStringLiteral("dead letter %1 by consumer %2 from %3 partition %4 offset %5 after %6 "
                                     "attempt(s): %7")
                          .arg(l.id)
                          .arg(l.consumerName, l.topic,
                               l.sourcePartition ? QString::number(*l.sourcePartition) : QStringLiteral("?"),
                               l.sourceOffset ? QString::number(*l.sourceOffset) : QStringLiteral("?"))
                          .arg(l.attempts)
                          .arg(l.error),
                      QJsonObject{{QStringLiteral("dead_letter_id"), double(l.id)},
                                  {QStringLiteral("consumer"), l.consumerName},
                                  {QStringLiteral("topic"), l.topic},
                                  {QStringLiteral("error"), l.error},
                                  {QStringLiteral("status"), l.status},
                                  {QStringLiteral("last_failed_at"), time(l.lastFailedAt)}});
        if (l.replayedAt.isValid())
            steps << step(
                l.replayedAt, QStringLiteral("replayed"),
                QStringLiteral("dead letter %1 replayed to %2 (%3 replay(s)%4)")
                    .arg(l.id)
                    .arg(l.replayTopic.isEmpty() ? l.topic : l.replayTopic)
                    .arg(l.replayCount)
                    .arg(l.replayedBy.isEmpty() ? QString() : QStringLiteral(", by %1").arg(l.replayedBy)),
                QJsonObject{{QStringLiteral("dead_letter_id"), double(l.id)},
                            {QStringLiteral("topic"), l.replayTopic.isEmpty() ? l.topic : l.replayTopic},
                            {QStringLiteral("replay_count"), l.replayCount},
                            {QStringLiteral("status"), l.status}});
        AuditQuery dq;
        dq.targetKind = QStringLiteral("dead_letter");
        dq.targetId = l.id;
        dq.limit = MaxSteps;
        auto dlAudit = audit.list(dq);
        if (!dlAudit)
            return dlAudit.error();
        for (const AuditEntry& a : *dlAudit)
            steps << auditStep(a, QStringLiteral("dead letter %1").arg(l.id));
    }
    (void)tx.commit();

    std::stable_sort(steps.begin(), steps.end(), [](const TrailStep& a, const TrailStep& b) {
        if (a.at != b.at)
            return a.at < b.at;
        return rank(a.kind) < rank(b.kind);
    });
    return trail;
}

} // namespace outbox
