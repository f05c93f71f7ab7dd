#pragma once

#include <QString>
#include <memory>

namespace outbox {

class Broker;

// What `outboxctl demo` runs on (Broker::prepareDemo()): the broker its relay and inventory consumer
// use, what must keep running meanwhile, and how the demo's banner describes it.
struct BrokerDemo
{
    std::unique_ptr<Broker> broker;
    std::shared_ptr<void> running; // Kafka: the embedded broker the demo starts
    QString where;                 // "  kafka bootstrap 127.0.0.1:…  (topic …)" banner line(s)
    QString refusals;              // how the broker refuses the demo's bad events
    QString look;                  // a command line to look at the broker with
};

} // namespace outbox
