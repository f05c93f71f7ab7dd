#include "app/outboxctl/OrderSimulator.h"

#include "core/db/Database.h"
#include "core/db/EventWriter.h"

#include <QElapsedTimer>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRandomGenerator>
#include <QUuid>

namespace outbox::cli {

OrderSimulator::OrderSimulator(DatabaseUrl url, int ordersPerSecond, QString restrictedTopic,
                               int oversizedBytes)
    : m_url(std::move(url)), m_rate(ordersPerSecond), m_restrictedTopic(std::move(restrictedTopic)),
      m_oversizedBytes(oversizedBytes)
{
}

QString OrderSimulator::lastError() const
{
    return m_lastError;
}

void OrderSimulator::run()
{
    Database::Options options;
    options.purpose = QStringLiteral("order-service");
    auto opened = Database::open(m_url, options);
    if (!opened) {
        m_lastError = opened.message();
        return;
    }
    Database& db = **opened;
    if (auto created = db.exec(
            QStringLiteral("CREATE TABLE IF NOT EXISTS demo_orders (order_id VARCHAR(64) PRIMARY KEY, "
                           "status VARCHAR(32) NOT NULL, total_cents BIGINT NOT NULL)"));
        !created) {
        m_lastError = created.message();
        return;
    }
    QRandomGenerator rng(42);
    QVector<QString> unpaid;
    QElapsedTimer clock;
    clock.start();
    qint64 due = 0;
    while (!m_stop.load()) {
        const qint64 target = clock.elapsed() * m_rate / 1000;
        if (due >= target) {
            msleep(10);
            continue;
        }
        const qint64 n = ++due;
        const QString orderId = QStringLiteral("O%1").arg(100000 + n);
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
        if (!db.beginWrite()) {
            msleep(100);
            continue;
        }
        auto row = db.exec(QStringLiteral("INSERT INTO demo_orders (order_id, status, total_cents) VALUES "
                                          "(:id, 'PENDING_PAY', :total)"),
                           {{QStringLiteral(":id"), orderId}, {QStringLiteral(":total"), total}});
        auto event = row ? EventWriter(db).append(created) : Result<QString>(row.error());
        if (!row || !event || !db.commit()) {
            m_lastError = !row ? row.message() : event ? QStringLiteral("commit failed") : event.message();
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
            if (db.beginWrite()) {
                auto upd =
                    db.exec(QStringLiteral("UPDATE demo_orders SET status = 'PAID' WHERE order_id = :id"),
                            {{QStringLiteral(":id"), paidId}});
                if (upd && EventWriter(db).append(paid) && db.commit())
                    continue;
                db.rollback();
            }
        }
    }
}

} // namespace outbox::cli
