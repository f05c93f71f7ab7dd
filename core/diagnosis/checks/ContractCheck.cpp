#include "core/diagnosis/checks/ContractCheck.h"

#include "core/db/Database.h"
#include "core/db/JsonShape.h"
#include "core/db/OutboxEvent.h"
#include "core/db/ReservedHeaders.h"
#include "core/db/TopicRouter.h"
#include "core/diagnosis/DiagnosisContext.h"
#include "core/diagnosis/Runbook.h"

#include <QSqlQuery>
#include <algorithm>
#include <cstdlib>

namespace outbox {

namespace {

constexpr int MaxActionIds = 1000;
constexpr int MaxTopicGroups = 1000;

// The id below which a table's rows are older than the window: MAX(id) - WindowRows.
Result<qint64> windowFloor(Database& db, const QString& table)
{
    auto max = db.scalar(QStringLiteral("SELECT MAX(id) FROM %1").arg(table));
    if (!max)
        return max.error();
    return std::max<qint64>(0, max->toLongLong() - ContractCheck::WindowRows);
}

struct Sample
{
    qint64 count = 0;
    QDateTime oldest;
    QDateTime newest;
    QVector<qint64> ids; // at most MaxActionIds, oldest first
};

Result<Sample> sample(Database& db, const QString& table, const QString& condition, QVariantMap binds)
{
    Sample s;
    auto summary =
        db.exec(QStringLiteral("SELECT COUNT(*), MIN(created_at), MAX(created_at) FROM %1 WHERE %2")
                    .arg(table, condition),
                binds);
    if (!summary)
        return summary.error();
    if (!summary->next() || summary->value(0).toLongLong() == 0)
        return s;
    s.count = summary->value(0).toLongLong();
    s.oldest = db.dialect().toDateTime(summary->value(1));
    s.newest = db.dialect().toDateTime(summary->value(2));
    binds.insert(QStringLiteral(":limit"), MaxActionIds);
    auto ids = db.exec(
        QStringLiteral("SELECT id FROM %1 WHERE %2 ORDER BY id LIMIT :limit").arg(table, condition), binds);
    if (!ids)
        return ids.error();
    while (ids->next())
        s.ids << ids->value(0).toLongLong();
    return s;
}

Finding finding(const QString& id, const QString& kind, Severity severity, const Sample& s,
                const QString& unit, const QString& sampleKind)
{
    Finding f;
    f.id = id;
    f.key = id + QLatin1Char('/') + kind;
    f.severity = severity;
    f.evidence.count = s.count;
    f.evidence.unit = unit;
    f.evidence.oldest = s.oldest;
    f.evidence.newest = s.newest;
    f.evidence.sampleKind = sampleKind;
    f.evidence.sampleIds = s.ids.mid(0, Finding::MaxSamples);
    f.evidence.details.insert(QStringLiteral("violation"), kind);
    f.evidence.details.insert(QStringLiteral("window_rows"), ContractCheck::WindowRows);
    return f;
}

} // namespace

Result<QVector<Finding>> ContractCheck::run(DiagnosisContext& context)
{
    Database& db = context.db();
    const QString events = db.dialect().sql(QStringLiteral("{events}"));
    auto eventsFloor = windowFloor(db, events);
    if (!eventsFloor)
        return eventsFloor.error();
    QVector<Finding> findings;
    Scan scan{context,
              db,
              db.dialect(),
              Runbook::of(id()),
              events,
              *eventsFloor,
              {{QStringLiteral(":floor"), *eventsFloor}},
              findings};
    for (auto part :
         {&ContractCheck::insertedFindings, &ContractCheck::topicFindings, &ContractCheck::shapeFindings,
          &ContractCheck::timeFindings, &ContractCheck::inboxFindings})
        if (Status status = (this->*part)(scan); !status)
            return status.error();
    return findings;
}

Status ContractCheck::insertedFindings(Scan& s) const
{
    // Inserted as SENT: the relay sets sent_at whenever it marks an event SENT, and an operator's
    // resend clears both. Such an event is never published: a silent loss unless it is sent again.
    auto sent = sample(s.db, s.events, QStringLiteral("id > :floor AND status = 'SENT' AND sent_at IS NULL"),
                       s.window);
    if (!sent)
        return sent.error();
    if (sent->count > 0) {
        Finding f = finding(id(), QStringLiteral("created-sent"), Severity::Critical, *sent,
                            QStringLiteral("events"), QStringLiteral("event"));
        f.title =
            tr("%1 event(s) are SENT but were never sent (a writer inserted them as SENT)").arg(sent->count);
        f.causes << s.rb.cause("created-sent");
        f.runbook << s.rb.step("rule") << s.rb.step("fix-status") << s.rb.step("resend");
        f.actions << eventsAction(s.context, PreparedAction::Operation::RequeueEvents, sent->ids,
                                  EventsFlag::Resend,
                                  tr("Send the %1 event(s) that were never sent").arg(sent->ids.size()),
                                  tr("The events go back to PENDING and the relay publishes them."));
        s.findings << f;
    }

    // Inserted as SENDING: without a lease no reaper ever takes the row back.
    auto sending = sample(s.db, s.events,
                          QStringLiteral("id > :floor AND status = 'SENDING' AND (lease_until IS NULL OR "
                                         "lease_token IS NULL)"),
                          s.window);
    if (!sending)
        return sending.error();
    if (sending->count > 0) {
        Finding f = finding(id(), QStringLiteral("created-sending"), Severity::Critical, *sending,
                            QStringLiteral("events"), QStringLiteral("event"));
        f.title = tr("%1 event(s) are SENDING without a lease (a writer inserted them as SENDING)")
                      .arg(sending->count);
        f.causes << s.rb.cause("created-sending");
        f.runbook << s.rb.step("rule") << s.rb.step("fix-status") << s.rb.step("requeue");
        f.actions << eventsAction(s.context, PreparedAction::Operation::RequeueEvents, sending->ids,
                                  EventsFlag::Force,
                                  tr("Requeue the %1 event(s) stuck in SENDING").arg(sending->ids.size()),
                                  tr("The events go back to PENDING and the relay publishes them."));
        s.findings << f;
    }
    return {};
}

Status ContractCheck::topicFindings(Scan& s) const
{
    // No topic of their own, and the topic template makes no valid topic name of their types
    // (e.g. an aggregate_type with a space): the relay fails them.
    auto groups =
        s.db.exec(QStringLiteral("SELECT aggregate_type, event_type, COUNT(*), MIN(id) FROM %1 WHERE "
                                 "id > :floor AND topic IS NULL AND status IN ('PENDING','FAILED') "
                                 "GROUP BY aggregate_type, event_type ORDER BY MIN(id) LIMIT :limit")
                      .arg(s.events),
                  {{QStringLiteral(":floor"), s.eventsFloor}, {QStringLiteral(":limit"), MaxTopicGroups}});
    if (!groups)
        return groups.error();
    const TopicRouter router(s.context.options().topicTemplate);
    Sample unroutable;
    QStringList types;
    while (groups->next()) {
        OutboxEvent e;
        e.aggregateType = groups->value(0).toString();
        e.eventType = groups->value(1).toString();
        if (TopicRouter::isValidTopic(router.topicFor(e)))
            continue;
        unroutable.count += groups->value(2).toLongLong();
        if (unroutable.ids.size() < Finding::MaxSamples)
            unroutable.ids << groups->value(3).toLongLong();
        if (types.size() < 10)
            types << QStringLiteral("%1/%2").arg(e.aggregateType.left(60), e.eventType.left(60));
    }
    if (unroutable.count > 0) {
        Finding f = finding(id(), QStringLiteral("no-topic"), Severity::Warning, unroutable,
                            QStringLiteral("events"), QStringLiteral("event"));
        f.evidence.details.insert(QStringLiteral("topic_template"), s.context.options().topicTemplate);
        f.evidence.details.insert(QStringLiteral("types"), types.join(QStringLiteral(", ")));
        f.title = tr("%1 unsent event(s) name no topic, and the topic template %2 makes none of their types")
                      .arg(unroutable.count)
                      .arg(s.context.options().topicTemplate);
        f.causes << s.rb.cause("no-topic");
        f.runbook << s.rb.step("topic").arg(types.join(QStringLiteral(", ")));
        s.findings << f;
    }
    return {};
}

Status ContractCheck::shapeFindings(Scan& s) const
{
    // Payload that is no JSON object or array, or headers that are no JSON object: MariaDB/MySQL's
    // LONGTEXT takes anything, SQLite's CHECK only asks for JSON, and PostgreSQL's jsonb takes any
    // JSON value (refused only from schema 18 on). The relay would send a scalar payload that
    // consumers refuse, and drops headers that are not an object, traceparent with them.
    auto notJson = sample(s.db, s.events,
                          QStringLiteral("id > :floor AND status IN ('PENDING','SENDING','FAILED') AND ") +
                              JsonShape::badEventCondition(s.db.kind()),
                          s.window);
    if (!notJson)
        return notJson.error();
    if (notJson->count > 0) {
        Finding f = finding(id(), QStringLiteral("not-json"), Severity::Warning, *notJson,
                            QStringLiteral("events"), QStringLiteral("event"));
        f.title = tr("%1 unsent event(s) have a payload that is no JSON object or array, or headers "
                     "that are no JSON object")
                      .arg(notJson->count);
        f.causes << s.rb.cause("not-json");
        f.runbook << s.rb.step("json");
        f.actions << eventsAction(s.context, PreparedAction::Operation::MarkEventsDead, notJson->ids,
                                  EventsFlag::None, tr("Mark the %1 event(s) DEAD").arg(notJson->ids.size()),
                                  tr("The events are never sent; they stay in the table as DEAD."));
        s.findings << f;
    }

    // A writer's header of a name the relay sets itself: the relay drops it (the consumer sees the
    // relay's value), so whatever the writer meant by it is lost.
    auto reserved = sample(s.db, s.events,
                           QStringLiteral("id > :floor AND ") +
                               ReservedHeaders::sqlCondition(s.db.kind(), QStringLiteral("headers")),
                           s.window);
    if (!reserved)
        return reserved.error();
    if (reserved->count > 0) {
        Finding f = finding(id(), QStringLiteral("reserved-header"), Severity::Warning, *reserved,
                            QStringLiteral("events"), QStringLiteral("event"));
        f.evidence.details.insert(
            QStringLiteral("reserved"),
            (ReservedHeaders::names() + ReservedHeaders::prefixes()).join(QStringLiteral(", ")));
        f.title = tr("%1 event(s) carry a header of a name the relay sets itself; the relay drops the "
                     "writer's value")
                      .arg(reserved->count);
        f.causes << s.rb.cause("reserved-header");
        f.runbook << s.rb.step("reserved");
        s.findings << f;
    }
    return {};
}

Status ContractCheck::timeFindings(Scan& s) const
{
    // Times written in another time zone: created_at in the future (it defaults to the database's
    // now in UTC), or available_at a whole number of quarter hours after created_at, as when a
    // MariaDB writer whose session is at +05:00 writes available_at = NOW(6). Such an event is held
    // back for hours while it looks PENDING and fine.
    const QString now = s.d.now();
    // The database's clock, read first: one statement at a time on the connection.
    auto dbNow = s.db.scalar(QStringLiteral("SELECT %1").arg(now));
    if (!dbNow)
        return dbNow.error();
    const QDateTime serverNow = s.d.toDateTime(*dbNow);
    auto future = s.db.exec(
        QStringLiteral("SELECT id, created_at, available_at FROM %1 WHERE id > :floor AND status = 'PENDING' "
                       "AND (created_at > %2 OR available_at > %2) ORDER BY id LIMIT :limit")
            .arg(s.events, now),
        {{QStringLiteral(":floor"), s.eventsFloor}, {QStringLiteral(":limit"), MaxActionIds}});
    if (!future)
        return future.error();
    Sample skewed;
    qint64 largestMs = 0;
    qint64 likelyZone = 0; // created_at ahead, or a delay of whole quarter hours

    while (future->next()) {
        const QDateTime created = s.d.toDateTime(future->value(1));
        const QDateTime available = s.d.toDateTime(future->value(2));
        const qint64 createdAheadMs = serverNow.msecsTo(created);
        const qint64 delayMs = created.msecsTo(available);
        constexpr qint64 Quarter = 15 * 60 * 1000;
        const qint64 offQuarter = std::llabs(delayMs - (delayMs + Quarter / 2) / Quarter * Quarter);
        const bool zoneLike = delayMs >= Quarter && delayMs <= 14 * 4 * Quarter && offQuarter <= 2000;
        const qint64 availableAheadMs = serverNow.msecsTo(available);
        if (createdAheadMs > 60000 || zoneLike)
            ++likelyZone;
        else if (availableAheadMs <= 3600000)
            continue; // a delay of an hour or less: nothing to say
        ++skewed.count;
        if (skewed.ids.size() < MaxActionIds)
            skewed.ids << future->value(0).toLongLong();
        widenSpan(skewed.oldest, skewed.newest, created, created);
        largestMs = std::max({largestMs, createdAheadMs, availableAheadMs});
    }
    if (skewed.count > 0) {
        // Long delays can be meant; created_at ahead or a whole number of quarter hours rarely is.
        Finding f =
            finding(id(), QStringLiteral("future-time"), likelyZone > 0 ? Severity::Warning : Severity::Info,
                    skewed, QStringLiteral("events"), QStringLiteral("event"));
        f.evidence.details.insert(QStringLiteral("largest_ahead_ms"), largestMs);
        f.evidence.details.insert(QStringLiteral("time_zone_like"), likelyZone);
        f.title = tr("%1 pending event(s) are held back by created_at or available_at in the future "
                     "(up to %2 h ahead; %3 look written in another time zone)")
                      .arg(skewed.count)
                      .arg(QString::number(double(largestMs) / 3600000.0, 'f', 1))
                      .arg(likelyZone);
        f.causes << s.rb.cause("future-time");
        f.runbook << s.rb.step("utc");
        s.findings << f;
    }
    return {};
}

Status ContractCheck::inboxFindings(Scan& s) const
{
    // Inbox rows of a status the console, `consumers` and `reconcile` do not know (the tables made
    // by `outboxctl migrate` refuse them; an inbox created by hand may not).
    const QString inbox = s.d.sql(QStringLiteral("{inbox}"));
    auto inboxFloor = windowFloor(s.db, inbox);
    if (!inboxFloor)
        return inboxFloor.error();
    auto unknown =
        sample(s.db, inbox,
               QStringLiteral("id > :floor AND (status IS NULL OR status NOT IN ('PROCESSED','FAILED'))"),
               {{QStringLiteral(":floor"), *inboxFloor}});
    if (!unknown)
        return unknown.error();
    if (unknown->count > 0) {
        Finding f = finding(id(), QStringLiteral("inbox-status"), Severity::Warning, *unknown,
                            QStringLiteral("inbox rows"), QStringLiteral("inbox"));
        f.title = tr("%1 inbox row(s) have a status other than PROCESSED or FAILED").arg(unknown->count);
        f.causes << s.rb.cause("inbox-status");
        f.runbook << s.rb.step("inbox");
        s.findings << f;
    }
    return {};
}

// Its page of docs/runbooks/ and the lines its findings take (core/diagnosis/Runbook.h).
Runbook ContractCheck::runbook() const
{
    Runbook r = Runbook::page(
        "contract-violations", "Rows in the outbox or inbox break the writer and inbox contract",
        "critical for events that would never be published, else warning",
        "A service wrote rows against docs/contract.md, among the newest 100,000 of each table: events "
        "inserted "
        "as SENT (never published) or SENDING without a lease (never reaped), unsent events without a topic "
        "that `[relay] topic_template` cannot make a valid name for, payloads that are no JSON object or "
        "array or headers that are no JSON object, headers of a name the relay sets itself, created_at or "
        "available_at in the future (a writer in another time zone), or inbox rows of a status other than "
        "PROCESSED/FAILED. One finding per kind of violation.");
    r.causes = {
        {"created-sent",
         QT_TRANSLATE_NOOP(
             "outbox::Runbook",
             "A writer sets status = 'SENT' in its INSERT, or a script updated events to SENT by "
             "hand instead of requeueing or marking them DEAD."),
         "events SENT without sent_at"},
        {"created-sending",
         QT_TRANSLATE_NOOP("outbox::Runbook",
                           "A writer sets status = 'SENDING' in its INSERT, or a script changed status by "
                           "hand without the relay's lease columns."),
         "events SENDING without a lease"},
        {"no-topic",
         QT_TRANSLATE_NOOP("outbox::Runbook", "The writer leaves topic NULL for aggregate or event types "
                                              "that are no valid topic name once put "
                                              "in the template (letters, digits, . _ - only)."),
         "unsent events without a usable topic"},
        {"not-json",
         QT_TRANSLATE_NOOP("outbox::Runbook",
                           "The writer stores a payload that is no JSON object or array (text that is not "
                           "JSON, or a bare string or number), or headers that are no JSON object (an array, "
                           "a string): text columns cannot refuse them, nor PostgreSQL before schema 18."),
         "payload or headers not JSON"},
        {"reserved-header",
         QT_TRANSLATE_NOOP("outbox::Runbook",
                           "The writer puts a member named like one of the relay's own headers (event_id, "
                           "event_type, aggregate_type, aggregate_id, schema_version, aggregate_version, "
                           "x-replay-*, x-replayed-by) into headers; the relay drops it and sends its own."),
         "events with a reserved header name"},
        {"future-time",
         QT_TRANSLATE_NOOP("outbox::Runbook",
                           "A writer writes local time into UTC columns: MariaDB/MySQL NOW(6) or "
                           "CURRENT_TIMESTAMP(6) in a session whose time_zone is not +00:00 (DATETIME has "
                           "no zone), or a time taken from the application's clock in its own zone. The "
                           "relay claims the event only when available_at has come."),
         "events held back by a time in the future"},
        {"inbox-status",
         QT_TRANSLATE_NOOP("outbox::Runbook",
                           "A consumer writes its own statuses (e.g. RECEIVED, DONE) into the inbox table."),
         "inbox rows of an unknown status"},
    };
    r.steps = {
        {"rule",
         QT_TRANSLATE_NOOP(
             "outbox::Runbook",
             "A writer inserts only event_id, event_type, aggregate_type, aggregate_id and payload (and "
             "may set topic, headers, aggregate_version, schema_version, available_at); status, "
             "attempts, leases and sent_at belong to the relay (docs/contract.md).")},
        {"fix-status",
         QT_TRANSLATE_NOOP("outbox::Runbook", "Fix the writer: leave status to its default (PENDING)."),
         "events SENT or SENDING as written"},
        {"resend",
         QT_TRANSLATE_NOOP(
             "outbox::Runbook",
             "Send the events (prepared below): they go back to PENDING and the relay publishes them with "
             "their "
             "own event_id; an inbox skips any a consumer already has."),
         "events SENT without sent_at"},
        {"requeue",
         QT_TRANSLATE_NOOP(
             "outbox::Runbook",
             "Requeue the events (prepared below): no relay holds them, so forcing takes nothing from a "
             "working "
             "relay."),
         "events SENDING without a lease"},
        {"topic",
         QT_TRANSLATE_NOOP(
             "outbox::Runbook",
             "Set topic in the writer's INSERT, or change relay.topic_template so that it makes a valid name "
             "of "
             "these types (%1); then requeue the FAILED ones (outboxctl requeue --status FAILED)."),
         "unsent events without a usable topic", "TYPES"},
        {"json",
         QT_TRANSLATE_NOOP(
             "outbox::Runbook",
             "Fix the writer: payload is a JSON object or array, headers a JSON object whose values are "
             "strings. Consumers refuse such messages into their dead letters; mark these events DEAD if "
             "nobody should receive them (prepared below)."),
         "payload or headers not JSON"},
        {"reserved",
         QT_TRANSLATE_NOOP("outbox::Runbook",
                           "Fix the writer: rename the header (e.g. order_event_id). Consumers see only the "
                           "relay's value of these names (docs/contract.md, \"Headers\")."),
         "events with a reserved header name"},
        {"utc",
         QT_TRANSLATE_NOOP(
             "outbox::Runbook",
             "Fix the writer: leave available_at and created_at to their defaults, or write "
             "UTC (MariaDB/MySQL: UTC_TIMESTAMP(6), or SET time_zone = '+00:00' in the "
             "session). To send the events already written now: outboxctl dead ID… then outboxctl "
             "requeue ID… (both audited; a requeue sets available_at to now)."),
         "events held back by a time in the future"},
        {"inbox",
         QT_TRANSLATE_NOOP(
             "outbox::Runbook",
             "Fix the consumer: PROCESSED in the transaction of its effect, FAILED with the dead letter "
             "(docs/contract.md, \"Inbox contract\"); until then reconcile counts these events as "
             "unprocessed."),
         "inbox rows of an unknown status"},
    };
    return r;
}

} // namespace outbox
