#include "core/demo/InventoryService.h"

#include "core/db/Database.h"

#include <QJsonObject>
#include <QSqlQuery>

namespace outbox::demo {

Status InventoryService::prepare(Database& db)
{
    const QStringList tables{
        QStringLiteral(
            "CREATE TABLE IF NOT EXISTS demo_inventory (sku VARCHAR(64) PRIMARY KEY, stock BIGINT NOT NULL, "
            "reserved BIGINT NOT NULL DEFAULT 0)"),
        QStringLiteral("CREATE TABLE IF NOT EXISTS demo_reservations (order_id VARCHAR(64) PRIMARY KEY, "
                       "event_id VARCHAR(64) NOT NULL, "
                       "sku VARCHAR(64) NOT NULL, quantity INTEGER NOT NULL)"),
    };
    for (const QString& statement : tables)
        if (auto q = db.exec(statement); !q)
            return Error::runtime(QStringLiteral("cannot create the inventory tables: %1").arg(q.message()));
    const Dialect& d = db.dialect();
    for (int i = 0; i < CatalogSize; ++i) {
        auto q =
            db.exec(d.insertIfAbsent(QStringLiteral("demo_inventory"), QStringLiteral("sku, stock, reserved"),
                                     QStringLiteral(":sku, 1000000, 0"), QStringLiteral("sku")),
                    {{QStringLiteral(":sku"), QStringLiteral("SKU-%1").arg(i)}});
        if (!q)
            return Error::runtime(QStringLiteral("cannot stock the inventory: %1").arg(q.message()));
    }
    return {};
}

HandlerResult InventoryService::handle(Database& db, const InboxMessage& m) const
{
    if (m.eventType != QLatin1String("OrderCreated"))
        return HandlerResult::ok(); // OrderPaid and others: nothing to reserve, recorded in the inbox all the
                                    // same
    const QJsonObject order = m.json.object();
    const QString orderId = order.value(QStringLiteral("order_id")).toString();
    const QString sku = order.value(QStringLiteral("sku")).toString();
    const int quantity = order.value(QStringLiteral("quantity")).toInt();
    const QString context = QStringLiteral("order %1, sku %2, quantity %3, attempt %4")
                                .arg(orderId, sku)
                                .arg(quantity)
                                .arg(m.attempt);
    if (orderId.isEmpty() || sku.isEmpty() || quantity <= 0)
        return HandlerResult::permanent(
            QStringLiteral("OrderCreated without order_id, sku or a positive quantity"), context);
    // Now and then a lock wait times out; the retry goes through (deterministic per event).
    if (m_transientPercent > 0 && m.attempt == 1 && qChecksum(m.eventId.toUtf8()) % 100 < m_transientPercent)
        return HandlerResult::transient(QStringLiteral("simulated lock wait timeout on demo_inventory"),
                                        context);

    auto reserved = db.execPrepared(
        QStringLiteral("UPDATE demo_inventory SET stock = stock - :q, reserved = reserved + :q "
                       "WHERE sku = :sku AND stock >= :q"),
        {{QStringLiteral(":q"), quantity}, {QStringLiteral(":sku"), sku}});
    if (!reserved)
        return HandlerResult::transient(reserved.message(), context);
    if ((*reserved)->numRowsAffected() != 1) {
        auto stock = db.scalar(QStringLiteral("SELECT stock FROM demo_inventory WHERE sku = :sku"),
                               {{QStringLiteral(":sku"), sku}});
        if (!stock)
            return HandlerResult::transient(stock.message(), context);
        if (stock->isNull())
            return HandlerResult::permanent(
                QStringLiteral("unknown SKU %1").arg(sku),
                context + QStringLiteral(
                              "; demo_inventory has no row for it: add it, then replay the dead letter"));
        return HandlerResult::permanent(QStringLiteral("SKU %1 is out of stock").arg(sku),
                                        context + QStringLiteral("; %1 left").arg(stock->toLongLong()));
    }
    auto row =
        db.execPrepared(QStringLiteral("INSERT INTO demo_reservations (order_id, event_id, sku, quantity) "
                                       "VALUES (:order, :event, :sku, :q)"),
                        {{QStringLiteral(":order"), orderId},
                         {QStringLiteral(":event"), m.eventId},
                         {QStringLiteral(":sku"), sku},
                         {QStringLiteral(":q"), quantity}});
    if (!row) // a second reservation for the order would be a broken inbox: never hide it as success
        return HandlerResult::transient(row.message(), context);
    return HandlerResult::ok();
}

} // namespace outbox::demo
