#pragma once

#include <QtGlobal>

namespace outbox {

// Full-jitter exponential backoff: a uniform delay in [0, min(cap, base * 2^(attempt-1))], so
// relays that failed together do not retry together.
class Backoff
{
public:
    Backoff(qint64 baseMs, qint64 capMs) : m_baseMs(baseMs), m_capMs(capMs) {}
    qint64 ceilingFor(int attempt) const;
    qint64 delayFor(int attempt) const;

private:
    qint64 m_baseMs;
    qint64 m_capMs;
};

} // namespace outbox
