#pragma once

#include "core/broker/amqp/AmqpOptions.h"
#include "core/support/Result.h"

#include <QByteArray>
#include <QHash>
#include <QString>
#include <QStringList>
#include <QVector>

namespace outbox::test {

// The private RabbitMQ node the CTest fixture started (tests/fixtures/rabbitmq.sh): OUTBOX_TEST_AMQP
// ("host:port") and the node's directory for rabbitmqctl (OUTBOX_TEST_RABBITMQ_DIR).
bool amqpAvailable();
AmqpOptions testAmqpOptions(const QString& exchange = QStringLiteral("outbox"));
// "amqp://guest@127.0.0.1:PORT/%2f" (the password is guest: RabbitMQ's loopback default).
QString testAmqpUrl();
// rabbitmqctl against the fixture's node (stop_app, start_app, set_vm_memory_high_watermark …).
Status rabbitmqctl(const QStringList& arguments, int timeoutMs = 120000);

struct AmqpReadMessage
{
    QString routingKey;
    QString exchange;
    QString messageId;
    QString type;
    QString contentType;
    int deliveryMode = 0;
    quint64 timestamp = 0;
    bool redelivered = false;
    QHash<QByteArray, QByteArray> headers;
    QByteArray body;
};

// Reads (and acknowledges) what the queue holds: stops once `expected` messages were read, or when
// nothing arrived for `idleMs`.
QVector<AmqpReadMessage> readQueue(const QString& queue, int expected, int idleMs = 1500);

} // namespace outbox::test
