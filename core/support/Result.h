#pragma once

#include <QString>
#include <QtGlobal>
#include <optional>
#include <utility>

namespace outbox {

// Why an operation failed, so that front ends can pick an exit code or HTTP status.
enum class ErrorKind {
    Usage,    // bad input or configuration: the caller must change what it asked for
    NotFound, // the thing named does not exist
    Conflict, // the thing exists but is not in a state that allows the change
    Runtime,  // the environment failed: database down, broker error, I/O
};

// An error an operator can read: one sentence, no driver dump. Core speaks of the problem ("no
// Kafka bootstrap servers given"), never of a front end's flags or fields: when the error is about
// one setting or input, `subject` names it and each front end adds its own hint (outboxctl a flag,
// the web API a field, the console a form).
struct Error
{
    ErrorKind kind = ErrorKind::Runtime;
    QString message;
    // A configuration key of core/config ("database.url", "kafka.bootstrap", "consumer.name",
    // "relay.lease_ms") or an operation's input ("after_id"); empty when none.
    QString subject;

    Error() = default;
    Error(ErrorKind k, QString m, QString s = {}) : kind(k), message(std::move(m)), subject(std::move(s)) {}

    static Error usage(QString m) { return {ErrorKind::Usage, std::move(m), {}}; }
    static Error notFound(QString m) { return {ErrorKind::NotFound, std::move(m), {}}; }
    static Error conflict(QString m) { return {ErrorKind::Conflict, std::move(m), {}}; }
    static Error runtime(QString m) { return {ErrorKind::Runtime, std::move(m), {}}; }
    // The same error, about `s`.
    Error about(QString s) const
    {
        Error e = *this;
        e.subject = std::move(s);
        return e;
    }
};

// Value or error; no exceptions cross layer boundaries.
template <typename T> class [[nodiscard]] Result
{
public:
    Result(T value) : m_value(std::move(value)) {}
    Result(Error error) : m_error(std::move(error)) {}

    bool ok() const { return m_value.has_value(); }
    explicit operator bool() const { return ok(); }

    // Reading the value of an error is a programming error in every build: it stops the process
    // with the error's message instead of reading an empty optional (undefined behaviour).
    const T& value() const& { return checked(); }
    T& value() & { return checked(); }
    T&& value() && { return std::move(checked()); }
    const T* operator->() const { return &checked(); }
    T* operator->() { return &checked(); }
    const T& operator*() const& { return checked(); }

    const Error& error() const { return m_error; }
    const QString& message() const { return m_error.message; }

private:
    const T& checked() const
    {
        if (Q_UNLIKELY(!m_value))
            qFatal("Result: the value of an error was read: %s", qPrintable(m_error.message));
        return *m_value;
    }
    T& checked()
    {
        if (Q_UNLIKELY(!m_value))
            qFatal("Result: the value of an error was read: %s", qPrintable(m_error.message));
        return *m_value;
    }

    std::optional<T> m_value;
    Error m_error;
};

template <> class [[nodiscard]] Result<void>
{
public:
    Result() = default;
    Result(Error error) : m_failed(true), m_error(std::move(error)) {}

    bool ok() const { return !m_failed; }
    explicit operator bool() const { return ok(); }
    const Error& error() const { return m_error; }
    const QString& message() const { return m_error.message; }

private:
    bool m_failed = false;
    Error m_error;
};

using Status = Result<void>;

} // namespace outbox
