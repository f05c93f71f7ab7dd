#pragma once

#include <QCoreApplication>
#include <QString>
#include <QStringList>
#include <QVector>

namespace outbox {

// What an event's delivery error most likely means and how an operator gets out of it: the
// cause-specific part of a failed-events or dead-events finding.
struct FailureAdvice
{
    Q_DECLARE_TR_FUNCTIONS(outbox::FailureAdvice)

public:
    enum class Cause {
        TopicAuthorization,
        MessageTooLarge,
        UnknownTopic,
        NoRoute,
        SchemaValidation,
        AttemptsExhausted,
        Other
    };

    Cause cause = Cause::Other;
    QString
        name; // stable: topic-authorization, message-too-large, unknown-topic, no-route, schema-validation, …
    QString title; // for the runbook page: "a topic authorization failure"
    QStringList causes;
    QStringList runbook;
    bool deadFirst = false; // marking DEAD is the usual way out, requeue second

    // From the relay's error class and error text. `dead`: the events are DEAD already (given up
    // on), so the runbook is about whether to send them after all.
    static FailureAdvice forEvents(const QString& errorClass, const QString& errorText, bool dead);
    static Cause classify(const QString& errorClass, const QString& errorText);
    // The advice of one cause; forEvents() is forCause(classify(…)). The runbook pages of
    // failed-events and dead-events list every cause from here (docs/runbooks, Runbook).
    static FailureAdvice forCause(Cause cause, bool dead);
    static QVector<Cause> allCauses();
    // The advice of every cause as sections of the failed-events (or, `dead`, dead-events) runbook page.
    static QString runbookMarkdown(bool dead);
};

} // namespace outbox
