#pragma once

#include "core/db/Database.h"
#include "core/db/DatabaseTarget.h"

#include <QElapsedTimer>
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
//
// Like a real order service it writes several orders at once: `writers` connections, each one
// transaction per order (0 = the default for the database: one on SQLite, which takes one writer
// at a time anyway, DefaultServerWriters on PostgreSQL and MariaDB, where a commit waits for its
// fsync and concurrent commits share one). The writers take order numbers from one counter paced
// to ordersPerSecond; an order that falls behind its due time is written at once, not dropped.
class OrderSimulator : public QThread
{
public:
    static constexpr int DefaultServerWriters = 4;
    static constexpr int MaxWriters = 32;

    OrderSimulator(DatabaseTarget target, int ordersPerSecond, QString restrictedTopic, int oversizedBytes,
                   int writers = 0);
    void requestStop() { m_stop = true; }
    // Orders written (committed) so far.
    qint64 orders() const { return m_orders.load(); }
    // Orders that could not be written, and the last reason.
    qint64 failures() const { return m_failures.load(); }
    QString lastError() const;

    // The number of the highest order in demo_orders (0 when none): O100042 is 42.
    static Result<qint64> lastOrderNumber(Database& db);
    static QString orderId(qint64 number) { return QStringLiteral("O%1").arg(100000 + number); }

    // The writer connections an order service on `url` uses when asked for `requested` (0: the
    // database's default), within 1..MaxWriters.
    static int writersFor(const DatabaseUrl& url, int requested);

protected:
    void run() override;

private:
    void fail(const QString& error);
    // One writer connection's loop until requestStop(): takes due order numbers and writes them.
    void writeOrders(Database& db, int writer);

    DatabaseTarget m_target;
    int m_rate;
    QString m_restrictedTopic;
    int m_oversizedBytes;
    int m_writers;
    qint64 m_first = 0;
    QElapsedTimer m_clock;
    std::atomic<qint64> m_claimed{0};
    std::atomic<bool> m_stop{false};
    std::atomic<qint64> m_orders{0};
    std::atomic<qint64> m_failures{0};
    mutable QMutex m_mutex;
    QString m_lastError;
};

} // namespace outbox::demo
