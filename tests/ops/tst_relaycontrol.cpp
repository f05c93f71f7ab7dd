#include "core/ops/AuditLog.h"
#include "core/ops/RelayControl.h"
#include "tests/support/TestDatabases.h"

#include <QTest>

using namespace outbox;
using namespace outbox::test;

class TestRelayControl : public QObject
{
    Q_OBJECT

private slots:
    void pauseResumeDrainAreAudited_data() { TestDatabases::addKinds(); }
    void pauseResumeDrainAreAudited()
    {
        QFETCH(QString, kind);
        if (!TestDatabases::available(kind))
            QSKIP("server not configured");
        auto db = TestDatabases::fresh(kind, kind);
        QVERIFY(
            db->exec(QStringLiteral(
                         "INSERT INTO {relays} (worker_id, host, pid) VALUES ('r1', 'h', 1), ('r2', 'h', 2)"))
                .ok());
        RelayControl control(*db);

        auto paused =
            control.apply(RelayControl::Command::Pause, {QStringLiteral("r1"), QStringLiteral("ghost")},
                          QStringLiteral("maintenance"), QStringLiteral("alice"));
        QVERIFY2(paused.ok(), qPrintable(paused.message()));
        QCOMPARE(paused->action, QStringLiteral("relay.pause"));
        QCOMPARE(paused->changed, QStringList{QStringLiteral("r1")});
        QCOMPARE(paused->missing, QStringList{QStringLiteral("ghost")});
        QCOMPARE(countRows(*db, QStringLiteral("{relays}"), QStringLiteral("desired_state = 'PAUSE'")),
                 qint64(1));

        auto again = control.apply(RelayControl::Command::Pause, {QStringLiteral("r1")},
                                   QStringLiteral("again"), QStringLiteral("alice"));
        QVERIFY(again.ok());
        QVERIFY(again->changed.isEmpty());

        QVERIFY(control
                    .apply(RelayControl::Command::Drain, {QStringLiteral("r2")}, QStringLiteral("deploy"),
                           QStringLiteral("bob"))
                    .ok());
        QVERIFY(control
                    .apply(RelayControl::Command::Resume, {QStringLiteral("r1")}, QStringLiteral("done"),
                           QStringLiteral("alice"))
                    .ok());
        QCOMPARE(countRows(*db, QStringLiteral("{relays}"),
                           QStringLiteral("worker_id = 'r1' AND desired_state = 'RUN'")),
                 qint64(1));
        QCOMPARE(countRows(*db, QStringLiteral("{relays}"),
                           QStringLiteral("worker_id = 'r2' AND desired_state = 'DRAIN'")),
                 qint64(1));

        AuditQuery q;
        auto entries = AuditLog(*db).list(q);
        QVERIFY(entries.ok());
        QCOMPARE(entries->size(), 4);
        QCOMPARE(entries->at(0).action, QStringLiteral("relay.resume"));
        QCOMPARE(entries->at(0).targetKind, QStringLiteral("relay"));
        QCOMPARE(entries->at(0).reason, QStringLiteral("done"));
        QCOMPARE(entries->at(3).outcome, QStringLiteral("partial"));
        QCOMPARE(entries->at(2).outcome, QStringLiteral("none"));

        // Bad input changes nothing.
        QCOMPARE(control
                     .apply(RelayControl::Command::Pause, {QStringLiteral("r1")}, QStringLiteral("  "),
                            QStringLiteral("a"))
                     .error()
                     .kind,
                 ErrorKind::Usage);
        QCOMPARE(control.apply(RelayControl::Command::Pause, {}, QStringLiteral("x"), QStringLiteral("a"))
                     .error()
                     .kind,
                 ErrorKind::Usage);
        QCOMPARE(control
                     .apply(RelayControl::Command::Pause, {QStringLiteral("nobody")}, QStringLiteral("x"),
                            QStringLiteral("a"))
                     .error()
                     .kind,
                 ErrorKind::NotFound);
        QCOMPARE(countRows(*db, QStringLiteral("{audit}")), qint64(4));
    }
};

QTEST_MAIN(TestRelayControl)
#include "tst_relaycontrol.moc"
