#pragma once

#include "core/broker/DeliveryClass.h"

#include <librdkafka/rdkafka.h>

namespace outbox {

// What a librdkafka delivery error means for the event; `status` is the message's persistence
// status when known.
DeliveryClass classifyDelivery(rd_kafka_resp_err_t err,
                               rd_kafka_msg_status_t status = RD_KAFKA_MSG_STATUS_NOT_PERSISTED);

} // namespace outbox
