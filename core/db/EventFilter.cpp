#include "core/db/EventFilter.h"

#include "core/db/Dialect.h"
#include "core/db/EventStatus.h"
#include "core/db/JsonFields.h"

#include <QCoreApplication>
#include <QJsonArray>
#include <QRegularExpression>
#include <limits>

namespace outbox {

bool EventFilter::isValidHeaderKey(const QString& key)
{
    static const QRegularExpression grammar(QStringLiteral("^[A-Za-z0-9_][A-Za-z0-9_.-]{0,127}$"));
    return grammar.match(key).hasMatch();
}

bool EventFilter::isValidPayloadPath(const QString& path)
{
    static const QRegularExpression grammar(
        QStringLiteral("^[A-Za-z0-9_-]{1,64}(\\.[A-Za-z0-9_-]{1,64}){0,15}$"));
    return grammar.match(path).hasMatch();
}

namespace {

Result<FieldMatch> parseMatch(const QString& text, const QString& what, bool payload)
{
    const int eq = text.indexOf(QLatin1Char('='));
    const QString example = payload ? QStringLiteral("customer.id=C-42") : QStringLiteral("trace_id=abc");
    if (eq <= 0)
        return Error::usage(
            QStringLiteral("%1 takes %2=VALUE (e.g. %3)")
                .arg(what, payload ? QStringLiteral("PATH") : QStringLiteral("KEY"), example));
    FieldMatch m{text.left(eq), text.mid(eq + 1)};
    if (payload ? !EventFilter::isValidPayloadPath(m.key) : !EventFilter::isValidHeaderKey(m.key))
        return Error::usage(
            payload ? QStringLiteral("invalid payload path \"%1\" for %2: dot-separated names of letters, "
                                     "digits, _ and - (e.g. %3)")
                          .arg(m.key.left(80), what, example)
                    : QStringLiteral("invalid header key \"%1\" for %2: letters, digits, _ . and - only "
                                     "(e.g. %3)")
                          .arg(m.key.left(80), what, example));
    if (m.value.size() > EventFilter::MaxValueLength)
        return Error::usage(
            QStringLiteral("%1 value longer than %2 characters").arg(what).arg(EventFilter::MaxValueLength));
    return m;
}

} // namespace

Result<FieldMatch> EventFilter::parseHeaderMatch(const QString& keyEqualsValue, const QString& what)
{
    return parseMatch(keyEqualsValue, what, false);
}

Result<FieldMatch> EventFilter::parsePayloadMatch(const QString& pathEqualsValue, const QString& what)
{
    return parseMatch(pathEqualsValue, what, true);
}

Result<QString> EventFilter::parseTraceId(const QString& text)
{
    static const QRegularExpression traceId(QStringLiteral("^[0-9a-f]{32}$"));
    static const QRegularExpression traceparent(
        QStringLiteral("^[0-9a-f]{2}-([0-9a-f]{32})-[0-9a-f]{16}-[0-9a-f]{2}$"));
    const QString trimmed = text.trimmed();
    QString id;
    if (traceId.match(trimmed).hasMatch())
        id = trimmed;
    else if (const auto m = traceparent.match(trimmed); m.hasMatch())
        id = m.captured(1);
    if (id.isEmpty() || id == QString(32, QLatin1Char('0')))
        return Error::usage(QStringLiteral("invalid trace id \"%1\": 32 lowercase hex digits, not all zeros "
                                           "(the second field of a traceparent header, e.g. "
                                           "4bf92f3577b34da6a3ce929d0e0e4736)")
                                .arg(text.left(80)));
    return id;
}

namespace {

// A partition or an offset: a whole number from 0 to `max`.
Result<qint64> parseNonNegative(const QString& text, const QString& what, qint64 max)
{
    bool ok = false;
    const qint64 v = text.trimmed().toLongLong(&ok);
    if (!ok || v < 0 || v > max)
        return Error::usage(
            QStringLiteral("%1 must be a non-negative number, not \"%2\"").arg(what, text.left(40)));
    return v;
}

} // namespace

Result<int> EventFilter::parsePartition(const QString& text)
{
    auto v = parseNonNegative(text, QStringLiteral("partition"), std::numeric_limits<int>::max());
    if (!v)
        return v.error();
    return int(*v);
}

Result<qint64> EventFilter::parseOffset(const QString& text)
{
    return parseNonNegative(text, QStringLiteral("offset"), std::numeric_limits<qint64>::max());
}

bool EventFilter::isEmpty() const
{
    return statuses.isEmpty() && eventType.isEmpty() && aggregateType.isEmpty() && aggregateId.isEmpty() &&
           errorText.isEmpty() && !createdFrom.isValid() && !createdUntil.isValid() && eventId.isEmpty() &&
           topic.isEmpty() && headers.isEmpty() && payload.isEmpty() && traceId.isEmpty() && !partition &&
           !offset;
}

SqlCondition EventFilter::toCondition(const Dialect& dialect) const
{
    SqlCondition c;
    if (!statuses.isEmpty())
        c.addIn(QStringLiteral("status"), QStringLiteral("f_status"),
                QVariantList(statuses.cbegin(), statuses.cend()));
    if (!eventType.isEmpty())
        c.add(QStringLiteral("event_type = :f_type"), QStringLiteral(":f_type"), eventType);
    if (!aggregateType.isEmpty())
        c.add(QStringLiteral("aggregate_type = :f_agg_type"), QStringLiteral(":f_agg_type"), aggregateType);
    if (!aggregateId.isEmpty())
        c.add(QStringLiteral("aggregate_id = :f_agg_id"), QStringLiteral(":f_agg_id"), aggregateId);
    if (!errorText.isEmpty())
        c.add(dialect.containsIgnoringCase(QStringLiteral("last_error"), QStringLiteral(":f_error")),
              QStringLiteral(":f_error"), Dialect::likePattern(errorText));
    if (createdFrom.isValid())
        c.add(QStringLiteral("created_at >= :f_from"), QStringLiteral(":f_from"),
              dialect.fromDateTime(createdFrom));
    if (createdUntil.isValid())
        c.add(QStringLiteral("created_at < :f_until"), QStringLiteral(":f_until"),
              dialect.fromDateTime(createdUntil));
    if (!eventId.isEmpty())
        c.add(QStringLiteral("event_id = :f_event_id"), QStringLiteral(":f_event_id"), eventId);
    if (!topic.isEmpty())
        c.add(QStringLiteral("COALESCE(sent_topic, topic) = :f_topic"), QStringLiteral(":f_topic"), topic);
    if (partition)
        c.add(QStringLiteral("broker_partition = :f_partition"), QStringLiteral(":f_partition"), *partition);
    if (offset)
        c.add(QStringLiteral("broker_offset = :f_offset"), QStringLiteral(":f_offset"), *offset);
    // The dialect's trace-id expression is the one its index was built on (migration 13), so the
    // search is an index lookup on any table size. A trace id that is not one selects no row.
    if (!traceId.isEmpty()) {
        if (const auto parsed = parseTraceId(traceId); !parsed || *parsed != traceId)
            c.add(QStringLiteral("1 = 0"));
        else
            c.add(QStringLiteral("%1 = :f_trace_id").arg(dialect.traceIdExpression()),
                  QStringLiteral(":f_trace_id"), traceId);
    }
    // Keys and paths travel as bound values too; the grammar check is a second wall.
    const auto addMatches = [&](const QVector<FieldMatch>& matches, const QString& column,
                                const QString& prefix, bool isPayload) {
        for (int i = 0; i < matches.size(); ++i) {
            const FieldMatch& m = matches.at(i);
            const bool valid = isPayload ? isValidPayloadPath(m.key) : isValidHeaderKey(m.key);
            if (!valid || m.value.size() > MaxValueLength) {
                c.add(QStringLiteral("1 = 0"));
                continue;
            }
            const QString path = QStringLiteral(":%1_path%2").arg(prefix).arg(i);
            const QString value = QStringLiteral(":%1_value%2").arg(prefix).arg(i);
            const QStringList segments = isPayload ? m.key.split(QLatin1Char('.')) : QStringList{m.key};
            c.add(dialect.jsonTextEquals(column, path, value), path, dialect.jsonPath(segments, isPayload));
            c.binds.insert(value, m.value);
        }
    };
    addMatches(headers, QStringLiteral("headers"), QStringLiteral("f_header"), false);
    addMatches(payload, QStringLiteral("payload"), QStringLiteral("f_payload"), true);
    return c;
}

QJsonObject EventFilter::toJson() const
{
    QJsonObject o;
    if (!statuses.isEmpty())
        o[QStringLiteral("status")] = QJsonArray::fromStringList(statuses);
    if (!eventType.isEmpty())
        o[QStringLiteral("type")] = eventType;
    if (!aggregateType.isEmpty())
        o[QStringLiteral("aggregate_type")] = aggregateType;
    if (!aggregateId.isEmpty())
        o[QStringLiteral("aggregate")] = aggregateId;
    if (!errorText.isEmpty())
        o[QStringLiteral("error")] = errorText;
    if (createdFrom.isValid())
        o[QStringLiteral("created_from")] = createdFrom.toUTC().toString(Qt::ISODateWithMs);
    if (createdUntil.isValid())
        o[QStringLiteral("created_until")] = createdUntil.toUTC().toString(Qt::ISODateWithMs);
    if (!eventId.isEmpty())
        o[QStringLiteral("event_id")] = eventId;
    if (!topic.isEmpty())
        o[QStringLiteral("topic")] = topic;
    for (const auto& [key, matches] :
         {std::pair{QStringLiteral("header"), &headers}, std::pair{QStringLiteral("payload"), &payload}}) {
        QJsonArray list;
        for (const FieldMatch& m : *matches)
            list.append(QString(m.key + QLatin1Char('=') + m.value));
        if (!list.isEmpty())
            o[key] = list;
    }
    if (!traceId.isEmpty())
        o[QStringLiteral("trace_id")] = traceId;
    if (partition)
        o[QStringLiteral("partition")] = *partition;
    if (offset)
        o[QStringLiteral("offset")] = *offset;
    return o;
}

QVector<FilterField> EventFilter::fields()
{
    const auto tr = [](const char* text) { return QCoreApplication::translate("outbox::EventFilter", text); };
    return {
        {QStringLiteral("status"), tr("Status"), {}, EventStatus::all()},
        {QStringLiteral("type"), tr("Event type"), {}, {}},
        {QStringLiteral("aggregate_type"), tr("Aggregate type"), {}, {}},
        {QStringLiteral("aggregate"), tr("Aggregate id"), {}, {}},
        {QStringLiteral("error"), tr("Error contains"), {}, {}},
        {QStringLiteral("created_from"), tr("Created from"), QStringLiteral("2026-01-31T00:00:00Z"), {}},
        {QStringLiteral("created_until"), tr("Created until"), QStringLiteral("2026-01-31T23:59:59Z"), {}},
        {QStringLiteral("event_id"), tr("Event id"), {}, {}},
        // The W3C trace id (or a whole traceparent), looked up through its index (migration 13).
        {QStringLiteral("trace_id"), tr("Trace id"), QStringLiteral("4bf92f3577b34da6a3ce929d0e0e4736"), {}},
        {QStringLiteral("header"), tr("Header KEY=VALUE"), QStringLiteral("trace_id=4bf92f35"), {}},
        {QStringLiteral("payload"), tr("Payload PATH=VALUE"), QStringLiteral("customer.id=C-42"), {}},
        {QStringLiteral("topic"), tr("Topic"), {}, {}},
        {QStringLiteral("partition"), tr("Partition"), QStringLiteral("0"), {}},
        {QStringLiteral("offset"), tr("Offset"), QStringLiteral("1200"), {}},
    };
}

const QStringList& EventFilter::keys()
{
    static const QStringList keys = FilterField::names(fields());
    return keys;
}

Result<EventFilter> EventFilter::fromJson(const QJsonObject& json)
{
    // A text field of another type is refused, not read as empty: a filter that lost a field would
    // match more events than the caller named.
    static const QStringList others = {QStringLiteral("status"),  QStringLiteral("header"),
                                       QStringLiteral("payload"), QStringLiteral("partition"),
                                       QStringLiteral("offset"),  QStringLiteral("trace_id")};
    if (Status s = JsonFields::check(json, QStringLiteral("filter"), keys(), others); !s)
        return s.error();
    EventFilter f;
    auto statuses = JsonFields::statuses(json.value(QStringLiteral("status")), QStringLiteral("status"),
                                         [](const QString& name) { return EventStatus::parse(name); });
    if (!statuses)
        return statuses.error();
    f.statuses = *statuses;
    f.eventType = json.value(QStringLiteral("type")).toString();
    f.aggregateType = json.value(QStringLiteral("aggregate_type")).toString();
    f.aggregateId = json.value(QStringLiteral("aggregate")).toString();
    f.errorText = json.value(QStringLiteral("error")).toString();
    f.eventId = json.value(QStringLiteral("event_id")).toString();
    f.topic = json.value(QStringLiteral("topic")).toString();
    for (const auto& [key, target] : {std::pair{QStringLiteral("header"), &f.headers},
                                      std::pair{QStringLiteral("payload"), &f.payload}}) {
        const QJsonValue v = json.value(key);
        QStringList items;
        if (v.isString())
            items << v.toString();
        else if (v.isArray())
            for (const QJsonValue& item : v.toArray()) {
                if (!item.isString())
                    return Error::usage(QStringLiteral("%1 takes \"KEY=VALUE\" strings").arg(key));
                items << item.toString();
            }
        else if (!v.isUndefined() && !v.isNull())
            return Error::usage(QStringLiteral("%1 takes \"KEY=VALUE\" strings").arg(key));
        if (items.size() > MaxMatches)
            return Error::usage(QStringLiteral("at most %1 %2 matches").arg(MaxMatches).arg(key));
        for (const QString& item : items) {
            auto m =
                key == QLatin1String("header") ? parseHeaderMatch(item, key) : parsePayloadMatch(item, key);
            if (!m)
                return m.error();
            *target << *m;
        }
    }
    if (const QJsonValue v = json.value(QStringLiteral("trace_id")); !v.isUndefined() && !v.isNull()) {
        auto id = parseTraceId(v.toString());
        if (!v.isString() || !id)
            return v.isString() ? id.error() : Error::usage(QStringLiteral("trace_id takes a string"));
        f.traceId = *id;
    }
    for (const QString& key : {QStringLiteral("partition"), QStringLiteral("offset")}) {
        const QJsonValue v = json.value(key);
        if (v.isUndefined() || v.isNull())
            continue;
        const QString text = v.isDouble() ? QString::number(v.toDouble(), 'f', 0) : v.toString();
        if ((!v.isDouble() && !v.isString()) ||
            (v.isDouble() && v.toDouble() != double(qint64(v.toDouble()))))
            return Error::usage(QStringLiteral("%1 must be a whole number").arg(key));
        if (key == QLatin1String("partition")) {
            auto p = parsePartition(text);
            if (!p)
                return p.error();
            f.partition = *p;
        } else {
            auto o = parseOffset(text);
            if (!o)
                return o.error();
            f.offset = *o;
        }
    }
    for (const auto& [key, target] : {std::pair{QStringLiteral("created_from"), &f.createdFrom},
                                      std::pair{QStringLiteral("created_until"), &f.createdUntil}}) {
        const QString text = json.value(key).toString();
        if (text.isEmpty())
            continue;
        *target = QDateTime::fromString(text, Qt::ISODateWithMs);
        if (!target->isValid())
            return Error::usage(
                QStringLiteral("invalid time \"%1\" for %2 (expected ISO 8601, e.g. 2026-01-31T12:00:00Z)")
                    .arg(text, key));
    }
    return f;
}

} // namespace outbox
