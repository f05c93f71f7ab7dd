#include "core/consumer/Reconciler.h"
#include "core/db/InboxStore.h"
#include "core/metrics/MetricsQuery.h"
#include "tests/support/OutboxctlProcess.h"
#include "tests/support/TestDatabases.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QSet>
#include <QTest>

using namespace outbox;
using namespace outbox::test;

// Reconciliation finds exactly the events SENT long enough ago that a consumer never PROCESSED:
// in one database (anti-join), across two databases (event_id sets in chunks), through
// `outboxctl reconcile`, and as the unconsumed metric.
namespace {

struct Fixture
{
    QVector<qint64> ids;
    QSet<qint64> expected; // unconsumed by consumer "billing"
};

void setSentAt(Database& db, const QVector<qint64>& ids, qint64 agoMs)
{
    for (qint64 id : ids) {
        auto q = db.exec(QStringLiteral("UPDATE {events} SET status = 'SENT', sent_at = :t WHERE id = :id"),
                         {{QStringLiteral(":t"),
                           db.dialect().fromDateTime(QDateTime::currentDateTimeUtc().addMSecs(-agoMs))},
                          {QStringLiteral(":id"), id}});
        QVERIFY(q.ok());
    }
}

QString eventIdOf(Database& db, qint64 id)
{
    return db
        .scalar(QStringLiteral("SELECT event_id FROM {events} WHERE id = :id"), {{QStringLiteral(":id"), id}})
        ->toString();
}

// 40 events: 1-30 SENT 10 minutes ago, 31-35 SENT just now, 36-40 PENDING. "billing" processed the
// even ones of 1-30, has FAILED on #3; "shipping" processed #5. Unconsumed by billing after 5
// minutes: the odd ones of 1-30.
Fixture build(Database& outbox, Database& inbox)
{
    Fixture f;
    f.ids = insertEvents(outbox, 40);
    setSentAt(outbox, f.ids.mid(0, 30), 10 * 60 * 1000);
    setSentAt(outbox, f.ids.mid(30, 5), 0);
    for (int i = 0; i < 30; ++i) {
        const qint64 id = f.ids.at(i);
        if (i % 2 == 1) { // ids 2, 4, … (1-based even)
            if (!InboxStore(inbox)
                     .recordProcessed(eventIdOf(outbox, id), QStringLiteral("billing"), QString(), 1)
                     .value())
                qFatal("inbox");
        } else {
            f.expected.insert(id);
        }
    }
    (void)InboxStore(inbox).recordFailed(eventIdOf(outbox, f.ids.at(2)), QStringLiteral("billing"), QString(),
                                         3, QStringLiteral("boom"));
    (void)InboxStore(inbox).recordProcessed(eventIdOf(outbox, f.ids.at(4)), QStringLiteral("shipping"),
                                            QString(), 1);
    return f;
}

} // namespace

class TestReconciler : public QObject
{
    Q_OBJECT

private slots:
    void findsExactlyTheUnconsumedEvents_data() { TestDatabases::addKinds(); }
    void findsExactlyTheUnconsumedEvents()
    {
        QFETCH(QString, kind);
        auto db = TestDatabases::fresh(kind, kind);
        const Fixture f = build(*db, *db);
        for (int chunk : {1, 4, 7, 1000}) {
            ReconcileOptions o;
            o.consumerName = QStringLiteral("billing");
            o.olderThanMs = 5 * 60 * 1000;
            o.chunkSize = chunk;
            o.sampleSize = 100;
            auto r = Reconciler(*db).run(o);
            QVERIFY2(r.ok(), qPrintable(r.message()));
            QCOMPARE(r->scanned, qint64(30));
            QCOMPARE(r->unconsumed, qint64(f.expected.size()));
            QCOMPARE(QSet<qint64>(r->sampleIds.cbegin(), r->sampleIds.cend()), f.expected);
            QCOMPARE(r->chunks, (30 + chunk - 1) / chunk);
        }
        // A younger cut-off includes the events sent just now.
        ReconcileOptions all;
        all.consumerName = QStringLiteral("billing");
        all.olderThanMs = 0;
        auto r = Reconciler(*db).run(all);
        QCOMPARE(r->unconsumed, qint64(f.expected.size() + 5));
        all.consumerName = QStringLiteral("shipping");
        all.olderThanMs = 5 * 60 * 1000;
        QCOMPARE(Reconciler(*db).run(all)->unconsumed, qint64(29));
    }

    void acrossTwoDatabases_data() { TestDatabases::addKinds(); }
    void acrossTwoDatabases()
    {
        QFETCH(QString, kind);
        auto outbox = TestDatabases::fresh(kind, kind);
        // The consumer's own database: SQLite, with only the inbox table in use.
        auto inbox = TestDatabases::fresh(QStringLiteral("sqlite"), QStringLiteral("inbox_") + kind);
        const Fixture f = build(*outbox, *inbox);
        QCOMPARE(countRows(*outbox, QStringLiteral("{inbox}")), qint64(0));
        ReconcileOptions o;
        o.consumerName = QStringLiteral("billing");
        o.olderThanMs = 5 * 60 * 1000;
        o.chunkSize = 6;
        o.sampleSize = 3;
        auto r = Reconciler(*outbox, inbox.get()).run(o);
        QVERIFY2(r.ok(), qPrintable(r.message()));
        QVERIFY(r->separateInbox);
        QCOMPARE(r->unconsumed, qint64(f.expected.size()));
        QCOMPARE(r->sampleIds.size(), 3);
        for (qint64 id : r->sampleIds)
            QVERIFY(f.expected.contains(id));
        // The same question against the wrong database finds everything unconsumed.
        QCOMPARE(Reconciler(*outbox).run(o)->unconsumed, qint64(30));
    }

    void cliPrintsCountAndSample()
    {
        auto db = TestDatabases::fresh(QStringLiteral("sqlite"), QStringLiteral("cli"));
        auto inbox = TestDatabases::fresh(QStringLiteral("sqlite"), QStringLiteral("cli_inbox"));
        const Fixture f = build(*db, *inbox);
        const OutboxctlRun json = runOutboxctl(
            {QStringLiteral("reconcile"), QStringLiteral("--db"), TestDatabases::urlText(db->url()),
             QStringLiteral("--inbox-db"), TestDatabases::urlText(inbox->url()), QStringLiteral("--consumer"),
             QStringLiteral("billing"), QStringLiteral("--older-than"), QStringLiteral("5m"),
             QStringLiteral("--chunk"), QStringLiteral("4"), QStringLiteral("--json")},
            {}, 30000);
        QCOMPARE(json.exitCode, 0);
        const QJsonObject o = json.json();
        QCOMPARE(o.value(QStringLiteral("unconsumed")).toInteger(), qint64(f.expected.size()));
        QCOMPARE(o.value(QStringLiteral("sample")).toArray().size(), 15);
        QCOMPARE(o.value(QStringLiteral("sample"))
                     .toArray()
                     .first()
                     .toObject()
                     .value(QStringLiteral("id"))
                     .toInteger(),
                 f.ids.first());

        const OutboxctlRun text = runOutboxctl({QStringLiteral("reconcile"), QStringLiteral("--db"),
                                                TestDatabases::urlText(db->url()),
                                                QStringLiteral("--consumer"), QStringLiteral("billing")},
                                               {}, 30000);
        QCOMPARE(text.exitCode, 0);
        QVERIFY(text.out.startsWith("30 of 30 event(s) SENT more than"));

        const OutboxctlRun bad = runOutboxctl({QStringLiteral("reconcile"), QStringLiteral("--db"),
                                               TestDatabases::urlText(db->url()),
                                               QStringLiteral("--consumer"), QStringLiteral("billing"),
                                               QStringLiteral("--older-than"), QStringLiteral("yesterday")},
                                              {}, 30000);
        QCOMPARE(bad.exitCode, 2);
        QCOMPARE(bad.err.count('\n'), 1);
    }

    void unconsumedMetricIsBoundedAndPerConsumer_data() { TestDatabases::addKinds(); }
    void unconsumedMetricIsBoundedAndPerConsumer()
    {
        QFETCH(QString, kind);
        auto db = TestDatabases::fresh(kind, kind);
        const Fixture f = build(*db, *db);
        MetricsQuery plain(*db);
        auto none = plain.sample();
        QVERIFY(none.ok());
        QVERIFY(none->unconsumed.isEmpty()); // nothing configured: no extra query
        MetricsQuery query(*db);
        query.setUnconsumedConsumers({QStringLiteral("billing"), QStringLiteral("shipping")}, 5 * 60 * 1000,
                                     3600 * 1000);
        auto s = query.sample();
        QVERIFY2(s.ok(), qPrintable(s.message()));
        QCOMPARE(s->unconsumed.value(QStringLiteral("billing")), qint64(f.expected.size()));
        QCOMPARE(s->unconsumed.value(QStringLiteral("shipping")), qint64(29));
        QCOMPARE(s->toJson()
                     .value(QStringLiteral("unconsumed"))
                     .toObject()
                     .value(QStringLiteral("billing"))
                     .toInteger(),
                 qint64(f.expected.size()));
        // Events created before the window are not counted (the bound that keeps it cheap).
        QVERIFY(db->exec(QStringLiteral("UPDATE {events} SET created_at = :t"),
                         {{QStringLiteral(":t"),
                           db->dialect().fromDateTime(QDateTime::currentDateTimeUtc().addSecs(-7200))}})
                    .ok());
        QCOMPARE(query.sample()->unconsumed.value(QStringLiteral("billing")), qint64(0));
    }
};

QTEST_GUILESS_MAIN(TestReconciler)
#include "tst_reconciler.moc"
