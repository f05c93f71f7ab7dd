#pragma once

#include <QString>

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

} // namespace outbox
