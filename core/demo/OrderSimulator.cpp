#include "core/demo/OrderSimulator.h"

#include "core/db/Database.h"
#include "core/db/Dialect.h"
#include "core/db/EventWriter.h"

#include <QElapsedTimer>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRandomGenerator>
#include <QUuid>
#include <algorithm>
#include <memory>
#include <vector>

namespace outbox::demo {

OrderSimulator::OrderSimulator(DatabaseTarget target, int ordersPerSecond, QString restrictedTopic,
                               int oversizedBytes, int writers)
    : m_target(std::move(target)), m_rate(ordersPerSecond), m_restrictedTopic(std::move(restrictedTopic)),
      m_oversizedBytes(oversizedBytes), m_writers(writers)
{
}

QString OrderSimulator::lastError() const
{
    QMutexLocker lock(&m_mutex);
    return m_lastError;
}

void OrderSimulator::fail(const QString& error)
{
    {
        QMutexLocker lock(&m_mutex);
        m_lastError = error;
    }
    m_failures.fetch_add(1);
}

Result<qint64> OrderSimulator::lastOrderNumber(Database& db)
{
    // Longest first, so that O1000000 comes after O999999.
    auto last = db.scalar(QStringLiteral("SELECT order_id FROM demo_orders ORDER BY LENGTH(order_id) DESC, "
                                         "order_id DESC LIMIT 1"));
    if (!last)
        return last.error();
    if (last->isNull())
        return qint64(0);
    bool ok = false;
    const qint64 number = last->toString().mid(1).toLongLong(&ok) - 100000;
    if (!ok || number < 0)
        return Error::runtime(
            QStringLiteral("demo_orders holds an order id the demo did not write: %1").arg(last->toString()));
    return number;
}

int OrderSimulator::writersFor(const DatabaseUrl& url, int requested)
{
    if (requested > 0)
        return std::min(requested, MaxWriters);
    return Dialect::create(url.kind, QString())->hasServer() ? DefaultServerWriters : 1;
}

void OrderSimulator::run()
{
    auto opened = m_target.open(QStringLiteral("order-service"));
    if (!opened) {
        fail(opened.message());
        return;
    }
    Database& db = **opened;
    if (auto created = db.exec(
            QStringLiteral("CREATE TABLE IF NOT EXISTS demo_orders (order_id VARCHAR(64) PRIMARY KEY, "
                           "status VARCHAR(32) NOT NULL, total_cents BIGINT NOT NULL)"));
        !created) {
        fail(created.message());
        return;
    }
    // Continue after the orders of earlier runs: their ids are taken.
    auto last = lastOrderNumber(db);
    if (!last) {
        fail(last.message());
        return;
    }
    m_first = *last;
    const int writers = writersFor(m_target.url(), m_writers);
    m_clock.start();
    std::vector<std::unique_ptr<QThread>> others;
    for (int w = 1; w < writers; ++w) {
        others.emplace_back(QThread::create([this, w] {
            auto connection = m_target.open(QStringLiteral("order-service-%1").arg(w));
            if (!connection) {
                fail(connection.message());
                return;
            }
            writeOrders(**connection, w);
        }));
        others.back()->start();
    }
    writeOrders(db, 0);
    for (auto& thread : others)
        thread->wait();
}

void OrderSimulator::writeOrders(Database& db, int writer)
{
    QRandomGenerator rng(quint32(42 + writer));
    QVector<QString> unpaid;
    while (!m_stop.load()) {
        // The orders due by now; a writer takes the next one, so together they keep the pace.
        const qint64 target = m_clock.elapsed() * m_rate / 1000;
        qint64 claimed = m_claimed.load();
        if (claimed >= target) {
            msleep(2);
            continue;
        }
        if (!m_claimed.compare_exchange_weak(claimed, claimed + 1))
            continue;
        const qint64 n = m_first + claimed + 1;
        const QString orderId = OrderSimulator::orderId(n);
        const qint64 total = 500 + rng.bounded(50000);
        NewEvent created;
        created.eventType = QStringLiteral("OrderCreated");
        created.aggregateType = QStringLiteral("Order");
        created.aggregateId = orderId;
        created.aggregateVersion = 1;
        QJsonObject payload{{QStringLiteral("order_id"), orderId},
                            {QStringLiteral("total_cents"), total},
                            {QStringLiteral("sku"),
                             n % 53 == 0 ? QStringLiteral("SKU-404") // unknown to the inventory service
                                         : QStringLiteral("SKU-%1").arg(rng.bounded(40))},
                            {QStringLiteral("quantity"), int(1 + rng.bounded(3))}};
        if (n % 211 == 0) // poison: larger than the producer's message.max.bytes
            payload[QStringLiteral("note")] = QString(m_oversizedBytes, QLatin1Char('x'));
        created.payload = QJsonDocument(payload).toJson(QJsonDocument::Compact);
        created.headers =
            QJsonObject{{QStringLiteral("trace_id"), QUuid::createUuid().toString(QUuid::Id128)},
                        {QStringLiteral("tenant"), QStringLiteral("shop-eu")}};
        if (n % 97 == 0) // poison: a topic the broker refuses
            created.topic = m_restrictedTopic;

        // The order and its event commit together: the heart of the outbox pattern.
        if (Status begun = db.beginWrite(); !begun) {
            fail(begun.message());
            msleep(100);
            continue;
        }
        auto row = db.execPrepared(QStringLiteral("INSERT INTO demo_orders (order_id, status, total_cents) "
                                                  "VALUES (:id, 'PENDING_PAY', :total)"),
                                   {{QStringLiteral(":id"), orderId}, {QStringLiteral(":total"), total}});
        auto event = row ? EventWriter(db).append(created) : Result<QString>(row.error());
        Status committed = row && event ? db.commit() : Status();
        if (!row || !event || !committed) {
            fail(QStringLiteral("order %1: %2")
                     .arg(orderId, !row     ? row.message()
                                   : !event ? event.message()
                                            : committed.message()));
            db.rollback();
            continue;
        }
        m_orders.fetch_add(1);
        unpaid << orderId;

        // Every other order gets paid a little later.
        if (unpaid.size() > 20 && n % 2 == 0) {
            const QString paidId = unpaid.takeFirst();
            NewEvent paid;
            paid.eventType = QStringLiteral("OrderPaid");
            paid.aggregateType = QStringLiteral("Order");
            paid.aggregateId = paidId;
            paid.aggregateVersion = 2;
            paid.payload = QJsonDocument(QJsonObject{{QStringLiteral("order_id"), paidId},
                                                     {QStringLiteral("method"), QStringLiteral("card")}})
                               .toJson(QJsonDocument::Compact);
            Status paidBegun = db.beginWrite();
            if (!paidBegun) {
                fail(QStringLiteral("payment of %1: %2").arg(paidId, paidBegun.message()));
                continue;
            }
            auto upd =
                db.execPrepared(QStringLiteral("UPDATE demo_orders SET status = 'PAID' WHERE order_id = :id"),
                                {{QStringLiteral(":id"), paidId}});
            auto paidEvent = upd ? EventWriter(db).append(paid) : Result<QString>(upd.error());
            Status paidCommitted = upd && paidEvent ? db.commit() : Status();
            if (!upd || !paidEvent || !paidCommitted) {
                fail(QStringLiteral("payment of %1: %2")
                         .arg(paidId, !upd         ? upd.message()
                                      : !paidEvent ? paidEvent.message()
                                                   : paidCommitted.message()));
                db.rollback();
            }
        }
    }
}

} // namespace outbox::demo
