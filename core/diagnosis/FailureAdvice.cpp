#include "core/diagnosis/FailureAdvice.h"

namespace outbox {

FailureAdvice::Cause FailureAdvice::classify(const QString& errorClass, const QString& errorText)
{
    const QString text = errorText.toLower();
    auto has = [&text](const char* needle) { return text.contains(QLatin1String(needle)); };
    if (has("topic authorization") || has("topic_authorization") || has("not authorized to access topic"))
        return Cause::TopicAuthorization;
    if (has("too large") || has("too_large") || has("message size") || has("max.message.bytes"))
        return Cause::MessageTooLarge;
    if (has("unknown topic") || has("unknown_topic"))
        return Cause::UnknownTopic;
    // RabbitMQ's basic.return of a mandatory publish: "NO_ROUTE (312): … no queue is bound …".
    if (has("no_route") || has("no route"))
        return Cause::NoRoute;
    if (has("schema") || has("validation") || has("invalid record") || has("invalid_record") ||
        has("invalid message") || has("policy violation"))
        return Cause::SchemaValidation;
    if (errorClass == QLatin1String("exhausted") || has("attempts exhausted"))
        return Cause::AttemptsExhausted;
    return Cause::Other;
}

QVector<FailureAdvice::Cause> FailureAdvice::allCauses()
{
    return {Cause::TopicAuthorization, Cause::MessageTooLarge,   Cause::UnknownTopic, Cause::NoRoute,
            Cause::SchemaValidation,   Cause::AttemptsExhausted, Cause::Other};
}

FailureAdvice FailureAdvice::forEvents(const QString& errorClass, const QString& errorText, bool dead)
{
    return forCause(classify(errorClass, errorText), dead);
}

FailureAdvice FailureAdvice::forCause(Cause cause, bool dead)
{
    FailureAdvice a;
    a.cause = cause;
    const QString finalStep =
        dead
            ? tr("If they must not be sent any more, leave them DEAD: they stay in the table for the audit "
                 "trail until retention or an operator removes them.")
            : tr("If these events must never be sent, mark the group DEAD instead (prepared below), with the "
                 "reason in the audit log.");
    switch (a.cause) {
    case Cause::TopicAuthorization:
        a.name = QStringLiteral("topic-authorization");
        a.title = QStringLiteral("a topic authorization failure");
        a.causes = {
            tr("The relay's Kafka principal is not allowed to write to the topic (a missing, revoked or "
               "mistyped ACL)."),
            tr("The events name a topic nobody may write to (a wrong topic column or --topic-template).")};
        a.runbook = {
            tr("Open a sample event and note its topic (or the relay's --topic-template)."),
            tr("Outside the product: grant the relay's principal WRITE and DESCRIBE on that topic, e.g. "
               "kafka-acls --add --allow-principal User:RELAY --operation Write --operation Describe "
               "--topic TOPIC."),
            tr("Requeue one sample event and watch it become SENT, to prove the ACL works."),
            tr("Requeue the whole group (prepared below); a relay sends the events again in id order."),
            finalStep};
        break;
    case Cause::MessageTooLarge:
        a.name = QStringLiteral("message-too-large");
        a.title = QStringLiteral("a message that is too large");
        a.causes = {tr("The payload with its headers is larger than the broker's message.max.bytes or the "
                       "topic's max.message.bytes."),
                    tr("The relay's producer limit (-X message.max.bytes, 1 MB by default) is lower than the "
                       "payload."),
                    tr("A producer put something into the event that does not belong there (a file, a whole "
                       "document).")};
        a.runbook = {
            tr("Open the sample events and look at their payload size: expected, or a producer bug?"),
            tr("If the size is legitimate: outside the product, raise max.message.bytes on the topic "
               "(and message.max.bytes on the brokers), raise the relay's -X message.max.bytes, restart "
               "the relays, then requeue the group (prepared below)."),
            dead ? finalStep
                 : tr("Otherwise fix the producer so that it sends a reference instead of the content, and "
                      "mark these events DEAD (prepared below); let the application publish corrected events "
                      "if consumers need them.")};
        a.deadFirst = !dead;
        break;
    case Cause::UnknownTopic:
        a.name = QStringLiteral("unknown-topic");
        a.title = QStringLiteral("an unknown topic");
        a.causes = {tr("The topic does not exist and the brokers do not create topics "
                       "(auto.create.topics.enable=false)."),
                    tr("The events are routed to a wrong name (the topic column, or the relay's "
                       "--topic-template).")};
        a.runbook = {tr("Open a sample event and note its topic."),
                     tr("Outside the product: create the topic with the partitions and replication the "
                        "consumers expect (kafka-topics --create --topic TOPIC …), or correct the routing "
                        "(--topic-template, or the producer that fills the topic column) and restart the "
                        "relays."),
                     tr("Requeue the group (prepared below)."), finalStep};
        break;
    case Cause::NoRoute:
        a.name = QStringLiteral("no-route");
        a.title = QStringLiteral("a message RabbitMQ could not route (NO_ROUTE)");
        a.causes = {tr("RabbitMQ returned the message (NO_ROUTE, 312): no queue is bound to the exchange for "
                       "the event's routing key (its topic). The relay publishes mandatory messages, so an "
                       "unroutable one fails instead of vanishing."),
                    tr("The consumers' queue was never bound for this routing key, or it was deleted or "
                       "unbound."),
                    tr("The events are routed to a wrong key (the topic column, or the relay's "
                       "relay.topic_template).")};
        a.runbook = {
            tr("Open a sample event and note its topic: it is the routing key on the exchange ([amqp] "
               "exchange, outbox by default)."),
            tr("Outside the product: declare the consumers' queue and bind it to the exchange for that "
               "routing key, e.g. rabbitmqadmin declare queue name=QUEUE durable=true, then rabbitmqadmin "
               "declare binding source=outbox destination=QUEUE routing_key=TOPIC (docs/rabbitmq.md, "
               "\"Queues and bindings\"); or correct the routing (relay.topic_template, or the producer "
               "that fills the topic column) and restart the relays."),
            tr("Requeue one sample event and watch it become SENT, to prove the binding works."),
            tr("Requeue the group (prepared below); a relay sends the events again in id order."), finalStep};
        break;
    case Cause::SchemaValidation:
        a.name = QStringLiteral("schema-validation");
        a.title = QStringLiteral("a schema or validation failure (invalid record, policy violation)");
        a.causes = {tr("The producer wrote events the broker or its schema checks reject (invalid record, "
                       "schema mismatch, policy violation)."),
                    tr("A deploy changed the event's shape without a compatible schema version.")};
        a.runbook = {
            tr("Open a sample event and compare its payload and schema_version with what the topic "
               "accepts."),
            tr("Outside the product: fix the producer (or register the compatible schema) and deploy "
               "it, so that new events are valid."),
            tr("If these events are acceptable once the schema is registered, requeue the group "
               "(prepared below)."),
            dead ? finalStep
                 : tr("If they are invalid for good, mark them DEAD (prepared below) and let the application "
                      "publish corrected events.")};
        break;
    case Cause::AttemptsExhausted:
        a.name = QStringLiteral("attempts-exhausted");
        a.title = QStringLiteral("attempts exhausted (transient broker failures)");
        a.causes = {
            tr("The broker failed transiently (timeouts, leader elections, throttling) until the events "
               "ran out of attempts."),
            tr("In ordering mode an event that runs out of attempts stays FAILED and holds back the "
               "later events of its aggregate.")};
        a.runbook = {tr("Check the brokers' health and the relay's log around the time of the last error."),
                     tr("Once the brokers answer again, requeue the group (prepared below)."), finalStep};
        break;
    case Cause::Other:
        a.name = QStringLiteral("other");
        a.title = QStringLiteral("anything else");
        a.causes = {tr("An error the doctor does not recognise: read the error text and a sample event.")};
        a.runbook = {tr("Open the sample events and read the error text."),
                     tr("Fix the cause (producer, broker or relay configuration)."),
                     tr("Requeue the group (prepared below) once the cause is fixed."), finalStep};
        break;
    }
    return a;
}

QString FailureAdvice::runbookMarkdown(bool dead)
{
    // failed-events and dead-events: the advice by cause is FailureAdvice's own table.
    QString text;
    for (FailureAdvice::Cause cause : FailureAdvice::allCauses()) {
        const FailureAdvice a = FailureAdvice::forCause(cause, dead);
        text += QStringLiteral("\n## When the error is %1\n\n").arg(a.title);
        text += QStringLiteral("Likely causes:\n\n");
        for (const QString& c : a.causes)
            text += QStringLiteral("- %1\n").arg(c);
        text += QStringLiteral("\nWhat to do:\n\n");
        int n = 0;
        for (const QString& s : a.runbook)
            text += QStringLiteral("%1. %2\n").arg(++n).arg(s);
    }
    return text;
}

} // namespace outbox
