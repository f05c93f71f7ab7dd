#pragma once

#include <QString>
#include <librdkafka/rdkafka.h>

namespace outbox {

// What a produce outcome means for the event (the state it leads to is in docs/architecture.md).
enum class DeliveryClass {
    Success,        // acknowledged by the broker
    UnknownOutcome, // timed out: may or may not be stored; retry with the same event_id
    Transient,      // retry later with backoff
    Deterministic,  // this event will never go through as it is: FAILED
    ConnectionWide, // the whole connection is broken (auth, TLS, all brokers down): keep PENDING
};

// Classifies a librdkafka error; `status` is the message's persistence status when known.
DeliveryClass classifyDelivery(rd_kafka_resp_err_t err,
                               rd_kafka_msg_status_t status = RD_KAFKA_MSG_STATUS_NOT_PERSISTED);
// Stable lower-case names stored in outbox_events.last_error_class.
QString deliveryClassName(DeliveryClass c);

} // namespace outbox
