#include "core/demo/InventoryService.h"

#include "core/db/Database.h"

#include <QHash>
#include <QJsonObject>
#include <QSqlQuery>
#include <algorithm>
#include <optional>

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

namespace {

struct Order
{
    QString orderId;
    QString sku;
    int quantity = 0;
    QString context; // for a failure's dead letter
};

// Reads an OrderCreated; a failure when it cannot be reserved as it is (or the simulated lock wait).
std::optional<HandlerResult> readOrder(const InboxMessage& m, int transientPercent, Order& o)
{
    const QJsonObject order = m.json.object();
    o.orderId = order.value(QStringLiteral("order_id")).toString();
    o.sku = order.value(QStringLiteral("sku")).toString();
    o.quantity = order.value(QStringLiteral("quantity")).toInt();
    o.context = QStringLiteral("order %1, sku %2, quantity %3, attempt %4")
                    .arg(o.orderId, o.sku)
                    .arg(o.quantity)
                    .arg(m.attempt);
    if (o.orderId.isEmpty() || o.sku.isEmpty() || o.quantity <= 0)
        return HandlerResult::permanent(
            QStringLiteral("OrderCreated without order_id, sku or a positive quantity"), o.context);
    // Now and then a lock wait times out; the retry goes through (deterministic per event).
    if (transientPercent > 0 && m.attempt == 1 && qChecksum(m.eventId.toUtf8()) % 100 < transientPercent)
        return HandlerResult::transient(QStringLiteral("simulated lock wait timeout on demo_inventory"),
                                        o.context);
    return std::nullopt;
}

HandlerResult unknownSku(const Order& o)
{
    return HandlerResult::permanent(
        QStringLiteral("unknown SKU %1").arg(o.sku),
        o.context +
            QStringLiteral("; demo_inventory has no row for it: add it, then replay the dead letter"));
}

HandlerResult outOfStock(const Order& o, qint64 left)
{
    return HandlerResult::permanent(QStringLiteral("SKU %1 is out of stock").arg(o.sku),
                                    o.context + QStringLiteral("; %1 left").arg(left));
}

} // namespace

HandlerResult InventoryService::handle(Database& db, const InboxMessage& m) const
{
    if (m.eventType != QLatin1String("OrderCreated"))
        return HandlerResult::ok(); // OrderPaid and others: nothing to reserve, recorded in the inbox all the
                                    // same
    Order o;
    if (auto failure = readOrder(m, m_transientPercent, o))
        return *failure;
    const QString& orderId = o.orderId;
    const QString& sku = o.sku;
    const int quantity = o.quantity;
    const QString& context = o.context;

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
            return unknownSku(o);
        return outOfStock(o, stock->toLongLong());
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

namespace outbox::demo {

BatchHandlerResult InventoryService::handleBatch(Database& db,
                                                 const QVector<const InboxMessage*>& messages) const
{
    // Every order is checked before anything is written. An order that cannot be reserved as it is
    // (unreadable, unknown SKU, out of stock, the simulated lock wait) is left out and named; the
    // others are reserved all the same (doneExcept): orders are independent of each other, so the
    // consumer need not undo and redo the call for each failure.
    QVector<BatchHandlerResult::Failure> failures;
    QVector<std::pair<int, Order>> candidates; // index in `messages`, order
    QStringList skus;
    for (int i = 0; i < messages.size(); ++i) {
        const InboxMessage& m = *messages.at(i);
        if (m.eventType != QLatin1String("OrderCreated"))
            continue;
        Order o;
        if (auto failure = readOrder(m, m_transientPercent, o)) {
            failures.append({i, *failure});
            continue;
        }
        if (!skus.contains(o.sku))
            skus << o.sku;
        candidates.append({i, o});
    }
    const auto result = [&failures] {
        return failures.isEmpty() ? BatchHandlerResult::ok() : BatchHandlerResult::doneExcept(failures);
    };
    if (candidates.isEmpty())
        return result();
    // The stock of the SKUs named, one query; the orders are reserved against it in order. Locked
    // in the SKUs' order (FOR UPDATE after the sort) so that two consumers never wait for each other
    // crosswise, and so that the UPDATE below finds the stock read here.
    // A call costs three statements whatever the number of SKUs and orders: one UPDATE per SKU
    // made the demo's consumer wait on up to 40 round trips per call (31,126 UPDATEs in a 60 s
    // PostgreSQL run at 2,000 orders/s, about one per order, as the simulated failures cut a batch
    // of 500 into some 25 calls). On PostgreSQL the SKUs, quantities and reservations are bound
    // arrays: the same three texts for every call, kept prepared (one round trip each); elsewhere
    // lists of placeholders.
    std::sort(skus.begin(), skus.end());
    const Dialect& d = db.dialect();
    const bool arrays = !d.textArray(QStringLiteral("?")).isEmpty();
    // One placeholder per SKU of `skus` (the SKUs named for the lookup, the ones reserved for the
    // UPDATE).
    const auto skuList = [&skus] {
        return QStringList(int(skus.size()), QStringLiteral("?")).join(QLatin1Char(','));
    };
    const QString lookup =
        arrays ? QStringLiteral("SELECT sku, stock FROM demo_inventory WHERE sku = ANY(%1) ORDER BY sku%2")
                     .arg(d.textArray(QStringLiteral("?")), d.forUpdate())
               : QStringLiteral("SELECT sku, stock FROM demo_inventory WHERE sku IN (%1) ORDER BY sku%2")
                     .arg(skuList(), d.forUpdate());
    const QVariantList lookupValues =
        arrays ? QVariantList{Dialect::textArrayText(skus)} : QVariantList(skus.cbegin(), skus.cend());
    QHash<QString, qint64> stock;
    const auto readStock = [&stock](QSqlQuery* rows) {
        while (rows->next())
            stock.insert(rows->value(0).toString(), rows->value(1).toLongLong());
    };
    if (arrays) {
        auto q = db.execPreparedPositional(lookup, lookupValues);
        if (!q)
            return BatchHandlerResult::failed(HandlerResult::transient(q.message()));
        readStock(*q);
        (*q)->finish();
    } else {
        auto q = db.execPositional(lookup, lookupValues);
        if (!q)
            return BatchHandlerResult::failed(HandlerResult::transient(q.message()));
        readStock(q.operator->());
    }
    QHash<QString, qint64> reserve;
    QVector<std::pair<int, Order>> orders; // the ones reserved, in order
    for (const auto& [index, o] : candidates) {
        auto it = stock.find(o.sku);
        if (it == stock.end()) {
            failures.append({index, unknownSku(o)});
            continue;
        }
        if (*it < o.quantity) {
            failures.append({index, outOfStock(o, *it)});
            continue;
        }
        *it -= o.quantity;
        reserve[o.sku] += o.quantity;
        orders.append({index, o});
    }
    std::sort(failures.begin(), failures.end(),
              [](const BatchHandlerResult::Failure& a, const BatchHandlerResult::Failure& b) {
                  return a.index < b.index;
              });
    skus = reserve.keys();
    std::sort(skus.begin(), skus.end());
    if (skus.isEmpty())
        return result();
    QVector<qint64> quantities;
    for (const QString& sku : skus)
        quantities << reserve.value(sku);
    Result<int> updated = 0;
    if (arrays) {
        auto r = db.execPreparedPositional(
            QStringLiteral("UPDATE demo_inventory i SET stock = i.stock - v.q, reserved = i.reserved + v.q "
                           "FROM unnest(%1, %2) AS v(sku, q) WHERE i.sku = v.sku AND i.stock >= v.q")
                .arg(d.textArray(QStringLiteral("?")), d.bigintArray(QStringLiteral("?"))),
            {Dialect::textArrayText(skus), Dialect::integerArrayText(quantities)});
        updated = r ? Result<int>((*r)->numRowsAffected()) : Result<int>(r.error());
    } else {
        // A CASE per column: the quantity of each SKU.
        const QString amount = d.integerValue(QStringLiteral("?"));
        QString cases;
        QVariantList caseValues;
        for (int i = 0; i < skus.size(); ++i) {
            cases += QStringLiteral(" WHEN ? THEN ") + amount;
            caseValues << skus.at(i) << quantities.at(i);
        }
        const QString byQuantity = QStringLiteral("CASE sku") + cases + QStringLiteral(" END");
        QVariantList values;
        values << caseValues << caseValues << QVariantList(skus.cbegin(), skus.cend()) << caseValues;
        auto r = db.execPositional(QStringLiteral("UPDATE demo_inventory SET stock = stock - %1, reserved = "
                                                  "reserved + %1 WHERE sku IN (%2) AND stock >= %1")
                                       .arg(byQuantity, skuList()),
                                   values);
        updated = r ? Result<int>(r->numRowsAffected()) : Result<int>(r.error());
    }
    if (!updated)
        return BatchHandlerResult::failed(HandlerResult::transient(updated.message()));
    if (*updated != skus.size()) // cannot happen with the rows locked; message by message if it does
        return BatchHandlerResult::failed(HandlerResult::transient(
            QStringLiteral("the stock of SKUs %1 changed meanwhile").arg(skus.join(QStringLiteral(", ")))));

    if (arrays) {
        QStringList orderIds, eventIds, orderSkus;
        QVector<qint64> amounts;
        for (const auto& [index, o] : orders) {
            orderIds << o.orderId;
            eventIds << messages.at(index)->eventId;
            orderSkus << o.sku;
            amounts << o.quantity;
        }
        auto r = db.execPreparedPositional(
            QStringLiteral("INSERT INTO demo_reservations (order_id, event_id, sku, quantity) "
                           "SELECT * FROM unnest(%1, %2, %3, %4)")
                .arg(d.textArray(QStringLiteral("?")), d.textArray(QStringLiteral("?")),
                     d.textArray(QStringLiteral("?")), d.bigintArray(QStringLiteral("?"))),
            {Dialect::textArrayText(orderIds), Dialect::textArrayText(eventIds),
             Dialect::textArrayText(orderSkus), Dialect::integerArrayText(amounts)});
        // A second reservation for an order would be a broken inbox: never hidden as success; the
        // messages one by one find which.
        if (!r)
            return BatchHandlerResult::failed(HandlerResult::transient(r.message()));
        return result();
    }
    constexpr int Chunk = 100;
    for (int first = 0; first < orders.size(); first += Chunk) {
        const int n = std::min<int>(Chunk, int(orders.size()) - first);
        QVariantList values;
        values.reserve(4 * n);
        for (int k = first; k < first + n; ++k) {
            const auto& [index, o] = orders.at(k);
            values << o.orderId << messages.at(index)->eventId << o.sku << o.quantity;
        }
        const QString statement =
            QStringLiteral("INSERT INTO demo_reservations (order_id, event_id, sku, quantity) VALUES ") +
            QStringList(n, QStringLiteral("(?, ?, ?, ?)")).join(QLatin1Char(','));
        QString error;
        if (n == Chunk) {
            if (auto r = db.execPreparedPositional(statement, values); !r)
                error = r.message();
        } else if (auto r = db.execPositional(statement, values); !r) {
            error = r.message();
        }
        // A second reservation for an order would be a broken inbox: never hidden as success; the
        // messages one by one find which.
        if (!error.isEmpty())
            return BatchHandlerResult::failed(HandlerResult::transient(error));
    }
    return result();
}

} // namespace outbox::demo
