#pragma once

#include <QString>
#include <QVector>

namespace outbox {

// What a consumer's handler reports for one message.
struct HandlerResult
{
    enum class Outcome {
        Ok,        // the business change is done: commit with the inbox row, then acknowledge
        Transient, // may work later (lock timeout, dependency down): roll back, retry with backoff
        Permanent, // will never work as it is: roll back, dead letter, acknowledge
    };

    Outcome outcome = Outcome::Ok;
    QString error;   // one sentence for the dead letter and the log
    QString context; // what the handler knew (input values, state), kept as the dead letter's stacktrace

    static HandlerResult ok() { return {}; }
    static HandlerResult transient(QString error, QString context = {})
    {
        return {Outcome::Transient, std::move(error), std::move(context)};
    }
    static HandlerResult permanent(QString error, QString context = {})
    {
        return {Outcome::Permanent, std::move(error), std::move(context)};
    }
};

// What a batch handler reports for the messages it was given (InboxConsumer::BatchHandler). Like a
// batch listener that names the record at fault: ok() when every message's business change is done;
// otherwise the failure and, when the handler knows it, the index (into the messages it was given)
// of the message that caused it. Either way the consumer rolls back everything the call wrote.
// A handler that can tell each message's failure on its own names them all at once instead
// (doneExcept()): the other messages' changes are done and stay, the named ones wrote nothing.
struct BatchHandlerResult
{
    struct Failure
    {
        int index = -1; // into the messages the call was given
        HandlerResult result;
    };

    HandlerResult result;
    int failedIndex = -1;      // -1: not known which message failed
    QVector<Failure> failures; // doneExcept(): the messages that failed, in order; result is ok()

    static BatchHandlerResult ok() { return {}; }
    // Message `index` failed: the ones before it are done again in one call, it goes on its own
    // (this failure is its first attempt), then the ones after it.
    static BatchHandlerResult failedAt(int index, HandlerResult result)
    {
        return {std::move(result), index, {}};
    }
    // Not known which one: every message of the call goes through the per-message Handler.
    static BatchHandlerResult failed(HandlerResult result) { return {std::move(result), -1, {}}; }
    // The messages named failed and wrote nothing; every other message's change is done and kept.
    // Each named one then goes through the per-message Handler on its own, after the call's other
    // messages (this failure is its attempt 1). Only for messages whose changes do not depend on
    // each other's order (different aggregates, or effects that commute).
    static BatchHandlerResult doneExcept(QVector<Failure> failures)
    {
        return {HandlerResult::ok(), -1, std::move(failures)};
    }
};

} // namespace outbox
