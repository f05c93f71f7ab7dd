#pragma once

#include "core/db/DatabaseUrl.h"

#include <QThread>
#include <atomic>

namespace outbox::cli {

// The demo's order service: each order is a business row and its OrderCreated event written in
// one transaction; some orders are paid later (OrderPaid). A few events are poison on purpose:
// one topic the broker refuses and payloads larger than the producer accepts; and every 53rd
// order names a SKU the demo inventory service does not know (a consumer-side dead letter).
class OrderSimulator : public QThread
{
public:
    OrderSimulator(DatabaseUrl url, int ordersPerSecond, QString restrictedTopic, int oversizedBytes);
    void requestStop() { m_stop = true; }
    qint64 orders() const { return m_orders.load(); }
    QString lastError() const;

protected:
    void run() override;

private:
    DatabaseUrl m_url;
    int m_rate;
    QString m_restrictedTopic;
    int m_oversizedBytes;
    std::atomic<bool> m_stop{false};
    std::atomic<qint64> m_orders{0};
    QString m_lastError;
};

} // namespace outbox::cli
