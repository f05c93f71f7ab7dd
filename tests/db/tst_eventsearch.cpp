// Finding any event (EventFilter's event_id, header, payload, topic, partition and offset) against
// real PostgreSQL, MariaDB and SQLite: every search form returns exactly the events that differ from
// the others only in the searched field; keys, paths and values that try to escape return nothing
// and change nothing; bulk actions select by the same fields.
#include "core/db/EventStatus.h"
#include "core/db/EventStore.h"
#include "core/ops/BulkActionEngine.h"
#include "tests/support/TestDatabases.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QSet>
#include <QTest>

using namespace outbox;
using namespace outbox::test;

namespace {

NewEvent newEvent(const QString& eventId, const QByteArray& payload, const QJsonObject& headers = {},
                  const QString& topic = {})
{
    NewEvent e;
    e.eventId = eventId;
    e.eventType = QStringLiteral("OrderCreated");
    e.aggregateType = QStringLiteral("Order");
    e.aggregateId = QStringLiteral("O-1");
    e.payload = payload;
    e.headers = headers;
    e.topic = topic;
    return e;
}

void append(Database& db, const QVector<NewEvent>& events)
{
    QVERIFY(db.beginWrite().ok());
    auto ids = EventWriter(db).appendBatch(events);
    QVERIFY2(ids.ok(), qPrintable(ids.message()));
    QVERIFY(db.commit().ok());
}

// The event_ids the filter selects, through the browser's keyset query.
QSet<QString> found(Database& db, const EventFilter& filter)
{
    EventPageRequest r;
    r.filter = filter;
    r.limit = 500;
    auto page = EventStore(db).list(r);
    if (!page)
        qFatal("list failed: %s", qPrintable(page.message()));
    QSet<QString> ids;
    for (const OutboxEvent& e : page->events)
        ids.insert(e.eventId);
    return ids;
}

QSet<QString> set(std::initializer_list<const char*> ids)
{
    QSet<QString> s;
    for (const char* id : ids)
        s.insert(QString::fromUtf8(id));
    return s;
}

EventFilter headerFilter(const QString& key, const QString& value)
{
    EventFilter f;
    f.headers << FieldMatch{key, value};
    return f;
}

EventFilter payloadFilter(const QString& path, const QString& value)
{
    EventFilter f;
    f.payload << FieldMatch{path, value};
    return f;
}

// Sends the events (claim + markSent as the relay does) with the given partition, offset and topic.
void send(Database& db, const QVector<std::tuple<QString, int, qint64, QString>>& sends)
{
    EventStore store(db);
    auto batch = store.claim(QStringLiteral("relay-test"), 100, 60000);
    QVERIFY2(batch.ok(), qPrintable(batch.message()));
    QVector<SentMark> marks;
    for (const OutboxEvent& e : batch->events) {
        for (const auto& [eventId, partition, offset, topic] : sends)
            if (e.eventId == eventId)
                marks << SentMark(e.id, partition, offset, topic);
    }
    QCOMPARE(marks.size(), sends.size());
    auto r = store.markSent(batch->leaseToken, marks);
    QVERIFY2(r.ok(), qPrintable(r.message()));
    QCOMPARE(r->updated, marks.size());
}

} // namespace

class TestEventSearch : public QObject
{
    Q_OBJECT

private slots:
    void byEventId_data() { TestDatabases::addKinds(); }
    void byEventId()
    {
        QFETCH(QString, kind);
        auto db = TestDatabases::fresh(kind, TestDatabases::uniqueName(QStringLiteral("s_id_") + kind));
        append(*db, {newEvent(QStringLiteral("evt-1"), "{}"), newEvent(QStringLiteral("evt-2"), "{}"),
                     newEvent(QStringLiteral("evt-10"), "{}")});
        EventFilter f;
        f.eventId = QStringLiteral("evt-1");
        QCOMPARE(found(*db, f), set({"evt-1"}));
        f.eventId = QStringLiteral("evt-");
        QCOMPARE(found(*db, f), QSet<QString>());
    }

    void byHeader_data() { TestDatabases::addKinds(); }
    void byHeader()
    {
        QFETCH(QString, kind);
        auto db = TestDatabases::fresh(kind, TestDatabases::uniqueName(QStringLiteral("s_hdr_") + kind));
        const auto h = [](const char* key, const QJsonValue& value) {
            return QJsonObject{{QString::fromUtf8(key), value}};
        };
        append(*db, {newEvent(QStringLiteral("a"), "{}", h("trace_id", QStringLiteral("T-1"))),
                     newEvent(QStringLiteral("b"), "{}", h("trace_id", QStringLiteral("T-2"))),
                     newEvent(QStringLiteral("c"), "{}", h("trace_id", QStringLiteral("t-1"))),
                     newEvent(QStringLiteral("d"), "{}", h("span_id", QStringLiteral("T-1"))),
                     newEvent(QStringLiteral("e"), "{}", h("x-request.id", QStringLiteral("R 1"))),
                     newEvent(QStringLiteral("f"), "{}", h("retries", 3)),
                     newEvent(QStringLiteral("g"), "{}", QJsonObject{})});
        QCOMPARE(found(*db, headerFilter(QStringLiteral("trace_id"), QStringLiteral("T-1"))), set({"a"}));
        QCOMPARE(found(*db, headerFilter(QStringLiteral("trace_id"), QStringLiteral("t-1"))), set({"c"}));
        QCOMPARE(found(*db, headerFilter(QStringLiteral("span_id"), QStringLiteral("T-1"))), set({"d"}));
        QCOMPARE(found(*db, headerFilter(QStringLiteral("x-request.id"), QStringLiteral("R 1"))), set({"e"}));
        QCOMPARE(found(*db, headerFilter(QStringLiteral("retries"), QStringLiteral("3"))), set({"f"}));
        QCOMPARE(found(*db, headerFilter(QStringLiteral("trace_id"), QStringLiteral("T-"))), QSet<QString>());
        // Two header matches must both hold.
        EventFilter both = headerFilter(QStringLiteral("trace_id"), QStringLiteral("T-1"));
        both.headers << FieldMatch{QStringLiteral("span_id"), QStringLiteral("T-1")};
        QCOMPARE(found(*db, both), QSet<QString>());
    }

    void byPayloadPath_data() { TestDatabases::addKinds(); }
    void byPayloadPath()
    {
        QFETCH(QString, kind);
        auto db = TestDatabases::fresh(kind, TestDatabases::uniqueName(QStringLiteral("s_pl_") + kind));
        append(*db, {newEvent(QStringLiteral("a"), R"({"customer":{"id":"C-42"},"total":10})"),
                     newEvent(QStringLiteral("b"), R"({"customer":{"id":"C-43"},"total":10})"),
                     newEvent(QStringLiteral("c"), R"({"customer":{"id":"c-42"},"total":10})"),
                     newEvent(QStringLiteral("d"), R"({"customer_id":"C-42","total":10})"),
                     newEvent(QStringLiteral("e"), R"({"customer":{"id":42},"total":10.5})"),
                     newEvent(QStringLiteral("f"), R"({"customer":{"id":"C-42 "},"vip":true})"),
                     newEvent(QStringLiteral("g"), R"({"items":[{"sku":"A-1"},{"sku":"B-2"}]})"),
                     newEvent(QStringLiteral("h"), R"({"items":[{"sku":"B-2"},{"sku":"A-1"}]})")});
        QCOMPARE(found(*db, payloadFilter(QStringLiteral("customer.id"), QStringLiteral("C-42"))),
                 set({"a"}));
        QCOMPARE(found(*db, payloadFilter(QStringLiteral("customer.id"), QStringLiteral("c-42"))),
                 set({"c"}));
        QCOMPARE(found(*db, payloadFilter(QStringLiteral("customer_id"), QStringLiteral("C-42"))),
                 set({"d"}));
        QCOMPARE(found(*db, payloadFilter(QStringLiteral("customer.id"), QStringLiteral("42"))), set({"e"}));
        QCOMPARE(found(*db, payloadFilter(QStringLiteral("total"), QStringLiteral("10.5"))), set({"e"}));
        QCOMPARE(found(*db, payloadFilter(QStringLiteral("vip"), QStringLiteral("true"))), set({"f"}));
        QCOMPARE(found(*db, payloadFilter(QStringLiteral("items.0.sku"), QStringLiteral("A-1"))), set({"g"}));
        QCOMPARE(found(*db, payloadFilter(QStringLiteral("items.1.sku"), QStringLiteral("A-1"))), set({"h"}));
        QCOMPARE(found(*db, payloadFilter(QStringLiteral("customer"), QStringLiteral("C-42"))),
                 QSet<QString>());
    }

    void byTopicPartitionAndOffset_data() { TestDatabases::addKinds(); }
    void byTopicPartitionAndOffset()
    {
        QFETCH(QString, kind);
        auto db = TestDatabases::fresh(kind, TestDatabases::uniqueName(QStringLiteral("s_tp_") + kind));
        append(*db, {newEvent(QStringLiteral("a"), "{}", {}, QStringLiteral("orders")),
                     newEvent(QStringLiteral("b"), "{}", {}, QStringLiteral("payments")),
                     newEvent(QStringLiteral("c"), "{}"), newEvent(QStringLiteral("d"), "{}"),
                     newEvent(QStringLiteral("e"), "{}"),
                     newEvent(QStringLiteral("unsent"), "{}", {}, QStringLiteral("orders"))});
        // Everything but "unsent" goes out; c and d were routed (no topic of their own).
        auto unsent = EventStore(*db).find(QStringLiteral("unsent"));
        QVERIFY(unsent.ok());
        QVERIFY(db->exec(QStringLiteral("UPDATE {events} SET available_at = %1 WHERE event_id = 'unsent'")
                             .arg(db->dialect().nowPlusMillis(QStringLiteral(":ms"))),
                         {{QStringLiteral(":ms"), 3600000}})
                    .ok());
        send(*db, {{QStringLiteral("a"), 0, 7, QStringLiteral("orders")},
                   {QStringLiteral("b"), 1, 7, QStringLiteral("payments")},
                   {QStringLiteral("c"), 1, 8, QStringLiteral("orders")},
                   {QStringLiteral("d"), 2, 8, QStringLiteral("outbox.Order")},
                   {QStringLiteral("e"), 1, 9, QStringLiteral("outbox.Order")}});
        EventFilter f;
        f.topic = QStringLiteral("orders");
        QCOMPARE(found(*db, f), set({"a", "c", "unsent"}));
        f.topic = QStringLiteral("outbox.Order");
        QCOMPARE(found(*db, f), set({"d", "e"}));
        EventFilter p;
        p.partition = 1;
        QCOMPARE(found(*db, p), set({"b", "c", "e"}));
        p.offset = 8;
        QCOMPARE(found(*db, p), set({"c"}));
        EventFilter o;
        o.offset = 7;
        QCOMPARE(found(*db, o), set({"a", "b"}));
        auto sent = EventStore(*db).find(QStringLiteral("d"));
        QVERIFY(sent.ok());
        QCOMPARE(sent->sentTopic, QStringLiteral("outbox.Order"));
        QCOMPARE(sent->toJson().value(QStringLiteral("sent_topic")).toString(),
                 QStringLiteral("outbox.Order"));
    }

    void keysAndPathsFollowTheGrammar()
    {
        for (const QString& good : {QStringLiteral("trace_id"), QStringLiteral("x-request.id"),
                                    QStringLiteral("Content-Type"), QStringLiteral("a")})
            QVERIFY2(EventFilter::isValidHeaderKey(good), qPrintable(good));
        for (const QString& bad :
             {QString(), QStringLiteral("a b"), QStringLiteral("a'b"), QStringLiteral("a\"b"),
              QStringLiteral("$.a"), QStringLiteral("a)--"), QStringLiteral(".a"), QStringLiteral("a=b"),
              QString(200, QLatin1Char('a'))})
            QVERIFY2(!EventFilter::isValidHeaderKey(bad), qPrintable(bad));
        for (const QString& good : {QStringLiteral("customer.id"), QStringLiteral("items.0.sku"),
                                    QStringLiteral("a"), QStringLiteral("order-line_2.x")})
            QVERIFY2(EventFilter::isValidPayloadPath(good), qPrintable(good));
        for (const QString& bad : {QString(), QStringLiteral("a..b"), QStringLiteral(".a"),
                                   QStringLiteral("a."), QStringLiteral("$.a"), QStringLiteral("a[0]"),
                                   QStringLiteral("a.b\"c"), QStringLiteral("a'); DROP TABLE x; --"),
                                   QStringLiteral("a,b"), QStringLiteral("{a}"), QStringLiteral("a b")})
            QVERIFY2(!EventFilter::isValidPayloadPath(bad), qPrintable(bad));

        auto bad = EventFilter::parseHeaderMatch(QStringLiteral("trace'id=1"), QStringLiteral("header"));
        QVERIFY(!bad.ok());
        QCOMPARE(bad.error().kind, ErrorKind::Usage);
        QVERIFY2(bad.message().contains(QStringLiteral("invalid header key")), qPrintable(bad.message()));
        auto noEq = EventFilter::parsePayloadMatch(QStringLiteral("customer.id"), QStringLiteral("payload"));
        QVERIFY(!noEq.ok());
        QVERIFY2(noEq.message().contains(QStringLiteral("PATH=VALUE")), qPrintable(noEq.message()));
        auto ok =
            EventFilter::parsePayloadMatch(QStringLiteral("customer.id=a=b"), QStringLiteral("payload"));
        QVERIFY(ok.ok());
        QCOMPARE(ok->key, QStringLiteral("customer.id"));
        QCOMPARE(ok->value, QStringLiteral("a=b"));

        // The JSON form (API, bulk actions, audit) takes the same fields and round-trips.
        auto parsed = EventFilter::fromJson(
            QJsonObject{{QStringLiteral("event_id"), QStringLiteral("e-1")},
                        {QStringLiteral("topic"), QStringLiteral("orders")},
                        {QStringLiteral("header"), QJsonArray{QStringLiteral("trace_id=T-1")}},
                        {QStringLiteral("payload"), QStringLiteral("customer.id=C-42")},
                        {QStringLiteral("partition"), 3},
                        {QStringLiteral("offset"), QStringLiteral("17")}});
        QVERIFY2(parsed.ok(), qPrintable(parsed.message()));
        QCOMPARE(parsed->payload.first(),
                 (FieldMatch{QStringLiteral("customer.id"), QStringLiteral("C-42")}));
        QCOMPARE(*parsed->partition, 3);
        QCOMPARE(*parsed->offset, qint64(17));
        auto again = EventFilter::fromJson(parsed->toJson());
        QVERIFY(again.ok());
        QCOMPARE(again->toJson(), parsed->toJson());
        for (const QJsonObject& wrong :
             {QJsonObject{{QStringLiteral("header"), QStringLiteral("trace id=1")}},
              QJsonObject{{QStringLiteral("payload"), QStringLiteral("a..b=1")}},
              QJsonObject{{QStringLiteral("partition"), -1}}, QJsonObject{{QStringLiteral("offset"), 1.5}},
              QJsonObject{{QStringLiteral("header"), 5}}}) {
            auto r = EventFilter::fromJson(wrong);
            QVERIFY2(!r.ok(), QJsonDocument(wrong).toJson());
            QCOMPARE(r.error().kind, ErrorKind::Usage);
        }
    }

    void injectionFindsNothingAndChangesNothing_data() { TestDatabases::addKinds(); }
    void injectionFindsNothingAndChangesNothing()
    {
        QFETCH(QString, kind);
        auto db = TestDatabases::fresh(kind, TestDatabases::uniqueName(QStringLiteral("s_inj_") + kind));
        append(*db, {newEvent(QStringLiteral("a"), R"({"customer":{"id":"C-42"}})",
                              QJsonObject{{QStringLiteral("trace_id"), QStringLiteral("T-1")}},
                              QStringLiteral("t")),
                     newEvent(QStringLiteral("b"), R"({"customer":{"id":"C-43"}})",
                              QJsonObject{{QStringLiteral("trace_id"), QStringLiteral("T-2")}},
                              QStringLiteral("t"))});
        const QStringList attacks = {
            QStringLiteral("' OR '1'='1"),
            QStringLiteral("x' OR 1=1 --"),
            QStringLiteral("\") OR 1=1 --"),
            QStringLiteral("'; DELETE FROM outbox_events; --"),
            QStringLiteral("T-1' UNION SELECT * FROM outbox_events --"),
            QStringLiteral("$.customer.id"),
            QStringLiteral("C-42\\' OR \\'1\\'=\\'1"),
        };
        const QStringList badKeys = {
            QStringLiteral("trace_id' OR '1'='1"),
            QStringLiteral("customer.id') OR 1=1 --"),
            QStringLiteral("\"customer\".\"id\""),
            QStringLiteral("$.customer.id"),
            QStringLiteral("customer.id'); DROP TABLE outbox_events; --"),
            QStringLiteral("a}\",\"b"),
        };
        const auto before = countRows(*db, QStringLiteral("{events}"));
        for (const QString& attack : attacks) {
            EventFilter f;
            f.eventId = attack;
            QCOMPARE(found(*db, f), QSet<QString>());
            f = EventFilter{};
            f.topic = attack;
            QCOMPARE(found(*db, f), QSet<QString>());
            QCOMPARE(found(*db, headerFilter(QStringLiteral("trace_id"), attack)), QSet<QString>());
            QCOMPARE(found(*db, payloadFilter(QStringLiteral("customer.id"), attack)), QSet<QString>());
        }
        for (const QString& key : badKeys) {
            // Set by code past the parser: no row; parsed: a usage error naming the key.
            QCOMPARE(found(*db, headerFilter(key, QStringLiteral("T-1"))), QSet<QString>());
            QCOMPARE(found(*db, payloadFilter(key, QStringLiteral("C-42"))), QSet<QString>());
            auto h = EventFilter::parseHeaderMatch(key + QStringLiteral("=T-1"), QStringLiteral("header"));
            QVERIFY(!h.ok());
            QCOMPARE(h.error().kind, ErrorKind::Usage);
            auto p = EventFilter::parsePayloadMatch(key + QStringLiteral("=C-42"), QStringLiteral("payload"));
            QVERIFY(!p.ok());
            QCOMPARE(p.error().kind, ErrorKind::Usage);
        }
        QCOMPARE(countRows(*db, QStringLiteral("{events}")), before);
        QCOMPARE(found(*db, headerFilter(QStringLiteral("trace_id"), QStringLiteral("T-1"))), set({"a"}));
        QCOMPARE(found(*db, payloadFilter(QStringLiteral("customer.id"), QStringLiteral("C-43"))),
                 set({"b"}));
    }

    void bulkActionsSelectByTheNewFields_data() { TestDatabases::addKinds(); }
    void bulkActionsSelectByTheNewFields()
    {
        QFETCH(QString, kind);
        auto db = TestDatabases::fresh(kind, TestDatabases::uniqueName(QStringLiteral("s_bulk_") + kind));
        append(*db, {newEvent(QStringLiteral("a"), R"({"customer":{"id":"C-42"}})",
                              QJsonObject{{QStringLiteral("trace_id"), QStringLiteral("T-1")}}),
                     newEvent(QStringLiteral("b"), R"({"customer":{"id":"C-42"}})",
                              QJsonObject{{QStringLiteral("trace_id"), QStringLiteral("T-2")}}),
                     newEvent(QStringLiteral("c"), R"({"customer":{"id":"C-43"}})",
                              QJsonObject{{QStringLiteral("trace_id"), QStringLiteral("T-1")}})});
        QVERIFY(db->exec(QStringLiteral("UPDATE {events} SET status = 'FAILED'")).ok());
        ActionRequest r;
        r.eventFilter = EventFilter{};
        r.eventFilter->payload << FieldMatch{QStringLiteral("customer.id"), QStringLiteral("C-42")};
        r.eventFilter->headers << FieldMatch{QStringLiteral("trace_id"), QStringLiteral("T-1")};
        r.reason = QStringLiteral("customer C-42 complained");
        r.actor = QStringLiteral("alice");
        BulkActionEngine engine(*db);
        auto preview = engine.preview(ActionKind::Requeue, r);
        QVERIFY2(preview.ok(), qPrintable(preview.message()));
        QCOMPARE(preview->expected, qint64(1));
        auto done = engine.run(ActionKind::Requeue, r, *preview);
        QVERIFY2(done.ok(), qPrintable(done.message()));
        QCOMPARE(done->affected, qint64(1));
        QCOMPARE(statusOf(*db, EventStore(*db).find(QStringLiteral("a"))->id), QStringLiteral("PENDING"));
        QCOMPARE(statusOf(*db, EventStore(*db).find(QStringLiteral("b"))->id), QStringLiteral("FAILED"));
        QCOMPARE(statusOf(*db, EventStore(*db).find(QStringLiteral("c"))->id), QStringLiteral("FAILED"));
        // The audit row keeps the filter as given.
        auto filter =
            db->scalar(QStringLiteral("SELECT filter FROM {audit} WHERE action = 'events.requeue'"));
        QVERIFY(filter.ok());
        const QJsonObject audited = QJsonDocument::fromJson(filter->toString().toUtf8()).object();
        QCOMPARE(audited.value(QStringLiteral("payload")).toArray().first().toString(),
                 QStringLiteral("customer.id=C-42"));
    }
};

QTEST_GUILESS_MAIN(TestEventSearch)
#include "tst_eventsearch.moc"
