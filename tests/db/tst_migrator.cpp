#include "core/db/DeadLetterStore.h"
#include "core/db/EventStore.h"
#include "core/db/EventWriter.h"
#include "core/db/Migrator.h"
#include "tests/support/TestDatabases.h"

#include <QSignalSpy>
#include <QSqlDriver>
#include <QTest>

using namespace outbox;
using namespace outbox::test;

class TestMigrator : public QObject
{
    Q_OBJECT

private slots:
    // migrate --check: what a writer's CI asks before it deploys (docs/contract.md, "Schema version").
    void checkTellsWhetherTheExpectedSchemaIsThere_data() { TestDatabases::addKinds(); }
    void checkTellsWhetherTheExpectedSchemaIsThere()
    {
        QFETCH(QString, kind);
        auto db = TestDatabases::open(TestDatabases::create(kind, TestDatabases::uniqueName(kind)));
        Migrator migrator(*db);
        auto empty = migrator.check();
        QVERIFY2(empty.ok(), qPrintable(empty.message()));
        QVERIFY(!empty->ok);
        QCOMPARE(empty->currentVersion, 0);
        QCOMPARE(empty->expectedVersion, migrator.latestVersion());
        QVERIFY2(empty->message.contains(QLatin1String("has no outbox schema")), qPrintable(empty->message));
        QVERIFY(migrator.migrate().ok());
        auto latest = migrator.check();
        QVERIFY(latest->ok);
        QVERIFY2(latest->message.endsWith(QLatin1String(": ok")), qPrintable(latest->message));
        QVERIFY(migrator.check(1)->ok); // an older writer keeps working on a newer schema
        auto newer = migrator.check(migrator.latestVersion() + 1);
        QVERIFY(!newer->ok);
        QVERIFY2(newer->message.contains(QLatin1String("run outboxctl migrate")), qPrintable(newer->message));
        QVERIFY2(
            newer->message.contains(QStringLiteral("this one knows up to %1").arg(migrator.latestVersion())),
            qPrintable(newer->message));
    }

    void createsEveryTableAndIsIdempotent_data() { TestDatabases::addKinds(); }
    void createsEveryTableAndIsIdempotent()
    {
        QFETCH(QString, kind);
        auto db = TestDatabases::open(TestDatabases::create(kind, TestDatabases::uniqueName(kind)));
        Migrator migrator(*db);
        auto before = migrator.currentVersion();
        QVERIFY(before.ok());
        QCOMPARE(*before, 0);

        auto first = migrator.migrate();
        QVERIFY2(first.ok(), qPrintable(first.message()));
        QVector<int> all;
        for (const Migration& m : db->dialect().migrations())
            all << m.version;
        QCOMPARE(first->applied, all);
        QVERIFY(all.contains(5));
        QCOMPARE(first->currentVersion, migrator.latestVersion());

        const QStringList tables = db->handle().tables();
        for (const char* t : {"outbox_events", "inbox_events", "dead_letters", "outbox_audit_log",
                              "outbox_relays", "outbox_schema_migrations"})
            QVERIFY2(tables.contains(QLatin1String(t)), t);

        auto second = migrator.migrate();
        QVERIFY2(second.ok(), qPrintable(second.message()));
        QVERIFY(second->applied.isEmpty());
        QCOMPARE(countRows(*db, QStringLiteral("{migrations}")), qint64(db->dialect().migrations().size()));
    }

    // A database created by the previous release (schema version 4) with a dead letter left
    // REPLAYING: the upgrade adds the replay lease/backoff and exact-bytes columns, and the row
    // is read, claimed and delivered as any other.
    void upgradesAVersion4DatabaseWithDeadLetters_data() { TestDatabases::addKinds(); }
    void upgradesAVersion4DatabaseWithDeadLetters()
    {
        QFETCH(QString, kind);
        auto db = TestDatabases::open(TestDatabases::create(kind, TestDatabases::uniqueName(kind)));
        const Dialect& d = db->dialect();
        QVERIFY(db->exec(QStringLiteral("CREATE TABLE {migrations} (version INTEGER PRIMARY KEY, description "
                                        "VARCHAR(255) NOT NULL, applied_at VARCHAR(40) NOT NULL)"))
                    .ok());
        for (const Migration& m : d.migrations()) {
            if (m.version > 4)
                continue;
            for (const QString& statement : m.statements) {
                auto q = db->exec(statement);
                QVERIFY2(q.ok(), qPrintable(q.message()));
            }
            QVERIFY(
                db->exec(QStringLiteral("INSERT INTO {migrations} (version, description, applied_at) VALUES "
                                        "(:v, 'old', 'then')"),
                         {{QStringLiteral(":v"), m.version}})
                    .ok());
        }
        QVERIFY(db->exec(QStringLiteral(
                             "INSERT INTO {dead_letters} (consumer_name, event_id, topic, message_key, "
                             "headers, payload, error, status, replay_token, replayed_by) VALUES "
                             "('inventory', 'old-1', 'order', 'k', %1, '{\"n\":1}', 'boom', "
                             "'REPLAYING', 'token-1', 'carol')")
                             .arg(d.jsonValue(QStringLiteral("'{\"schema_version\":\"1\"}'"))))
                    .ok());
        Migrator migrator(*db);
        QCOMPARE(migrator.currentVersion().value(), 4);
        auto report = migrator.migrate();
        QVERIFY2(report.ok(), qPrintable(report.message()));
        QVERIFY(report->applied.contains(5));
        QCOMPARE(report->currentVersion, migrator.latestVersion());

        DeadLetterStore store(*db);
        ReplayClaimRequest request;
        request.workerId = QStringLiteral("upgraded");
        auto claim = store.claimReplays(request);
        QVERIFY2(claim.ok(), qPrintable(claim.message()));
        QCOMPARE(claim->letters.size(), 1);
        const DeadLetter& l = claim->letters.first();
        QCOMPARE(l.eventId, QStringLiteral("old-1"));
        QCOMPARE(l.replayAttempts, 1);
        QCOMPARE(l.payload, QByteArray("{\"n\":1}"));
        QCOMPARE(l.exactKey(), QByteArray("k"));
        QCOMPARE(l.exactHeaders(), (QVector<DeadLetter::Header>{{"schema_version", "1"}}));
        QVERIFY(l.storageNote.isEmpty() && l.payloadIsText);
        QCOMPARE(store.markReplayed(l.id, claim->leaseToken).value(), true);
    }

    // Migration 6 on a database created at version 5 with events in every state: the indexes
    // change, the rows stay, and the relay's claim and mark work on the upgraded table.
    void upgradesAVersion5DatabaseWithEvents_data() { TestDatabases::addKinds(); }
    void upgradesAVersion5DatabaseWithEvents()
    {
        QFETCH(QString, kind);
        auto db = TestDatabases::open(TestDatabases::create(kind, TestDatabases::uniqueName(kind)));
        const Dialect& d = db->dialect();
        QVERIFY(db->exec(QStringLiteral("CREATE TABLE {migrations} (version INTEGER PRIMARY KEY, description "
                                        "VARCHAR(255) NOT NULL, applied_at VARCHAR(40) NOT NULL)"))
                    .ok());
        for (const Migration& m : d.migrations()) {
            if (m.version > 5)
                continue;
            for (const QString& statement : m.statements) {
                auto q = db->exec(statement);
                QVERIFY2(q.ok(), qPrintable(q.message()));
            }
            QVERIFY(
                db->exec(QStringLiteral("INSERT INTO {migrations} (version, description, applied_at) VALUES "
                                        "(:v, 'old', 'then')"),
                         {{QStringLiteral(":v"), m.version}})
                    .ok());
        }
        QVERIFY(db->beginWrite().ok());
        QVector<NewEvent> events;
        for (int i = 0; i < 30; ++i) {
            NewEvent e;
            e.eventType = QStringLiteral("OrderCreated");
            e.aggregateType = QStringLiteral("Order");
            e.aggregateId = QStringLiteral("O%1").arg(i);
            e.payload = QByteArrayLiteral("{\"n\":1}");
            events << e;
        }
        QVERIFY(EventWriter(*db).appendBatch(events).ok());
        QVERIFY(db->commit().ok());
        QVERIFY(
            db->exec(QStringLiteral("UPDATE {events} SET status = 'FAILED', last_error = 'boom' WHERE id <= "
                                    "(SELECT MIN(id) + 4 FROM (SELECT id FROM {events}) x)"))
                .ok());
        EventStore store(*db);
        auto before = store.claim(QStringLiteral("old-relay"), 5, 60000);
        QVERIFY2(before.ok(), qPrintable(before.message()));
        QCOMPARE(before->events.size(), 5);

        Migrator migrator(*db);
        QCOMPARE(migrator.currentVersion().value(), 5);
        auto report = migrator.migrate();
        QVERIFY2(report.ok(), qPrintable(report.message()));
        QVERIFY(report->applied.contains(6));
        QCOMPARE(report->currentVersion, migrator.latestVersion());

        auto counts = store.counts();
        QVERIFY(counts.ok());
        QCOMPARE(counts->byStatus.value(QStringLiteral("FAILED")), qint64(5));
        QCOMPARE(counts->byStatus.value(QStringLiteral("SENDING")), qint64(5));
        QCOMPARE(counts->byStatus.value(QStringLiteral("PENDING")), qint64(20));
        // The lease taken before the upgrade still fences: the old relay marks its own events.
        QVector<SentMark> marks;
        for (const OutboxEvent& e : before->events)
            marks << SentMark{e.id, 1, e.id};
        auto marked = store.markSent(before->leaseToken, marks);
        QVERIFY2(marked.ok(), qPrintable(marked.message()));
        QCOMPARE(marked->updated, 5);
        QVERIFY(marked->fenced.isEmpty());
        auto after = store.claim(QStringLiteral("new-relay"), 100, 60000);
        QVERIFY2(after.ok(), qPrintable(after.message()));
        QCOMPARE(after->events.size(), 20);
        if (kind == QLatin1String("postgresql")) {
            auto options = db->scalar(QStringLiteral("SELECT array_to_string(reloptions, ',') FROM pg_class "
                                                     "WHERE oid = 'outbox_events'::regclass"));
            QVERIFY(options.ok());
            QVERIFY2(options->toString().contains(QStringLiteral("autovacuum_vacuum_scale_factor=0.01")),
                     qPrintable(options->toString()));
            auto aggregate = db->scalar(QStringLiteral(
                "SELECT indexdef FROM pg_indexes WHERE indexname = 'outbox_events_aggregate_idx'"));
            QVERIFY(aggregate.ok());
            QVERIFY2(aggregate->toString().contains(QStringLiteral("USING hash (aggregate_id)")),
                     qPrintable(aggregate->toString()));
        }
    }

    void createsTheIndexesTheClaimAndBrowserNeed_data() { TestDatabases::addKinds(); }
    void createsTheIndexesTheClaimAndBrowserNeed()
    {
        QFETCH(QString, kind);
        auto db = TestDatabases::fresh(kind, kind);
        QString sql;
        if (kind == QLatin1String("postgresql"))
            sql = QStringLiteral(
                "SELECT indexname || ' ' || indexdef FROM pg_indexes WHERE tablename = 'outbox_events'");
        else if (kind == QLatin1String("mysql"))
            sql = QStringLiteral("SELECT DISTINCT INDEX_NAME FROM information_schema.STATISTICS WHERE "
                                 "TABLE_SCHEMA = DATABASE() "
                                 "AND TABLE_NAME = 'outbox_events'");
        else
            sql = QStringLiteral("SELECT name || ' ' || sql FROM sqlite_master WHERE type = 'index' AND "
                                 "tbl_name = 'outbox_events' "
                                 "AND sql IS NOT NULL");
        auto q = db->exec(sql);
        QVERIFY(q.ok());
        QStringList indexes;
        while (q->next())
            indexes << q->value(0).toString();
        const QString all = indexes.join(QLatin1Char('\n'));
        QVERIFY2(all.contains(QStringLiteral("aggregate_idx")), qPrintable(all));
        if (kind == QLatin1String("mysql")) {
            QVERIFY2(all.contains(QStringLiteral("outbox_events_status_id_idx")), qPrintable(all));
            // Migration 17: one sampler index instead of migration 4's two.
            QVERIFY2(all.contains(QStringLiteral("outbox_events_sampler_idx")), qPrintable(all));
            QVERIFY2(!all.contains(QStringLiteral("outbox_events_status_worker_idx")), qPrintable(all));
            QVERIFY2(!all.contains(QStringLiteral("outbox_events_status_attempts_idx")), qPrintable(all));
        } else {
            QVERIFY2(all.contains(QStringLiteral("pending_idx")) && all.contains(QStringLiteral("WHERE")),
                     qPrintable(all));
            QVERIFY2(all.contains(QStringLiteral("lease_holders_idx")), qPrintable(all));
        }
        // Migration 6: no index duplicates another on the relay's path.
        QVERIFY2(!all.contains(QStringLiteral("sending_idx")), qPrintable(all));
        QVERIFY2(!all.contains(QStringLiteral("claim_idx")), qPrintable(all));
        QVERIFY2(!all.contains(QStringLiteral("outbox_events_lease_idx")), qPrintable(all));
        if (kind == QLatin1String("postgresql")) {
            QVERIFY2(!all.contains(QStringLiteral("unsent_attempts_idx")), qPrintable(all));
            QVERIFY2(all.contains(QStringLiteral("USING brin (created_at)")), qPrintable(all));
            QVERIFY2(all.contains(QStringLiteral("INCLUDE (attempts) WHERE (status = 'PENDING'")),
                     qPrintable(all));
            // Migration 10: the aggregate lookups through a hash index, not a B-tree every relay
            // update writes at a random leaf.
            QVERIFY2(all.contains(QStringLiteral("outbox_events_aggregate_idx CREATE INDEX "
                                                 "outbox_events_aggregate_idx ON public.outbox_events "
                                                 "USING hash (aggregate_id)")),
                     qPrintable(all));
        }
    }

    void auditLogRefusesUpdateAndDelete_data() { TestDatabases::addKinds(); }
    void auditLogRefusesUpdateAndDelete()
    {
        QFETCH(QString, kind);
        auto db = TestDatabases::fresh(kind, kind);
        auto insert = db->exec(
            QStringLiteral("INSERT INTO {audit} (at, actor, host, action, target_kind, target_ids, reason, "
                           "affected_count, outcome) VALUES (%1, 'alice', 'h', 'events.requeue', 'event', "
                           "%2, 'test', 1, 'ok')")
                .arg(db->dialect().now(), db->dialect().jsonValue(QStringLiteral("'[1]'"))));
        QVERIFY2(insert.ok(), qPrintable(insert.message()));
        auto update = db->exec(QStringLiteral("UPDATE {audit} SET reason = 'rewritten'"));
        QVERIFY(!update.ok());
        QVERIFY2(update.message().contains(QStringLiteral("append-only")), qPrintable(update.message()));
        auto del = db->exec(QStringLiteral("DELETE FROM {audit}"));
        QVERIFY(!del.ok());
        QVERIFY2(del.message().contains(QStringLiteral("append-only")), qPrintable(del.message()));
        QCOMPARE(countRows(*db, QStringLiteral("{audit}"), QStringLiteral("reason = 'test'")), qint64(1));
    }

    // The trigger is there but off on a new database (issue 42: nothing in the writers' commits takes
    // the notification lock); switched on, an INSERT notifies.
    void postgresNotifiesOnInsertOnlyWhenSwitchedOn()
    {
        if (!TestDatabases::available(QStringLiteral("postgresql")))
            QSKIP("no PostgreSQL test server configured");
        auto db = TestDatabases::fresh(QStringLiteral("postgresql"), QStringLiteral("notify"));
        auto listener = TestDatabases::open(db->url(), QStringLiteral("listener"));
        QSqlDriver* driver = listener->handle().driver();
        QVERIFY(driver->subscribeToNotification(QStringLiteral("outbox_events")));
        QSignalSpy spy(driver, &QSqlDriver::notification);
        insertEvents(*db, 3);
        QTest::qWait(1000);
        QCOMPARE(spy.count(), 0);
        QVERIFY(db->exec(QStringLiteral("ALTER TABLE {events} ENABLE TRIGGER %1")
                             .arg(db->dialect().newEventsTrigger()))
                    .ok());
        insertEvents(*db, 3, QStringLiteral("OrderCreated"), QStringLiteral("second-"));
        QTRY_VERIFY_WITH_TIMEOUT(spy.count() >= 1, 5000);
        QCOMPARE(spy.first().at(0).toString(), QStringLiteral("outbox_events"));
    }

    void refusesASchemaNewerThanItKnows()
    {
        auto db = TestDatabases::fresh(QStringLiteral("sqlite"), QStringLiteral("newer"));
        QVERIFY(
            db
                ->exec(QStringLiteral(
                    "INSERT INTO {migrations} (version, description, applied_at) VALUES (99, 'future', 'x')"))
                .ok());
        auto report = Migrator(*db).migrate();
        QVERIFY(!report.ok());
        QVERIFY2(report.message().contains(QStringLiteral("newer")), qPrintable(report.message()));
    }

    void tablePrefixIsApplied()
    {
        auto url = TestDatabases::create(QStringLiteral("sqlite"),
                                         TestDatabases::uniqueName(QStringLiteral("prefix")));
        Database::Options options;
        options.tablePrefix = QStringLiteral("billing_");
        auto db = Database::open(url, options);
        QVERIFY(db.ok());
        QVERIFY(Migrator(**db).migrate().ok());
        QVERIFY((*db)->handle().tables().contains(QStringLiteral("billing_outbox_events")));
        options.tablePrefix = QStringLiteral("x; DROP TABLE y");
        auto bad = Database::open(url, options);
        QVERIFY(!bad.ok());
        QCOMPARE(bad.error().kind, ErrorKind::Usage);
    }
};

QTEST_GUILESS_MAIN(TestMigrator)
#include "tst_migrator.moc"
