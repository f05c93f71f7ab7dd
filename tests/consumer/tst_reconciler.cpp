#include "core/consumer/Reconciler.h"
#include "core/db/DeadLetterStore.h"
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

    // Issue 25 item 3: reconcile counts what the consumer should consume (its recorded topics, no
    // event whose dead letter the operator decided), in one database and across two.
    void countsOnlyTheConsumersTopicsAndUndecidedEvents_data() { TestDatabases::addKinds(); }
    void countsOnlyTheConsumersTopicsAndUndecidedEvents()
    {
        QFETCH(QString, kind);
        auto outbox = TestDatabases::fresh(kind, kind);
        auto separate = TestDatabases::fresh(QStringLiteral("sqlite"), QStringLiteral("scope_inbox_") + kind);
        for (Database* inbox : {outbox.get(), separate.get()}) {
            exec(*outbox, QStringLiteral("DELETE FROM {events}"));
            const Fixture f = build(*outbox, *inbox);
            // Of billing's 15 unconsumed (the odd ones of 1-30): #1 and #3 go to "payments".
            for (int i : {0, 2})
                exec(*outbox, QStringLiteral("UPDATE {events} SET sent_topic = 'payments' WHERE id = :id"),
                     {{QStringLiteral(":id"), f.ids.at(i)}});
            exec(*outbox,
                 QStringLiteral("UPDATE {events} SET sent_topic = 'orders' WHERE sent_topic IS NULL"));
            // #5: a dead letter billing's operator discarded; #7: discarded, then dead-lettered again.
            auto letter = [&](int i, const QString& status) {
                DeadLetter l;
                l.consumerName = QStringLiteral("billing");
                l.eventId = eventIdOf(*outbox, f.ids.at(i));
                l.topic = QStringLiteral("orders");
                l.payload = QByteArrayLiteral("{}");
                l.headers = QByteArrayLiteral("{}");
                l.error = QStringLiteral("boom");
                l.attempts = 1;
                auto id = DeadLetterStore(*inbox).insert(l);
                QVERIFY2(id.ok(), qPrintable(id.message()));
                exec(*inbox, QStringLiteral("UPDATE {dead_letters} SET status = :s WHERE id = :id"),
                     {{QStringLiteral(":s"), status}, {QStringLiteral(":id"), *id}});
            };
            letter(4, QStringLiteral("DISCARDED"));
            letter(6, QStringLiteral("DISCARDED"));
            letter(6, QStringLiteral("NEW"));
            ReconcileOptions o;
            o.consumerName = QStringLiteral("billing");
            o.chunkSize = 4;
            Database* other = inbox == outbox.get() ? nullptr : inbox;
            auto r = Reconciler(*outbox, other).run(o);
            QVERIFY2(r.ok(), qPrintable(r.message()));
            QCOMPARE(r->unconsumed, qint64(14)); // 15 - #5; every topic: none recorded
            QVERIFY(!r->topicsKnown);
            // The count alone (the Consumers page's, one anti-join in the same database) agrees.
            auto counted = Reconciler(*outbox, other).count(QStringLiteral("billing"), o.olderThanMs);
            QVERIFY2(counted.ok(), qPrintable(counted.message()));
            QCOMPARE(*counted, qint64(14));
            QVERIFY(
                InboxStore(*inbox).recordTopics(QStringLiteral("billing"), {QStringLiteral("orders")}).ok());
            r = Reconciler(*outbox, other).run(o);
            QVERIFY(r->topicsKnown);
            QCOMPARE(r->topics, QStringList{QStringLiteral("orders")});
            QCOMPARE(r->unconsumed, qint64(12)); // and not #1, #3 (payments)
            counted = Reconciler(*outbox, other).count(QStringLiteral("billing"), o.olderThanMs);
            QVERIFY2(counted.ok(), qPrintable(counted.message()));
            QCOMPARE(*counted, qint64(12));
            QVERIFY(!r->sampleIds.contains(f.ids.at(4)));
            QVERIFY(r->sampleIds.contains(f.ids.at(6)));
            exec(*inbox, QStringLiteral("DELETE FROM {dead_letters}"));
            exec(*inbox, QStringLiteral("DELETE FROM {consumer_counters}"));
            exec(*inbox, QStringLiteral("DELETE FROM {inbox}"));
        }
    }

    // `reconcile --list` lists every unconsumed event, a page at a time: each page's "more:" line
    // continues it, as printed, until every event was listed once.
    void listPagesThroughEveryEvent()
    {
        auto db = TestDatabases::fresh(QStringLiteral("sqlite"), QStringLiteral("cli_list"));
        const Fixture f = build(*db, *db);
        const QString url = TestDatabases::urlText(db->url());
        QSet<qint64> listed;
        QString command =
            QStringLiteral(
                "outboxctl reconcile --db '%1' --consumer billing --older-than 5m --list --limit 4")
                .arg(url);
        int pages = 0;
        while (!command.isEmpty()) {
            QVERIFY(++pages <= 5);
            const OutboxctlRun text = runPrintedCommand(command);
            QVERIFY2(text.exitCode == 0, text.err.constData());
            const QStringList lines =
                QString::fromUtf8(text.out).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
            QVERIFY(lines.first().contains(QLatin1String("not PROCESSED by consumer \"billing\"")));
            command.clear();
            for (const QString& line : lines.mid(1)) {
                if (line.startsWith(QLatin1String("more: "))) {
                    command =
                        QStringLiteral("outboxctl reconcile --db '%1' --consumer billing --older-than 5m "
                                       "--list --limit 4 %2")
                            .arg(url, line.mid(6));
                    continue;
                }
                bool ok = false;
                const qint64 id =
                    line.section(QLatin1Char(' '), 0, 0, QString::SectionSkipEmpty).toLongLong(&ok);
                if (ok) {
                    QVERIFY2(!listed.contains(id), qPrintable(line));
                    listed.insert(id);
                }
            }
        }
        QCOMPARE(pages, 4); // 15 events, 4 a page
        QCOMPARE(listed, f.expected);

        // JSON: the same pages through next_after_id, with each event's topic and times.
        QSet<qint64> viaJson;
        qint64 after = 0;
        do {
            const OutboxctlRun json = runOutboxctl(
                {QStringLiteral("reconcile"), QStringLiteral("--db"), url, QStringLiteral("--consumer"),
                 QStringLiteral("billing"), QStringLiteral("--list"), QStringLiteral("--limit"),
                 QStringLiteral("6"), QStringLiteral("--chunk"), QStringLiteral("5"),
                 QStringLiteral("--after-id"), QString::number(after), QStringLiteral("--json")},
                {}, 30000);
            QCOMPARE(json.exitCode, 0);
            const QJsonArray events = json.json().value(QStringLiteral("events")).toArray();
            QVERIFY(events.size() <= 6);
            for (const QJsonValue& v : events) {
                QVERIFY(!v.toObject().value(QStringLiteral("created_at")).toString().isEmpty());
                viaJson.insert(v.toObject().value(QStringLiteral("id")).toInteger());
            }
            after = json.json().value(QStringLiteral("next_after_id")).toInteger();
        } while (after > 0);
        QCOMPARE(viaJson, f.expected);

        const OutboxctlRun bad = runOutboxctl({QStringLiteral("reconcile"), QStringLiteral("--db"), url,
                                               QStringLiteral("--consumer"), QStringLiteral("billing"),
                                               QStringLiteral("--limit"), QStringLiteral("4")},
                                              {}, 30000);
        QCOMPARE(bad.exitCode, 2);
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
