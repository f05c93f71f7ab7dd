#pragma once

#include "core/broker/DeliveryClass.h"

#include <QByteArray>
#include <QString>
#include <QVector>

namespace outbox {

struct KafkaHeader
{
    QByteArray name;
    QByteArray value;
};

struct KafkaMessage
{
    QString topic;
    QByteArray key;
    QByteArray payload;
    QVector<KafkaHeader> headers;
};

// The broker's answer for one message.
struct DeliveryReport
{
    bool reported = false;
    rd_kafka_resp_err_t error = RD_KAFKA_RESP_ERR_NO_ERROR;
    rd_kafka_msg_status_t persistence = RD_KAFKA_MSG_STATUS_NOT_PERSISTED;
    DeliveryClass deliveryClass = DeliveryClass::Success;
    QString message; // librdkafka's error text
    int partition = -1;
    qint64 offset = -1;
    qint64 ackedAtMs = 0; // wall clock, ms since epoch
    // Never handed to librdkafka: its queue stayed full for the whole time the caller allowed.
    // Nothing was sent; the message can be given back (no attempt spent).
    bool notQueued = false;
};

} // namespace outbox
