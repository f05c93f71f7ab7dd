#pragma once

#include "core/broker/Broker.h"

#include <memory>

namespace outbox {

// One Broker held as a value (RelayOptions and ConsumerOptions are copied like values: a copy of
// them holds a copy of the broker). Until one is set it holds the registry's unconfigured broker
// (Kafka without bootstrap servers), as a configuration naming none would.
class AnyBroker
{
public:
    AnyBroker();
    AnyBroker(std::unique_ptr<Broker> broker); // NOLINT(google-explicit-constructor): options.broker = made
    AnyBroker(const AnyBroker& other);
    AnyBroker& operator=(const AnyBroker& other);
    AnyBroker(AnyBroker&&) noexcept = default;
    AnyBroker& operator=(AnyBroker&&) noexcept = default;
    ~AnyBroker();

    Broker* operator->() { return m_broker.get(); }
    const Broker* operator->() const { return m_broker.get(); }
    Broker& operator*() { return *m_broker; }
    const Broker& operator*() const { return *m_broker; }
    // The broker as its own class (tests, and a room reading its own), null when it is another one.
    template <typename B> B* as() { return dynamic_cast<B*>(m_broker.get()); }
    template <typename B> const B* as() const { return dynamic_cast<const B*>(m_broker.get()); }

private:
    std::unique_ptr<Broker> m_broker;
};

} // namespace outbox
