#include "core/db/DeadLetterFilter.h"

#include "core/db/Dialect.h"
#include "core/db/EventStatus.h"
#include "core/db/JsonFields.h"

#include <QCoreApplication>
#include <QJsonArray>

namespace outbox {

bool DeadLetterFilter::isEmpty() const
{
    return statuses.isEmpty() && consumerName.isEmpty() && topic.isEmpty() && eventId.isEmpty() &&
           errorText.isEmpty();
}

SqlCondition DeadLetterFilter::toCondition(const Dialect& dialect) const
{
    SqlCondition c;
    if (!statuses.isEmpty())
        c.addIn(QStringLiteral("status"), QStringLiteral("f_status"),
                QVariantList(statuses.cbegin(), statuses.cend()));
    if (!consumerName.isEmpty())
        c.add(QStringLiteral("consumer_name = :f_consumer"), QStringLiteral(":f_consumer"), consumerName);
    if (!topic.isEmpty())
        c.add(QStringLiteral("topic = :f_topic"), QStringLiteral(":f_topic"), topic);
    if (!eventId.isEmpty())
        c.add(QStringLiteral("event_id = :f_event"), QStringLiteral(":f_event"), eventId);
    if (!errorText.isEmpty())
        c.add(dialect.containsIgnoringCase(QStringLiteral("error"), QStringLiteral(":f_error")),
              QStringLiteral(":f_error"), Dialect::likePattern(errorText));
    return c;
}

QJsonObject DeadLetterFilter::toJson() const
{
    QJsonObject o;
    if (!statuses.isEmpty())
        o[QStringLiteral("status")] = QJsonArray::fromStringList(statuses);
    if (!consumerName.isEmpty())
        o[QStringLiteral("consumer")] = consumerName;
    if (!topic.isEmpty())
        o[QStringLiteral("topic")] = topic;
    if (!eventId.isEmpty())
        o[QStringLiteral("event_id")] = eventId;
    if (!errorText.isEmpty())
        o[QStringLiteral("error")] = errorText;
    return o;
}

QVector<FilterField> DeadLetterFilter::fields()
{
    const auto tr = [](const char* text) {
        return QCoreApplication::translate("outbox::DeadLetterFilter", text);
    };
    return {
        {QStringLiteral("status"), tr("Status"), {}, DeadLetterStatus::all()},
        {QStringLiteral("consumer"), tr("Consumer"), {}, {}},
        {QStringLiteral("topic"), tr("Topic"), {}, {}},
        {QStringLiteral("event_id"), tr("Event id"), {}, {}},
        {QStringLiteral("error"), tr("Error contains"), {}, {}},
    };
}

const QStringList& DeadLetterFilter::keys()
{
    static const QStringList keys = FilterField::names(fields());
    return keys;
}

Result<DeadLetterFilter> DeadLetterFilter::fromJson(const QJsonObject& json)
{
    if (Status s = JsonFields::check(json, QStringLiteral("filter"), keys(), {QStringLiteral("status")}); !s)
        return s.error();
    auto statuses = JsonFields::statuses(json.value(QStringLiteral("status")), QStringLiteral("status"),
                                         [](const QString& name) { return DeadLetterStatus::parse(name); });
    if (!statuses)
        return statuses.error();
    DeadLetterFilter filter;
    filter.statuses = *statuses;
    filter.consumerName = json.value(QStringLiteral("consumer")).toString();
    filter.topic = json.value(QStringLiteral("topic")).toString();
    filter.eventId = json.value(QStringLiteral("event_id")).toString();
    filter.errorText = json.value(QStringLiteral("error")).toString();
    return filter;
}

} // namespace outbox
