#pragma once

#include <QString>

namespace outbox {

// What a produce outcome means for the event (the state it leads to is in docs/architecture.md).
enum class DeliveryClass {
    Success,        // acknowledged by the broker
    UnknownOutcome, // timed out: may or may not be stored; retry with the same event_id
    Transient,      // retry later with backoff
    Deterministic,  // this event will never go through as it is: FAILED
    ConnectionWide, // the whole connection is broken (auth, TLS, all brokers down): keep PENDING
};

// Each broker maps its own answers onto these (Kafka: classifyDelivery() in core/broker/kafka).
// Stable lower-case names stored in outbox_events.last_error_class.
QString deliveryClassName(DeliveryClass c);

} // namespace outbox
