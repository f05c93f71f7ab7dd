#pragma once

#include "core/support/Result.h"

#include <QString>

namespace outbox {

struct OutboxEvent;

// Picks an event's topic: the row's own topic, else the template with {aggregate_type} and
// {event_type} filled in lower-case (default "{aggregate_type}": Order -> "order").
class TopicRouter
{
public:
    explicit TopicRouter(QString topicTemplate) : m_template(std::move(topicTemplate)) {}
    static Status validateTemplate(const QString& topicTemplate);
    static bool isValidTopic(const QString& topic);
    QString topicFor(const OutboxEvent& event) const;
    // The template alone, filled in for the event (the row's own topic does not count).
    QString expand(const OutboxEvent& event) const;

private:
    QString m_template;
};

} // namespace outbox
