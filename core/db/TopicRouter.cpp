#include "core/db/TopicRouter.h"

#include "core/db/OutboxEvent.h"
#include "core/support/TopicName.h"

#include <QRegularExpression>

namespace outbox {

bool TopicRouter::isValidTopic(const QString& topic)
{
    return TopicName::kafkaProblem(topic).isEmpty();
}

Status TopicRouter::validateTemplate(const QString& topicTemplate)
{
    QString probe = topicTemplate;
    probe.replace(QLatin1String("{aggregate_type}"), QLatin1String("x"))
        .replace(QLatin1String("{event_type}"), QLatin1String("x"));
    if (!isValidTopic(probe))
        return Error::usage(
            QStringLiteral(
                "invalid topic template \"%1\" (letters, digits, . _ - and {aggregate_type}, {event_type})")
                .arg(topicTemplate));
    return {};
}

QString TopicRouter::topicFor(const OutboxEvent& e) const
{
    if (!e.topic.isEmpty())
        return e.topic;
    return expand(e);
}

QString TopicRouter::expand(const OutboxEvent& e) const
{
    QString t = m_template;
    t.replace(QLatin1String("{aggregate_type}"), e.aggregateType.toLower());
    t.replace(QLatin1String("{event_type}"), e.eventType.toLower());
    return t;
}

} // namespace outbox
