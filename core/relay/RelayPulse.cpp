#include "core/relay/RelayPulse.h"

namespace outbox {

void RelayPulse::setState(const QString& state, const QString& error)
{
    QMutexLocker lock(&m_mutex);
    m_state = state;
    if (!error.isEmpty())
        m_lastError = error;
}

void RelayPulse::setWakeUp(const QString& wakeUp)
{
    QMutexLocker lock(&m_mutex);
    m_wakeUp = wakeUp;
}

void RelayPulse::enterBrokerCall(const QString& what)
{
    QMutexLocker lock(&m_mutex);
    m_brokerCall = what;
    m_sinceBrokerCall.start();
}

void RelayPulse::leaveBrokerCall()
{
    QMutexLocker lock(&m_mutex);
    m_brokerCall.clear();
    m_sinceBrokerCall.invalidate();
}

RelayPulse::Snapshot RelayPulse::snapshot() const
{
    QMutexLocker lock(&m_mutex);
    Snapshot s;
    s.state = m_state;
    s.lastError = m_lastError;
    s.wakeUp = m_wakeUp;
    s.leasesHeld = m_leasesHeld.load();
    s.brokerCall = m_brokerCall;
    s.brokerCallMs = m_sinceBrokerCall.isValid() ? m_sinceBrokerCall.elapsed() : 0;
    return s;
}

void RelayPulse::setDesired(const QString& desired)
{
    QMutexLocker lock(&m_mutex);
    m_desired = desired;
}

QString RelayPulse::desired() const
{
    QMutexLocker lock(&m_mutex);
    return m_desired;
}

} // namespace outbox
