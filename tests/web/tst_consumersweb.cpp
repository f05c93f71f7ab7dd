// GET /api/v1/consumers, GET /api/v1/inbox and the consumer metrics on /metrics over real HTTP,
// against PostgreSQL, MariaDB and SQLite and the embedded broker.
#include "core/broker/kafka/EmbeddedBroker.h"
#include "core/db/InboxStore.h"
#include "core/metrics/MetricsSampler.h"
#include "tests/support/ConsumerGroupKit.h"
#include "tests/support/TestDatabases.h"
#include "tests/web/HttpTestClient.h"
#include "ui/web/WebServer.h"
#include "ui/web/http/AccessControl.h"

#include <QElapsedTimer>
#include <QJsonArray>
#include <QJsonDocument>
#include <QSignalSpy>
#include <QTest>

using namespace outbox;
using namespace outbox::test;
using namespace outbox::web;

namespace {

const QByteArray ViewerSecret = "viewer-secret-for-tests";
const QByteArray OperatorSecret = "operator-secret-for-tests";

WebConfig testConfig()
{
    WebConfig c;
    c.port = 0;
    c.sampleIntervalMs = 200;
    c.tokens = {
        ApiToken{QStringLiteral("wallboard"), Role::Viewer, AccessControl::hashToken(ViewerSecret)},
        ApiToken{QStringLiteral("alice-ops"), Role::Operator, AccessControl::hashToken(OperatorSecret)}};
    c.maskedFields = {QStringLiteral("email")};
    return c;
}

} // namespace

class TestConsumersWeb : public QObject
{
    Q_OBJECT

private slots:
    void consumersInboxAndMetrics_data() { TestDatabases::addKinds(); }
    void consumersInboxAndMetrics()
    {
        QFETCH(QString, kind);
        auto db = TestDatabases::fresh(kind, TestDatabases::uniqueName(QStringLiteral("consumersweb")));
        InboxStore inbox(*db);
        for (int i = 0; i < 4; ++i)
            QVERIFY(inbox
                        .recordProcessed(QStringLiteral("e-%1").arg(i), QStringLiteral("inventory"),
                                         QStringLiteral("o-%1").arg(i), 1)
                        .value());
        QVERIFY(
            inbox.recordProcessed(QStringLiteral("e-0"), QStringLiteral("billing"), QString(), 1).value());
        QVERIFY(inbox
                    .recordFailed(QStringLiteral("e-9"), QStringLiteral("inventory"), QStringLiteral("o-9"),
                                  2, QStringLiteral("rejected email=bob@example.com"))
                    .ok());
        QVERIFY(inbox.countDuplicate(QStringLiteral("inventory")).ok());
        QVERIFY(inbox.countDuplicate(QStringLiteral("inventory")).ok());

        auto broker = EmbeddedBroker::start(1);
        QVERIFY(broker.ok());
        QVERIFY((*broker)->createTopic(QStringLiteral("order"), 2).ok());
        QVERIFY(produceToPartitions((*broker)->bootstrap(), QStringLiteral("order"), {{0, 5}, {1, 2}}));
        QVERIFY(commitGroupOffsets((*broker)->bootstrap(), QStringLiteral("inventory"),
                                   QStringLiteral("order"), {{0, 3}, {1, 2}}));

        WebConfig config = testConfig();
        config.consumerLag.bootstrap = (*broker)->bootstrap();
        WebServer server(config, DatabaseTarget(db->url(), QString()));
        QVERIFY(server.start().ok());
        HttpTestClient http(server.baseUrl());

        QCOMPARE(http.get(QStringLiteral("/api/v1/consumers")).status, 401);
        QCOMPARE(http.get(QStringLiteral("/api/v1/inbox")).status, 401);

        const auto consumers = http.get(QStringLiteral("/api/v1/consumers"), ViewerSecret);
        QCOMPARE(consumers.status, 200);
        QJsonObject inventory;
        QStringList names;
        for (const QJsonValue& v : consumers.json().value(QStringLiteral("consumers")).toArray()) {
            names << v.toObject().value(QStringLiteral("consumer")).toString();
            if (names.last() == QLatin1String("inventory"))
                inventory = v.toObject();
        }
        QCOMPARE(names, (QStringList{QStringLiteral("billing"), QStringLiteral("inventory")}));
        QCOMPARE(inventory.value(QStringLiteral("processed")).toInteger(), qint64(4));
        QCOMPARE(inventory.value(QStringLiteral("failed")).toInteger(), qint64(1));
        QCOMPARE(inventory.value(QStringLiteral("duplicates")).toInteger(), qint64(2));
        const QJsonArray lag = inventory.value(QStringLiteral("lag")).toArray();
        QCOMPARE(lag.size(), 2);
        QCOMPARE(lag.at(0).toObject().value(QStringLiteral("lag")).toInteger(), qint64(2));
        QCOMPARE(lag.at(1).toObject().value(QStringLiteral("lag")).toInteger(), qint64(0));
        QCOMPARE(http.get(QStringLiteral("/api/v1/consumers?reconcile=maybe"), ViewerSecret).status, 400);
        QCOMPARE(http.get(QStringLiteral("/api/v1/consumers?bogus=1"), ViewerSecret).status, 400);

        // The inbox browser: exact filters, masked errors for viewers, keyset pages.
        const auto failed =
            http.get(QStringLiteral("/api/v1/inbox?consumer=inventory&status=FAILED"), ViewerSecret);
        QCOMPARE(failed.status, 200);
        const QJsonArray rows = failed.json().value(QStringLiteral("inbox")).toArray();
        QCOMPARE(rows.size(), 1);
        QCOMPARE(rows.first().toObject().value(QStringLiteral("event_id")).toString(), QStringLiteral("e-9"));
        QVERIFY(!rows.first()
                     .toObject()
                     .value(QStringLiteral("last_error"))
                     .toString()
                     .contains(QStringLiteral("bob@example.com")));
        const auto asOperator =
            http.get(QStringLiteral("/api/v1/inbox?consumer=inventory&status=FAILED"), OperatorSecret);
        QVERIFY(asOperator.json()
                    .value(QStringLiteral("inbox"))
                    .toArray()
                    .first()
                    .toObject()
                    .value(QStringLiteral("last_error"))
                    .toString()
                    .contains(QStringLiteral("bob@example.com")));
        QCOMPARE(http.get(QStringLiteral("/api/v1/inbox?event_id=e-0"), ViewerSecret)
                     .json()
                     .value(QStringLiteral("inbox"))
                     .toArray()
                     .size(),
                 2);
        QCOMPARE(http.get(QStringLiteral("/api/v1/inbox?consumer=inv"), ViewerSecret)
                     .json()
                     .value(QStringLiteral("inbox"))
                     .toArray()
                     .size(),
                 0);
        QCOMPARE(http.get(QStringLiteral("/api/v1/inbox?status=DONE"), ViewerSecret).status, 400);
        const auto page = http.get(QStringLiteral("/api/v1/inbox?limit=4"), ViewerSecret);
        QCOMPARE(page.json().value(QStringLiteral("inbox")).toArray().size(), 4);
        const qint64 cursor = page.json().value(QStringLiteral("next_after_id")).toInteger();
        QVERIFY(cursor > 0);
        const auto rest =
            http.get(QStringLiteral("/api/v1/inbox?limit=4&after_id=%1").arg(cursor), ViewerSecret);
        QCOMPARE(rest.json().value(QStringLiteral("inbox")).toArray().size(), 2);

        // /metrics: processed and duplicates per consumer, lag per partition.
        QSignalSpy spy(&server, &WebServer::snapshotPublished);
        server.sampler().sampleNow();
        QElapsedTimer t;
        t.start();
        QByteArray metrics;
        while (t.elapsed() < 20000) {
            spy.wait(200);
            metrics = http.get(QStringLiteral("/metrics"), ViewerSecret).body;
            if (metrics.contains("outbox_consumer_lag{"))
                break;
        }
        QVERIFY2(metrics.contains("outbox_consumer_processed_total{consumer=\"inventory\"} 4\n"),
                 metrics.constData());
        QVERIFY(metrics.contains("outbox_consumer_processed_total{consumer=\"billing\"} 1\n"));
        QVERIFY(metrics.contains("outbox_consumer_duplicates_total{consumer=\"inventory\"} 2\n"));
        QVERIFY2(metrics.contains(
                     "outbox_consumer_lag{consumer=\"inventory\",topic=\"order\",partition=\"0\"} 2\n"),
                 metrics.constData());
        QVERIFY(metrics.contains(
            "outbox_consumer_lag{consumer=\"inventory\",topic=\"order\",partition=\"1\"} 0\n"));
        QVERIFY(!metrics.contains("outbox_consumer_lag{consumer=\"billing\"")); // never committed
    }
};

QTEST_GUILESS_MAIN(TestConsumersWeb)
#include "tst_consumersweb.moc"
