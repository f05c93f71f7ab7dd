#include "core/ops/EventTrail.h"

#include "core/db/Database.h"
#include "core/db/DeadLetter.h"
#include "core/db/EventStore.h"
#include "core/db/HeldClaim.h"
#include "core/ops/AuditLog.h"
#include "core/support/JsonPage.h"

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

using Phrase = TrailStep::Phrase;

constexpr char Context[] = "outbox::EventTrail";

// The phrase with its arguments substituted in one pass (an argument holding "%1" stays as it is);
// with `translated` the source and its terms in the user's language.
QString render(const Phrase& p, bool translated)
{
    const QString source =
        translated ? QCoreApplication::translate(Context, p.source) : QString::fromUtf8(p.source);
    QString out;
    out.reserve(source.size() + 64);
    for (qsizetype i = 0; i < source.size(); ++i) {
        const QChar c = source.at(i);
        const int n = i + 1 < source.size() ? source.at(i + 1).digitValue() : -1;
        if (c == QLatin1Char('%') && n >= 1 && n <= p.args.size()) {
            const QString& arg = p.args.at(n - 1);
            out += translated && p.terms.contains(n - 1)
                       ? QCoreApplication::translate(Context, arg.toUtf8().constData())
                       : arg;
            ++i;
            continue;
        }
        out += c;
    }
    return out;
}

QString render(const QVector<Phrase>& phrases, bool translated)
{
    QString out;
    for (const Phrase& p : phrases)
        out += render(p, translated);
    return out;
}

// An error class the catalogue has a word for is a term (translated in the console); another
// class is the relay's own text.
Phrase lastError(const QString& errorClass, const QString& error)
{
    static const char* const known[] = {
        QT_TRANSLATE_NOOP("outbox::EventTrail", "unclassified"),
        QT_TRANSLATE_NOOP("outbox::EventTrail", "transient"),
        QT_TRANSLATE_NOOP("outbox::EventTrail", "deterministic"),
        QT_TRANSLATE_NOOP("outbox::EventTrail", "unknown_outcome"),
        QT_TRANSLATE_NOOP("outbox::EventTrail", "connection"),
    };
    const QString cls = errorClass.isEmpty() ? QStringLiteral("unclassified") : errorClass;
    Phrase p{QT_TRANSLATE_NOOP("outbox::EventTrail", "last error (%1): %2"), {cls, error}, {}};
    for (const char* word : known)
        if (cls == QLatin1String(word))
            p.terms << 0;
    return p;
}

TrailStep step(const QDateTime& at, const QString& kind, QVector<Phrase> phrases, QJsonObject details = {})
{
    TrailStep s{at.toUTC(), kind, render(phrases, false), std::move(details), {}};
    s.phrases = std::move(phrases);
    return s;
}

// "events.requeue by alice@host (event 12): \"reason\"": `target` says which row it was.
TrailStep auditStep(const AuditEntry& a, const Phrase& target)
{
    QVector<Phrase> phrases{{QT_TRANSLATE_NOOP("outbox::EventTrail", "%1 by %2"), {a.action, a.actor}, {}}};
    if (!a.host.isEmpty())
        phrases << Phrase{QT_TRANSLATE_NOOP("outbox::EventTrail", "@%1"), {a.host}, {}};
    phrases << target << Phrase{QT_TRANSLATE_NOOP("outbox::EventTrail", ": \"%1\""), {a.reason}, {}};
    if (a.outcome != QLatin1String("ok"))
        phrases << Phrase{QT_TRANSLATE_NOOP("outbox::EventTrail", ", outcome %1"), {a.outcome}, {}};
    return step(a.at, QStringLiteral("audit"), phrases, a.toJson());
}

// The writer's row: created, then the claims and the last error the row keeps.
// The audit log's entries on one target (the event, one of its dead letters): a step each, its
// summary ending with `target`.
Status auditSteps(AuditLog& audit, const QString& targetKind, qint64 targetId, const Phrase& target,
                  QVector<TrailStep>& steps)
{
    AuditQuery query;
    query.targetKind = targetKind;
    query.targetId = targetId;
    query.limit = EventTrail::MaxSteps;
    auto entries = audit.list(query);
    if (!entries)
        return entries.error();
    for (const AuditEntry& a : *entries)
        steps << auditStep(a, target);
    return {};
}

void rowSteps(const OutboxEvent& e, QVector<TrailStep>& steps)
{
    // The W3C trace the writer started (docs/contract.md, "Trace context"): the relay sends the
    // header on, consumers record it in their inbox rows.
    const QJsonValue traceHeader =
        QJsonDocument::fromJson(e.headers).object().value(QStringLiteral("traceparent"));
    const QString traceparent = traceHeader.isString() ? traceHeader.toString() : QString();
    QVector<Phrase> created{{QT_TRANSLATE_NOOP("outbox::EventTrail", "%1 of %2/%3"),
                             {e.eventType, e.aggregateType, e.aggregateId},
                             {}}};
    if (!e.topic.isEmpty())
        created << Phrase{QT_TRANSLATE_NOOP("outbox::EventTrail", " for topic %1"), {e.topic}, {}};
    if (!traceparent.isEmpty())
        created << Phrase{QT_TRANSLATE_NOOP("outbox::EventTrail", ", traceparent %1"), {traceparent}, {}};
    steps << step(
        e.createdAt, QStringLiteral("created"), created,
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
        QVector<Phrase> claims{{QT_TRANSLATE_NOOP("outbox::EventTrail", "claimed %1 time(s)"),
                                {QString::number(e.attempts)},
                                {}}};
        // A lease without an end is no lease: the relay let go of the row (sent, failed, released).
        if (!e.workerId.isEmpty() && e.leaseUntil.isValid())
            claims << Phrase{QT_TRANSLATE_NOOP("outbox::EventTrail", ", lease held by %1 until %2"),
                             {e.workerId, e.leaseUntil.toUTC().toString(Qt::ISODateWithMs)},
                             {}};
        else if (!e.workerId.isEmpty())
            claims << Phrase{
                QT_TRANSLATE_NOOP("outbox::EventTrail", ", last claimed by %1 (no lease held now)"),
                {e.workerId},
                {}};
        claims << Phrase{QT_TRANSLATE_NOOP("outbox::EventTrail", "; status now %1"), {e.status}, {}};
        steps << step(
            at, QStringLiteral("attempts"), claims,
            QJsonObject{{QStringLiteral("attempts"), e.attempts},
                        {QStringLiteral("status"), e.status},
                        {QStringLiteral("worker_id"), e.workerId.isEmpty() ? QJsonValue() : e.workerId},
                        {QStringLiteral("lease_until"), time(e.leaseUntil)},
                        {QStringLiteral("available_at"), time(e.availableAt)},
                        {QStringLiteral("per_attempt_times_recorded"), false}});
        if (!e.lastError.isEmpty())
            steps << step(at, QStringLiteral("last_error"), {lastError(e.lastErrorClass, e.lastError)},
                          QJsonObject{{QStringLiteral("error"), e.lastError},
                                      {QStringLiteral("error_class"), e.lastErrorClass}});
    }
}

// A held claim of the row, from the held-claims journal.
Status heldStep(Database& db, const OutboxEvent& e, QVector<TrailStep>& steps)
{
    // A held claim (relay.claim_mode = held) leaves the row PENDING under a row lock while its relay
    // sends it: the journal says who holds it and since when, so the trail does not read "waiting".
    if (e.status == QLatin1String("PENDING")) {
        auto holder = HeldClaim::holderOf(db, e.id);
        if (!holder)
            return holder.error();
        if (*holder) {
            const HeldClaim::Holder& h = **holder;
            Phrase held{QT_TRANSLATE_NOOP("outbox::EventTrail",
                                          "held by relay %1 since %2, being sent now (held until %3; a "
                                          "relay that dies lets go at once and the attempt is counted after "
                                          "that)"),
                        {h.workerId,
                         h.since.isValid() ? h.since.toUTC().toString(Qt::ISODateWithMs)
                                           : QString::fromLatin1(QT_TRANSLATE_NOOP("outbox::EventTrail",
                                                                                   "an unrecorded time")),
                         h.until.toUTC().toString(Qt::ISODateWithMs)},
                        {}};
            if (!h.since.isValid())
                held.terms << 1;
            steps << step(h.since.isValid() ? h.since : e.createdAt, QStringLiteral("held"), {held},
                          QJsonObject{{QStringLiteral("worker_id"), h.workerId},
                                      {QStringLiteral("held_since"), time(h.since)},
                                      {QStringLiteral("held_until"), time(h.until)}});
        }
    }
    return {};
}

void sentStep(const OutboxEvent& e, QVector<TrailStep>& steps)
{
    if (e.sentAt.isValid()) {
        const QString topic = e.sentTopic.isEmpty() ? e.topic : e.sentTopic;
        Phrase sent{QT_TRANSLATE_NOOP("outbox::EventTrail", "sent to %1 partition %2 offset %3"),
                    {topic.isEmpty() ? QString::fromLatin1(
                                           QT_TRANSLATE_NOOP("outbox::EventTrail", "(topic not recorded)"))
                                     : topic,
                     e.brokerPartition ? QString::number(*e.brokerPartition) : QStringLiteral("?"),
                     e.brokerOffset ? QString::number(*e.brokerOffset) : QStringLiteral("?")},
                    {}};
        if (topic.isEmpty())
            sent.terms << 0;
        steps << step(e.sentAt, QStringLiteral("sent"), {sent},
                      QJsonObject{{QStringLiteral("topic"), topic.isEmpty() ? QJsonValue() : topic},
                                  {QStringLiteral("partition"),
                                   e.brokerPartition ? QJsonValue(*e.brokerPartition) : QJsonValue()},
                                  {QStringLiteral("offset"),
                                   e.brokerOffset ? QJsonValue(double(*e.brokerOffset)) : QJsonValue()}});
    }
}

// Every consumer's inbox row of the event.
Status inboxSteps(Database& db, const OutboxEvent& e, QVector<TrailStep>& steps)
{
    const Dialect& d = db.dialect();
    auto inbox =
        db.exec(QStringLiteral("SELECT consumer_name, status, attempts, processed_at, last_error, "
                               "created_at, traceparent FROM {inbox} WHERE event_id = :event_id "
                               "ORDER BY id LIMIT :limit"),
                {{QStringLiteral(":event_id"), e.eventId}, {QStringLiteral(":limit"), EventTrail::MaxSteps}});
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
        QVector<Phrase> phrases{{QT_TRANSLATE_NOOP("outbox::EventTrail", "consumer %1: %2 (%3 attempt(s))"),
                                 {consumer, status, QString::number(attempts)},
                                 {}}};
        if (!inboxTrace.isEmpty())
            phrases << Phrase{QT_TRANSLATE_NOOP("outbox::EventTrail", ", traceparent %1"), {inboxTrace}, {}};
        if (!error.isEmpty())
            phrases << Phrase{": %1", {error}, {}};
        steps << step(
            processedAt.isValid() ? processedAt : createdAt, QStringLiteral("inbox"), phrases,
            QJsonObject{{QStringLiteral("consumer"), consumer},
                        {QStringLiteral("status"), status},
                        {QStringLiteral("attempts"), attempts},
                        {QStringLiteral("processed_at"), time(processedAt)},
                        {QStringLiteral("first_seen_at"), time(createdAt)},
                        {QStringLiteral("last_error"), error.isEmpty() ? QJsonValue() : error},
                        {QStringLiteral("traceparent"), inboxTrace.isEmpty() ? QJsonValue() : inboxTrace}});
    }
    return {};
}

// The event's dead letters, their replays and what operators did to them.
Status deadLetterSteps(Database& db, AuditLog& audit, const OutboxEvent& e, QVector<TrailStep>& steps)
{
    const Dialect& d = db.dialect();
    auto letters =
        db.exec(QStringLiteral("SELECT %1 FROM {dead_letters} WHERE event_id = :event_id ORDER BY id "
                               "LIMIT :limit")
                    .arg(DeadLetter::columns()),
                {{QStringLiteral(":event_id"), DeadLetter::storableEventId(e.eventId)},
                 {QStringLiteral(":limit"), EventTrail::MaxSteps}});
    if (!letters)
        return letters.error();
    QVector<DeadLetter> deadLetters;
    while (letters->next())
        deadLetters << DeadLetter::fromQuery(*letters, d);
    for (const DeadLetter& l : deadLetters) {
        steps << step(
            l.firstFailedAt, QStringLiteral("dead_letter"),
            {{QT_TRANSLATE_NOOP("outbox::EventTrail", "dead letter %1 by consumer %2 from %3 "
                                                      "partition %4 offset %5 after %6 attempt(s): %7"),
              {QString::number(l.id), l.consumerName, l.topic,
               l.sourcePartition ? QString::number(*l.sourcePartition) : QStringLiteral("?"),
               l.sourceOffset ? QString::number(*l.sourceOffset) : QStringLiteral("?"),
               QString::number(l.attempts), l.error},
              {}}},
            QJsonObject{{QStringLiteral("dead_letter_id"), double(l.id)},
                        {QStringLiteral("consumer"), l.consumerName},
                        {QStringLiteral("topic"), l.topic},
                        {QStringLiteral("error"), l.error},
                        {QStringLiteral("status"), l.status},
                        {QStringLiteral("last_failed_at"), time(l.lastFailedAt)}});
        if (l.replayedAt.isValid())
            steps << step(
                l.replayedAt, QStringLiteral("replayed"),
                {l.replayedBy.isEmpty()
                     ? Phrase{QT_TRANSLATE_NOOP("outbox::EventTrail",
                                                "dead letter %1 replayed to %2 (%3 replay(s))"),
                              {QString::number(l.id), l.replayTopic.isEmpty() ? l.topic : l.replayTopic,
                               QString::number(l.replayCount)},
                              {}}
                     : Phrase{QT_TRANSLATE_NOOP("outbox::EventTrail",
                                                "dead letter %1 replayed to %2 (%3 replay(s), by %4)"),
                              {QString::number(l.id), l.replayTopic.isEmpty() ? l.topic : l.replayTopic,
                               QString::number(l.replayCount), l.replayedBy},
                              {}}},
                QJsonObject{{QStringLiteral("dead_letter_id"), double(l.id)},
                            {QStringLiteral("topic"), l.replayTopic.isEmpty() ? l.topic : l.replayTopic},
                            {QStringLiteral("replay_count"), l.replayCount},
                            {QStringLiteral("status"), l.status}});
        if (Status s = auditSteps(
                audit, QStringLiteral("dead_letter"), l.id,
                {QT_TRANSLATE_NOOP("outbox::EventTrail", " (dead letter %1)"), {QString::number(l.id)}, {}},
                steps);
            !s)
            return s.error();
    }
    return {};
}

} // namespace

QString TrailStep::text() const
{
    return phrases.isEmpty() ? summary : render(phrases, true);
}

QJsonObject TrailStep::toJson() const
{
    return QJsonObject{{QStringLiteral("at"), time(at)},
                       {QStringLiteral("kind"), kind},
                       {QStringLiteral("summary"), summary},
                       {QStringLiteral("details"), details}};
}

QJsonObject EventTrail::toJson() const
{
    return QJsonObject{{QStringLiteral("event"), event.toJson()}, {QStringLiteral("steps"), rowsJson(steps)}};
}

Result<EventTrail> EventTrail::build(Database& db, const QString& idOrEventId)
{
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
    rowSteps(e, steps);
    if (Status s = heldStep(db, e, steps); !s)
        return s.error();
    sentStep(e, steps);
    AuditLog audit(db);
    if (Status s = auditSteps(
            audit, QStringLiteral("event"), e.id,
            {QT_TRANSLATE_NOOP("outbox::EventTrail", " (event %1)"), {QString::number(e.id)}, {}}, steps);
        !s)
        return s.error();

    if (Status s = inboxSteps(db, e, steps); !s)
        return s.error();
    if (Status s = deadLetterSteps(db, audit, e, steps); !s)
        return s.error();
    (void)tx.commit();

    std::stable_sort(steps.begin(), steps.end(), [](const TrailStep& a, const TrailStep& b) {
        if (a.at != b.at)
            return a.at < b.at;
        return rank(a.kind) < rank(b.kind);
    });
    return trail;
}

} // namespace outbox
