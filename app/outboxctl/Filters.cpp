#include "app/outboxctl/Filters.h"

#include "core/db/EventStatus.h"

#include <QJsonArray>

namespace outbox::cli {

// Builds an EventFilter from the filter options shared by `events list`, `requeue` and `dead`.
Result<EventFilter> eventFilterFromOptions(const QCommandLineParser& p)
{
    EventFilter f;
    for (const QString& value : p.values(QStringLiteral("status"))) {
        for (const QString& s : value.split(QLatin1Char(','), Qt::SkipEmptyParts)) {
            auto status = EventStatus::parse(s);
            if (!status)
                return status.error();
            f.statuses << *status;
        }
    }
    f.eventType = p.value(QStringLiteral("type"));
    f.aggregateType = p.value(QStringLiteral("aggregate-type"));
    f.aggregateId = p.value(QStringLiteral("aggregate"));
    f.errorText = p.value(QStringLiteral("error"));
    if (p.isSet(QStringLiteral("since"))) {
        auto t = parseTimeArgument(p.value(QStringLiteral("since")), QStringLiteral("since"));
        if (!t)
            return t.error();
        f.createdFrom = *t;
    }
    if (p.isSet(QStringLiteral("until"))) {
        auto t = parseTimeArgument(p.value(QStringLiteral("until")), QStringLiteral("until"));
        if (!t)
            return t.error();
        f.createdUntil = *t;
    }
    f.eventId = p.value(QStringLiteral("event-id"));
    f.topic = p.value(QStringLiteral("topic"));
    for (const QString& h : p.values(QStringLiteral("header"))) {
        auto m = EventFilter::parseHeaderMatch(h, QStringLiteral("--header"));
        if (!m)
            return m.error();
        f.headers << *m;
    }
    for (const QString& v : p.values(QStringLiteral("payload"))) {
        auto m = EventFilter::parsePayloadMatch(v, QStringLiteral("--payload"));
        if (!m)
            return m.error();
        f.payload << *m;
    }
    if (p.isSet(QStringLiteral("trace-id"))) {
        auto id = EventFilter::parseTraceId(p.value(QStringLiteral("trace-id")));
        if (!id)
            return Error::usage(QStringLiteral("--trace-id: %1").arg(id.message()));
        f.traceId = *id;
    }
    if (f.headers.size() > EventFilter::MaxMatches || f.payload.size() > EventFilter::MaxMatches)
        return Error::usage(
            QStringLiteral("at most %1 --header and %1 --payload matches").arg(EventFilter::MaxMatches));
    if (p.isSet(QStringLiteral("partition"))) {
        auto v = EventFilter::parsePartition(p.value(QStringLiteral("partition")));
        if (!v)
            return v.error();
        f.partition = *v;
    }
    if (p.isSet(QStringLiteral("offset"))) {
        auto v = EventFilter::parseOffset(p.value(QStringLiteral("offset")));
        if (!v)
            return v.error();
        f.offset = *v;
    }
    return f;
}

QList<QCommandLineOption> eventFilterOptions()
{
    return {
        QCommandLineOption(
            QStringLiteral("status"),
            QStringLiteral("Status (PENDING, SENDING, SENT, FAILED, DEAD); repeat or comma-separate."),
            QStringLiteral("status")),
        QCommandLineOption(QStringLiteral("type"), QStringLiteral("Event type."), QStringLiteral("type")),
        QCommandLineOption(QStringLiteral("aggregate-type"), QStringLiteral("Aggregate type."),
                           QStringLiteral("type")),
        QCommandLineOption(QStringLiteral("aggregate"), QStringLiteral("Aggregate id."),
                           QStringLiteral("id")),
        QCommandLineOption(QStringLiteral("error"), QStringLiteral("Text contained in last_error."),
                           QStringLiteral("text")),
        QCommandLineOption(QStringLiteral("since"),
                           QStringLiteral("Created at or after (15m, 2h, 7d or ISO 8601)."),
                           QStringLiteral("time")),
        QCommandLineOption(QStringLiteral("until"),
                           QStringLiteral("Created before (15m, 2h, 7d or ISO 8601)."),
                           QStringLiteral("time")),
        QCommandLineOption(QStringLiteral("event-id"), QStringLiteral("The event with this event_id."),
                           QStringLiteral("id")),
        QCommandLineOption(QStringLiteral("header"),
                           QStringLiteral("Header KEY has exactly VALUE (e.g. trace_id=abc); repeatable."),
                           QStringLiteral("KEY=VALUE")),
        QCommandLineOption(QStringLiteral("trace-id"),
                           QStringLiteral("Carries this W3C trace id (32 hex digits; or a whole traceparent) "
                                          "in its traceparent header; an index lookup."),
                           QStringLiteral("id")),
        QCommandLineOption(QStringLiteral("payload"),
                           QStringLiteral("Payload field at a dotted PATH has exactly VALUE (e.g. "
                                          "customer.id=C-42, items.0.sku=A-1); repeatable. Bound it with "
                                          "--since/--until on large tables."),
                           QStringLiteral("PATH=VALUE")),
        QCommandLineOption(QStringLiteral("topic"),
                           QStringLiteral("Sent to this topic (or naming it, when not sent yet)."),
                           QStringLiteral("topic")),
        QCommandLineOption(QStringLiteral("partition"), QStringLiteral("Sent to this Kafka partition."),
                           QStringLiteral("n")),
        QCommandLineOption(QStringLiteral("offset"), QStringLiteral("Sent at this Kafka offset."),
                           QStringLiteral("n")),
    };
}

Result<DeadLetterFilter> deadLetterFilterFromOptions(const QCommandLineParser& p)
{
    // The options are core's filter fields spelt with dashes (--event-id: "event_id"); core reads
    // them as it reads the API's query and body.
    QJsonObject json;
    for (const QString& key : DeadLetterFilter::keys()) {
        const QString option = QString(key).replace(QLatin1Char('_'), QLatin1Char('-'));
        if (p.isSet(option))
            json[key] = key == QLatin1String("status")
                            ? QJsonValue(QJsonArray::fromStringList(p.values(option)))
                            : QJsonValue(p.value(option));
    }
    return DeadLetterFilter::fromJson(json);
}

QList<QCommandLineOption> deadLetterFilterOptions()
{
    return {
        QCommandLineOption(QStringLiteral("status"), QStringLiteral("NEW, REPLAYING, REPLAYED or DISCARDED."),
                           QStringLiteral("status")),
        QCommandLineOption(QStringLiteral("consumer"), QStringLiteral("Consumer name."),
                           QStringLiteral("name")),
        QCommandLineOption(QStringLiteral("topic"), QStringLiteral("Original topic."),
                           QStringLiteral("topic")),
        QCommandLineOption(QStringLiteral("event-id"), QStringLiteral("Event id."), QStringLiteral("id")),
        QCommandLineOption(QStringLiteral("error"), QStringLiteral("Text contained in the error."),
                           QStringLiteral("text")),
    };
}

} // namespace outbox::cli
