#pragma once

#include "core/db/Database.h"

#include <QMutex>
#include <QThread>
#include <atomic>

namespace outbox::demo {

// The demo's order service: each order is a business row and its OrderCreated event written in
// one transaction; some orders are paid later (OrderPaid). A few events are poison on purpose:
// one topic the broker refuses and payloads larger than the producer accepts; and every 53rd
// order names a SKU the demo inventory service does not know (a consumer-side dead letter).
// Order numbers continue after the highest one already in demo_orders, so the demo can run again
// on the same database.
class OrderSimulator : public QThread
{
public:
    OrderSimulator(DatabaseUrl url, QString tablePrefix, int ordersPerSecond, QString restrictedTopic,
                   int oversizedBytes);
    void requestStop() { m_stop = true; }
    // Orders written (committed) so far.
    qint64 orders() const { return m_orders.load(); }
    // Orders that could not be written, and the last reason.
    qint64 failures() const { return m_failures.load(); }
    QString lastError() const;

    // The number of the highest order in demo_orders (0 when none): O100042 is 42.
    static Result<qint64> lastOrderNumber(Database& db);
    static QString orderId(qint64 number) { return QStringLiteral("O%1").arg(100000 + number); }

protected:
    void run() override;

private:
    void fail(const QString& error);

    DatabaseUrl m_url;
    QString m_tablePrefix;
    int m_rate;
    QString m_restrictedTopic;
    int m_oversizedBytes;
    std::atomic<bool> m_stop{false};
    std::atomic<qint64> m_orders{0};
    std::atomic<qint64> m_failures{0};
    mutable QMutex m_mutex;
    QString m_lastError;
};

} // namespace outbox::demo
