#include "core/broker/kafka/KafkaDelivery.h"

namespace outbox {

DeliveryClass classifyDelivery(rd_kafka_resp_err_t err, rd_kafka_msg_status_t status)
{
    switch (err) {
    case RD_KAFKA_RESP_ERR_NO_ERROR:
        return DeliveryClass::Success;

    // The request may have reached the broker: the outcome is unknown, not a failure.
    case RD_KAFKA_RESP_ERR__MSG_TIMED_OUT:
    case RD_KAFKA_RESP_ERR__TIMED_OUT:
    case RD_KAFKA_RESP_ERR_REQUEST_TIMED_OUT:
    case RD_KAFKA_RESP_ERR__TIMED_OUT_QUEUE:
        return DeliveryClass::UnknownOutcome;

    // Wrong for this message whatever we retry.
    case RD_KAFKA_RESP_ERR_MSG_SIZE_TOO_LARGE:
    case RD_KAFKA_RESP_ERR_RECORD_LIST_TOO_LARGE:
    case RD_KAFKA_RESP_ERR_INVALID_MSG:
    case RD_KAFKA_RESP_ERR_INVALID_MSG_SIZE:
    case RD_KAFKA_RESP_ERR_INVALID_RECORD:
    case RD_KAFKA_RESP_ERR_TOPIC_AUTHORIZATION_FAILED:
    case RD_KAFKA_RESP_ERR_TOPIC_EXCEPTION:
    case RD_KAFKA_RESP_ERR__UNKNOWN_TOPIC:
    case RD_KAFKA_RESP_ERR_UNKNOWN_TOPIC_OR_PART:
    case RD_KAFKA_RESP_ERR__INVALID_ARG:
    case RD_KAFKA_RESP_ERR_POLICY_VIOLATION:
        return DeliveryClass::Deterministic;

    // Nothing will go through on this connection: keep the events, degrade the relay.
    case RD_KAFKA_RESP_ERR__AUTHENTICATION:
    case RD_KAFKA_RESP_ERR_SASL_AUTHENTICATION_FAILED:
    case RD_KAFKA_RESP_ERR__SSL:
    case RD_KAFKA_RESP_ERR_CLUSTER_AUTHORIZATION_FAILED:
    case RD_KAFKA_RESP_ERR_TRANSACTIONAL_ID_AUTHORIZATION_FAILED:
    case RD_KAFKA_RESP_ERR__ALL_BROKERS_DOWN:
    case RD_KAFKA_RESP_ERR__FATAL:
        return DeliveryClass::ConnectionWide;

    default:
        break;
    }
    if (status == RD_KAFKA_MSG_STATUS_POSSIBLY_PERSISTED)
        return DeliveryClass::UnknownOutcome;
    return DeliveryClass::Transient;
}

} // namespace outbox
