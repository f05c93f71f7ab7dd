#include "core/db/FailureGroups.h"
#include "core/ops/AuditLog.h"
#include "core/ops/OperatorActions.h"
#include "tests/support/TestDatabases.h"

#include <QTest>

using namespace outbox;
using namespace outbox::test;

class TestFailureGroups : public QObject
{
    Q_OBJECT

private slots:
    void fingerprintNormalisesWhatDiffersPerEvent_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("expected");
        QTest::newRow("digits") << QStringLiteral("timeout after 30000 ms on partition 3")
                                << QStringLiteral("timeout after <n> ms on partition <n>");
        QTest::newRow("uuid") << QStringLiteral("order 8f14e45f-ceea-467f-a0e6-1b2c3d4e5f60 not found")
                              << QStringLiteral("order <uuid> not found");
        QTest::newRow("hex") << QStringLiteral("bad pointer 0xdeadbeef")
                             << QStringLiteral("bad pointer <hex>");
        QTest::newRow("spaces") << QStringLiteral("  a \n b  ") << QStringLiteral("a b");
    }
    void fingerprintNormalisesWhatDiffersPerEvent()
    {
        QFETCH(QString, text);
        QFETCH(QString, expected);
        QCOMPARE(FailureGroups::fingerprint(text), expected);
    }

    void groupsAndTheirIds_data() { TestDatabases::addKinds(); }
    void groupsAndTheirIds()
    {
        QFETCH(QString, kind);
        if (!TestDatabases::available(kind))
            QSKIP("server not configured");
        auto db = TestDatabases::fresh(kind, kind);
        const auto ids = insertEvents(*db, 12);
        // Five "schema" failures that differ only by number, three timeouts, one sent with an old error.
        for (int i = 0; i < 5; ++i)
            forceStatus(*db, {ids[i]}, QStringLiteral("FAILED"),
                        QStringLiteral("schema check failed for order %1").arg(100 + i));
        for (int i = 5; i < 8; ++i)
            forceStatus(*db, {ids[i]}, QStringLiteral("DEAD"),
                        QStringLiteral("timeout after %1 ms").arg(i * 1000));
        forceStatus(*db, {ids[8]}, QStringLiteral("SENT"), QStringLiteral("schema check failed for order 9"));
        QVERIFY(
            db->exec(QStringLiteral(
                         "UPDATE {events} SET last_error_class = 'deterministic' WHERE status = 'FAILED'"))
                .ok());

        auto groups = FailureGroups(*db).list();
        QVERIFY2(groups.ok(), qPrintable(groups.message()));
        QCOMPARE(groups->size(), 2);
        QCOMPARE(groups->at(0).count, qint64(5));
        QCOMPARE(groups->at(0).errorClass, QStringLiteral("deterministic"));
        QCOMPARE(groups->at(0).fingerprint, QStringLiteral("schema check failed for order <n>"));
        QCOMPARE(groups->at(1).count, qint64(3));
        QVERIFY(groups->at(1).errorClass.isEmpty());

        auto schema = FailureGroups(*db).ids(groups->at(0), 0, 100);
        QVERIFY(schema.ok());
        QCOMPARE(*schema, ids.mid(0, 5)); // the SENT row with the same text is not in the group
        auto firstTwo = FailureGroups(*db).ids(groups->at(0), 0, 2);
        QCOMPARE(firstTwo->size(), 2);
        auto timeouts = FailureGroups(*db).ids(groups->at(1), 0, 100);
        QCOMPARE(*timeouts, ids.mid(5, 3));
        QVERIFY(!FailureGroups(*db).ids(groups->at(0), 0, 0).ok());
    }

    // The inspector's audit history: entries whose target_ids contain the event's id.
    void auditHistoryOfOneTarget_data() { TestDatabases::addKinds(); }
    void auditHistoryOfOneTarget()
    {
        QFETCH(QString, kind);
        if (!TestDatabases::available(kind))
            QSKIP("server not configured");
        auto db = TestDatabases::fresh(kind, kind + QStringLiteral("_history"));
        const auto ids = insertEvents(*db, 12);
        forceStatus(*db, ids, QStringLiteral("FAILED"), QStringLiteral("x"));
        ActionRequest r;
        r.actor = QStringLiteral("tester");
        r.reason = QStringLiteral("first");
        r.ids = {ids[1], ids[10]};
        QVERIFY(OperatorActions(*db).requeue(r).ok());
        r.reason = QStringLiteral("second");
        r.ids = {ids[10]};
        QVERIFY(OperatorActions(*db).markDead(r).ok());
        AuditQuery q;
        q.targetKind = QStringLiteral("event");
        q.targetId = ids[10];
        auto history = AuditLog(*db).list(q);
        QVERIFY2(history.ok(), qPrintable(history.message()));
        QCOMPARE(history->size(), 2);
        QCOMPARE(history->at(0).reason, QStringLiteral("second"));
        q.targetId = ids[1];
        QCOMPARE(AuditLog(*db).list(q)->size(), 1);
        q.targetId = ids[0]; // "1" must not match "10" or "11"
        QCOMPARE(AuditLog(*db).list(q)->size(), 0);
    }
};

QTEST_MAIN(TestFailureGroups)
#include "tst_failuregroups.moc"
