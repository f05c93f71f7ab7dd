#include "core/broker/AnyBroker.h"

#include "core/broker/BrokerRegistry.h"

namespace outbox {

AnyBroker::AnyBroker() : m_broker(BrokerRegistry::unconfigured()) {}

AnyBroker::AnyBroker(std::unique_ptr<Broker> broker)
    : m_broker(broker ? std::move(broker) : BrokerRegistry::unconfigured())
{
}

AnyBroker::AnyBroker(const AnyBroker& other)
    : m_broker(other.m_broker ? other.m_broker->clone() : BrokerRegistry::unconfigured())
{
}

AnyBroker& AnyBroker::operator=(const AnyBroker& other)
{
    if (this != &other)
        m_broker = other.m_broker ? other.m_broker->clone() : BrokerRegistry::unconfigured();
    return *this;
}

AnyBroker::~AnyBroker() = default;

} // namespace outbox
