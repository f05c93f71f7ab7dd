#include "core/broker/kafka/EmbeddedBroker.h"
#include "core/db/Database.h"
#include "core/db/ReplicationDoorbell.h"
#include "tests/support/NotifyingWriters.h"
#include "tests/support/OutboxctlProcess.h"
#include "tests/support/TestDatabases.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTest>
#include <memory>
#include <vector>

using namespace outbox;
using namespace outbox::test;

// `outboxctl notify [show|on|off]` on the fixture servers: the wake-up trigger off by default and
// switched by the real command, what a LISTENing connection then receives, migration 19 on an old
// database, the doctor's notify-lock-wait finding against real notifying writers, a real `outboxctl
// relay` that keeps delivering by polling, the audit rows, a runtime role refused, SQLite without a
// trigger (issue 42).
namespace {

QStringList dbArgs(const Database& db)
{
    return {QStringLiteral("--db"), TestDatabases::urlText(db.url())};
}

OutboxctlRun notify(const QStringList& args, const Database& db, const QProcessEnvironment& env = {})
{
    return runOutboxctl(QStringList{QStringLiteral("notify")} + args + dbArgs(db), env, 60000);
}

// tgenabled of the trigger as PostgreSQL keeps it: O fires, D is disabled.
QString triggerFlag(Database& db)
{
    auto v = db.scalar(QStringLiteral("SELECT tgenabled::text FROM pg_trigger WHERE tgname = :t"),
                       {{QStringLiteral(":t"), db.dialect().newEventsTrigger()}});
    return v ? v->toString() : QStringLiteral("error: ") + v.message();
}

// Notifications a LISTENing connection receives within `ms` after an INSERT of one event.
int notificationsAfterInsert(Database& writer, Database& listener, int ms)
{
    int received = 0;
    QObject context;
    listener.onNotification(&context, [&] { ++received; });
    insertEvents(writer, 1);
    QElapsedTimer t;
    t.start();
    while (t.elapsed() < ms && received == 0)
        QTest::qWait(20);
    return received;
}

// The doctor's notify-lock-wait findings (JSON), and its exit code.
QJsonArray lockWaitFindings(const Database& db, int* exitCode = nullptr)
{
    const OutboxctlRun run =
        runOutboxctl(QStringList{QStringLiteral("doctor"), QStringLiteral("--check"),
                                 QStringLiteral("notify-lock-wait"), QStringLiteral("--json")} +
                     dbArgs(db));
    if (exitCode)
        *exitCode = run.exitCode;
    return run.json().value(QStringLiteral("findings")).toArray();
}

bool postgres()
{
    return TestDatabases::available(QStringLiteral("postgresql"));
}

} // namespace

class TestNotifyCommand : public QObject
{
    Q_OBJECT

private slots:
    // Off by default (issue 42): nothing in a writer's transaction takes the notification lock. On is
    // the audited opt-in, off the audited way back; status and the command say which it is.
    void offByDefaultOnIsTheOptInAndBothAreAudited()
    {
        if (!postgres())
            QSKIP("no PostgreSQL test server configured");
        auto db = TestDatabases::fresh(QStringLiteral("postgresql"), QStringLiteral("notify"));
        auto listener = TestDatabases::open(db->url());
        QVERIFY(listener->listenForNewEvents());

        const OutboxctlRun shown = notify({QStringLiteral("--json")}, *db);
        QVERIFY2(shown.exitCode == 0, shown.err.constData());
        QCOMPARE(shown.json().value(QStringLiteral("notifications")).toString(), QStringLiteral("off"));
        QCOMPARE(shown.json().value(QStringLiteral("may_switch")).toBool(), true);
        QVERIFY(shown.json().value(QStringLiteral("last_switch")).isNull()); // a new database: no switch
        QCOMPARE(triggerFlag(*db), QStringLiteral("D"));
        QCOMPARE(notificationsAfterInsert(*db, *listener, 1500), 0);
        QCOMPARE(countRows(*db, QStringLiteral("{audit}")), qint64(0));
        const OutboxctlRun statusOff =
            runOutboxctl(QStringList{QStringLiteral("status"), QStringLiteral("--json")} + dbArgs(*db));
        QCOMPARE(statusOff.json().value(QStringLiteral("notifications")).toString(), QStringLiteral("off"));
        QCOMPARE(lockWaitFindings(*db).size(), 0);

        // A reason is required; without --yes and no terminal nothing changes.
        const OutboxctlRun noReason = notify({QStringLiteral("on"), QStringLiteral("--yes")}, *db);
        QCOMPARE(noReason.exitCode, 2);
        const OutboxctlRun unconfirmed =
            notify({QStringLiteral("on"), QStringLiteral("--reason"), QStringLiteral("x")}, *db);
        QCOMPARE(unconfirmed.exitCode, 2);
        QCOMPARE(triggerFlag(*db), QStringLiteral("D"));

        const QString reason = QStringLiteral("one writer, lowest idle latency (INC-7)");
        const OutboxctlRun on = notify({QStringLiteral("on"), QStringLiteral("--reason"), reason,
                                        QStringLiteral("--yes"), QStringLiteral("--json")},
                                       *db);
        QVERIFY2(on.exitCode == 0, on.err.constData());
        QCOMPARE(on.json().value(QStringLiteral("changed")).toBool(), true);
        QCOMPARE(on.json().value(QStringLiteral("notifications")).toString(), QStringLiteral("on"));
        QCOMPARE(triggerFlag(*db), QStringLiteral("O"));
        QVERIFY(notificationsAfterInsert(*db, *listener, 5000) > 0);
        QCOMPARE(countRows(*db, QStringLiteral("{audit}"),
                           QStringLiteral("action = 'notify.on' AND target_kind = 'table' AND reason = '%1'")
                               .arg(reason)),
                 qint64(1));

        // On again: says so, exit 0, nothing written.
        const OutboxctlRun again =
            notify({QStringLiteral("on"), QStringLiteral("--reason"), reason, QStringLiteral("--yes")}, *db);
        QCOMPARE(again.exitCode, 0);
        QVERIFY2(again.out.contains("already on"), again.out.constData());
        QCOMPARE(countRows(*db, QStringLiteral("{audit}")), qint64(1));
        const OutboxctlRun status = notify({}, *db);
        QCOMPARE(status.exitCode, 0);
        QVERIFY2(status.out.contains("notifications: on") && status.out.contains(reason.toUtf8()),
                 status.out.constData());
        const OutboxctlRun overview = runOutboxctl(QStringList{QStringLiteral("status")} + dbArgs(*db));
        QCOMPARE(overview.exitCode, 0);
        QVERIFY2(overview.out.contains("notifications   on (opt-in)"), overview.out.constData());

        const OutboxctlRun off = notify({QStringLiteral("off"), QStringLiteral("--reason"),
                                         QStringLiteral("back to the default"), QStringLiteral("--yes")},
                                        *db);
        QVERIFY2(off.exitCode == 0, off.err.constData());
        QCOMPARE(triggerFlag(*db), QStringLiteral("D"));
        QCOMPARE(notificationsAfterInsert(*db, *listener, 1500), 0);
        QCOMPARE(countRows(*db, QStringLiteral("{audit}"),
                           QStringLiteral("action = 'notify.off' AND reason = 'back to the default'")),
                 qint64(1));
        // Off is the default, not a fault: the doctor is clean.
        int doctorExit = -1;
        QCOMPARE(lockWaitFindings(*db, &doctorExit).size(), 0);
        QCOMPARE(doctorExit, 0);
    }

    // A database migrated before issue 42 has the trigger enabled: `outboxctl migrate` switches it
    // off (migration 19) and writes the audit row a `notify off` writes, once.
    void oldTriggerIsMigratedToTheDefaultAudited()
    {
        if (!postgres())
            QSKIP("no PostgreSQL test server configured");
        auto db = TestDatabases::fresh(QStringLiteral("postgresql"), QStringLiteral("notifymig"));
        // The state a database migrated up to version 17 is in.
        QVERIFY(db->exec(QStringLiteral("ALTER TABLE {events} ENABLE TRIGGER %1")
                             .arg(db->dialect().newEventsTrigger()))
                    .ok());
        QVERIFY(db->exec(QStringLiteral("DELETE FROM {migrations} WHERE version >= 19")).ok());
        QVERIFY(db->exec(QStringLiteral("DROP PUBLICATION IF EXISTS %1")
                             .arg(ReplicationDoorbell::publication(db->dialect())))
                    .ok());
        QCOMPARE(triggerFlag(*db), QStringLiteral("O"));

        const OutboxctlRun migrated = runOutboxctl(QStringList{QStringLiteral("migrate")} + dbArgs(*db));
        QVERIFY2(migrated.exitCode == 0, migrated.err.constData());
        QCOMPARE(triggerFlag(*db), QStringLiteral("D"));
        const QString audited = QStringLiteral(
            "action = 'notify.off' AND target_kind = 'table' AND reason LIKE 'migration 19:%' AND actor = "
            "session_user AND outcome = 'ok'");
        QCOMPARE(countRows(*db, QStringLiteral("{audit}"), audited), qint64(1));
        auto published =
            db->scalar(QStringLiteral("SELECT count(*) FROM pg_publication_tables WHERE pubname = "
                                      ":p AND tablename = :t"),
                       {{QStringLiteral(":p"), ReplicationDoorbell::publication(db->dialect())},
                        {QStringLiteral(":t"), db->dialect().table(QStringLiteral("outbox_events"))}});
        QVERIFY2(published && published->toInt() == 1, qPrintable(published.message()));
        const OutboxctlRun shown = notify({}, *db);
        QVERIFY2(shown.out.contains("notifications: off") && shown.out.contains("migration 19"),
                 shown.out.constData());

        // Again: nothing to do, nothing written.
        const OutboxctlRun twice = runOutboxctl(QStringList{QStringLiteral("migrate")} + dbArgs(*db));
        QVERIFY2(twice.exitCode == 0, twice.err.constData());
        QCOMPARE(countRows(*db, QStringLiteral("{audit}")), qint64(1));
    }

    // The doctor sees the cost of the opt-in: with the trigger on and writers committing at once, their
    // commits wait for the notification lock (a warning with the prepared switch back); with the trigger
    // on and nobody writing, or with it off (the default) while they write, it is clean.
    void lockWaitFindingFiresWithConcurrentNotifyingWriters()
    {
        if (!postgres())
            QSKIP("no PostgreSQL test server configured");
        auto db = TestDatabases::fresh(QStringLiteral("postgresql"), QStringLiteral("notifywait"));
        const OutboxctlRun on = notify({QStringLiteral("on"), QStringLiteral("--reason"),
                                        QStringLiteral("lock-wait test"), QStringLiteral("--yes")},
                                       *db);
        QVERIFY2(on.exitCode == 0, on.err.constData());
        QCOMPARE(lockWaitFindings(*db).size(), 0); // on, but nobody writes

        auto writers = startNotifyingWriters(*db, 8);
        QJsonArray findings;
        for (int attempt = 0; attempt < 5 && findings.isEmpty(); ++attempt)
            findings = lockWaitFindings(*db);
        QVERIFY2(findings.size() == 1, "no commit was seen waiting for the notification lock");
        const QJsonObject finding = findings.first().toObject();
        QCOMPARE(finding.value(QStringLiteral("severity")).toString(), QStringLiteral("warning"));
        const QJsonObject evidence = finding.value(QStringLiteral("evidence")).toObject();
        QVERIFY2(evidence.value(QStringLiteral("most_waiting")).toInt() >= 1,
                 QJsonDocument(evidence).toJson().constData());
        QCOMPARE(evidence.value(QStringLiteral("reason")).toString(), QStringLiteral("lock-wait test"));
        // An audited action (issue 40 item 6: front ends run it too), its command with the finding as
        // its reason, as every audited prepared action.
        const QJsonObject action = finding.value(QStringLiteral("actions")).toArray().first().toObject();
        QCOMPARE(action.value(QStringLiteral("operation")).toString(), QStringLiteral("notify.off"));
        const QString command = action.value(QStringLiteral("command")).toString();
        QVERIFY2(
            command.startsWith(QLatin1String("outboxctl notify off ")) &&
                command.contains(QLatin1String("--reason=notify-lock-wait: Switch the wake-up trigger off")),
            qPrintable(command));
        stopWriters(*db, writers);

        // The default while the same writers write: nothing to wait for.
        const OutboxctlRun off = notify({QStringLiteral("off"), QStringLiteral("--reason"),
                                         QStringLiteral("lock-wait test over"), QStringLiteral("--yes")},
                                        *db);
        QVERIFY2(off.exitCode == 0, off.err.constData());
        writers = startNotifyingWriters(*db, 8, false);
        QTest::qWait(500);
        QCOMPARE(lockWaitFindings(*db).size(), 0);
        stopWriters(*db, writers);
    }

    // A relay in its default configuration LISTENs; with the trigger off nothing wakes it, and it
    // must notice and poll adaptively: an event right after a delivery goes out in well under the
    // (long) poll interval, and an idle relay still asks the database only a few times a second.
    void relayPollsWhileTheTriggerIsOff()
    {
        if (!postgres())
            QSKIP("no PostgreSQL test server configured");
        auto db = TestDatabases::fresh(QStringLiteral("postgresql"), QStringLiteral("notifyrelay"));
        const OutboxctlRun off = notify({QStringLiteral("off"), QStringLiteral("--reason"),
                                         QStringLiteral("relay test"), QStringLiteral("--yes")},
                                        *db);
        QVERIFY2(off.exitCode == 0, off.err.constData());
        auto b = EmbeddedBroker::start(1);
        QVERIFY(b.ok() && (*b)->createTopic(QStringLiteral("order"), 1).ok());
        auto relay = startOutboxctl(QStringList{QStringLiteral("relay")} + dbArgs(*db) +
                                    QStringList{QStringLiteral("--kafka-bootstrap"), (*b)->bootstrap(),
                                                QStringLiteral("--worker-id"), QStringLiteral("polling"),
                                                QStringLiteral("--poll-ms"), QStringLiteral("8000"),
                                                QStringLiteral("--poll-min-ms"), QStringLiteral("10"),
                                                QStringLiteral("--no-notify")});
        QTRY_COMPARE_WITH_TIMEOUT(countRows(*db, QStringLiteral("{relays}")), qint64(1), 15000);
        const auto sent = [&] {
            return countRows(*db, QStringLiteral("{events}"), QStringLiteral("status = 'SENT'"));
        };
        insertEvents(*db, 1);
        QTRY_COMPARE_WITH_TIMEOUT(sent(), qint64(1), 15000);
        // Right after a delivery the relay polls every few milliseconds (a relay that waited for a
        // NOTIFY would sit out the 8 s poll interval here).
        for (int round = 2; round <= 4; ++round) {
            QElapsedTimer t;
            t.start();
            insertEvents(*db, 1);
            QTRY_COMPARE_WITH_TIMEOUT(sent(), qint64(round), 15000);
            QVERIFY2(t.elapsed() < 2500,
                     qPrintable(QStringLiteral("round %1: %2 ms").arg(round).arg(t.elapsed())));
            QTest::qWait(100 * round);
        }

        QCOMPARE(terminateAndWait(*relay), 0);
        const QByteArray log = relay->readAll();
        QVERIFY2(log.contains("wake-up: poll (every 10 to 8000 ms while idle)"), log.constData());

        // Idle with the default poll interval (250 ms): once the backoff has reached it, a few
        // transactions a second (claims, heartbeat, replay check: about 10), not a claim every 10 ms (100+).
        auto idle = startOutboxctl(QStringList{QStringLiteral("relay")} + dbArgs(*db) +
                                   QStringList{QStringLiteral("--kafka-bootstrap"), (*b)->bootstrap(),
                                               QStringLiteral("--worker-id"), QStringLiteral("idle"),
                                               QStringLiteral("--no-notify")});
        QTRY_COMPARE_WITH_TIMEOUT(countRows(*db, QStringLiteral("{relays}")), qint64(1), 15000);
        auto transactions = [&] {
            (void)db->exec(QStringLiteral("SELECT pg_stat_clear_snapshot()"));
            auto v = db->scalar(QStringLiteral("SELECT xact_commit + xact_rollback FROM pg_stat_database "
                                               "WHERE datname = current_database()"));
            return v ? v->toLongLong() : -1;
        };
        QTest::qWait(3000);
        const qint64 before = transactions();
        QTest::qWait(6000);
        const qint64 after = transactions();
        qInfo("idle relay, trigger off, poll_ms 250: %lld transactions in 6 s",
              static_cast<long long>(after - before));
        QVERIFY2(before >= 0 && after - before < 6 * 20, qPrintable(QString::number(after - before)));
        QCOMPARE(terminateAndWait(*idle), 0);
    }

    // A writer's (or a held relay's) transaction that keeps the table locked: the switch waits
    // NotifyTrigger::LockTimeoutMs, says why it gave up, and changes nothing.
    void aLockedTableTimesOutAndChangesNothing()
    {
        if (!postgres())
            QSKIP("no PostgreSQL test server configured");
        auto db = TestDatabases::fresh(QStringLiteral("postgresql"), QStringLiteral("notifylock"));
        auto holder = TestDatabases::open(db->url());
        QVERIFY(holder->beginWrite().ok());
        QVERIFY(holder->exec(QStringLiteral("LOCK TABLE {events} IN ROW EXCLUSIVE MODE")).ok());
        QElapsedTimer t;
        t.start();
        const OutboxctlRun off = notify({QStringLiteral("on"), QStringLiteral("--reason"),
                                         QStringLiteral("busy"), QStringLiteral("--yes")},
                                        *db);
        QVERIFY(holder->commit().ok());
        QCOMPARE(off.exitCode, 1);
        QCOMPARE(off.errLines(), 1);
        QVERIFY2(off.err.contains("lock timeout") && off.err.contains("nothing changed"),
                 off.err.constData());
        QVERIFY2(t.elapsed() < 20000, qPrintable(QString::number(t.elapsed())));
        QCOMPARE(triggerFlag(*db), QStringLiteral("D"));
        QCOMPARE(countRows(*db, QStringLiteral("{audit}")), qint64(0));
    }

    // The same locked table, with a writer inserting events meanwhile: the switch's tries wait for
    // the lock NotifyTrigger::TryLockMs each, so the writers queued behind it wait about as little
    // (one 5 s wait made every writer wait 5 s: issue 38 item 7).
    void writersStayFastWhileTheSwitchWaitsForTheLock()
    {
        if (!postgres())
            QSKIP("no PostgreSQL test server configured");
        auto db = TestDatabases::fresh(QStringLiteral("postgresql"), QStringLiteral("notifywriters"));
        auto holder = TestDatabases::open(db->url());
        QVERIFY(holder->beginWrite().ok());
        QVERIFY(holder->exec(QStringLiteral("LOCK TABLE {events} IN ROW EXCLUSIVE MODE")).ok());
        // On: the switch that changes something on a fresh schema (off is the default since migration 19).
        auto off = startOutboxctl(QStringList{QStringLiteral("notify"), QStringLiteral("on"),
                                              QStringLiteral("--reason"), QStringLiteral("busy"),
                                              QStringLiteral("--yes")} +
                                  dbArgs(*db));
        QVERIFY(off->waitForStarted(10000));
        qint64 slowest = 0;
        int writes = 0;
        QElapsedTimer running;
        running.start();
        while (off->state() != QProcess::NotRunning && running.elapsed() < 30000) {
            QElapsedTimer write;
            write.start();
            insertEvents(*db, 1);
            slowest = std::max(slowest, write.elapsed());
            ++writes;
            off->waitForFinished(5);
        }
        QVERIFY(off->state() == QProcess::NotRunning || off->waitForFinished(30000));
        QVERIFY(holder->commit().ok());
        const QByteArray output = off->readAll();
        QCOMPARE(off->exitCode(), 1); // gave up: the table stayed locked
        QVERIFY2(output.contains("lock timeout") && output.contains("nothing changed"), output.constData());
        QCOMPARE(triggerFlag(*db), QStringLiteral("D"));
        qInfo("%d writes while notify on tried for %lld ms: the slowest took %lld ms", writes,
              running.elapsed(), slowest);
        QVERIFY2(writes >= 10, qPrintable(QString::number(writes)));
        QVERIFY2(slowest < 1000, qPrintable(QStringLiteral("a writer waited %1 ms").arg(slowest)));
    }

    void runtimeRoleIsRefusedAndTheTriggerStays()
    {
        if (!postgres())
            QSKIP("no PostgreSQL test server configured");
        auto owner = TestDatabases::fresh(QStringLiteral("postgresql"), QStringLiteral("notifyrole"));
        const QString role = QStringLiteral("outbox_nt_%1").arg(QCoreApplication::applicationPid());
        (void)owner->exec(QStringLiteral("DROP OWNED BY %1").arg(role));
        (void)owner->exec(QStringLiteral("DROP ROLE IF EXISTS %1").arg(role));
        QVERIFY(owner->exec(QStringLiteral("CREATE ROLE %1 LOGIN").arg(role)).ok());
        const OutboxctlRun grants = runOutboxctl(
            QStringList{QStringLiteral("migrate"), QStringLiteral("--print-grants"), role} + dbArgs(*owner));
        QVERIFY2(grants.exitCode == 0, grants.err.constData());
        for (const QString& line : QString::fromUtf8(grants.out).split(QLatin1Char('\n')))
            if (line.startsWith(QLatin1String("GRANT")))
                QVERIFY2(owner->exec(line.chopped(1)).ok(), qPrintable(line));
        DatabaseUrl runtimeUrl = owner->url();
        runtimeUrl.user = role;
        auto runtime = TestDatabases::open(runtimeUrl);

        const OutboxctlRun shown = notify({QStringLiteral("--json")}, *runtime);
        QVERIFY2(shown.exitCode == 0, shown.err.constData());
        QCOMPARE(shown.json().value(QStringLiteral("may_switch")).toBool(), false);
        const OutboxctlRun off = notify({QStringLiteral("on"), QStringLiteral("--reason"),
                                         QStringLiteral("not mine"), QStringLiteral("--yes")},
                                        *runtime);
        QCOMPARE(off.exitCode, 2);
        QCOMPARE(off.errLines(), 1);
        QVERIFY2(off.err.contains("only the owner of outbox_events"), off.err.constData());
        QCOMPARE(triggerFlag(*owner), QStringLiteral("D"));
        QCOMPARE(countRows(*owner, QStringLiteral("{audit}")), qint64(0));
        runtime.reset();
        (void)owner->exec(QStringLiteral("DROP OWNED BY %1").arg(role));
        (void)owner->exec(QStringLiteral("DROP ROLE IF EXISTS %1").arg(role));
    }

    void sqliteHasNoTriggerAndChangesNothing()
    {
        auto db = TestDatabases::fresh(QStringLiteral("sqlite"), QStringLiteral("notify"));
        const OutboxctlRun shown = notify({}, *db);
        QCOMPARE(shown.exitCode, 0);
        QVERIFY2(shown.out.contains("notifications: none"), shown.out.constData());
        const OutboxctlRun json = notify({QStringLiteral("--json")}, *db);
        QCOMPARE(json.json().value(QStringLiteral("notifications")).toString(), QStringLiteral("none"));
        const OutboxctlRun off = notify(
            {QStringLiteral("off"), QStringLiteral("--reason"), QStringLiteral("x"), QStringLiteral("--yes")},
            *db);
        QCOMPARE(off.exitCode, 0);
        QVERIFY2(off.out.contains("no wake-up trigger"), off.out.constData());
        const OutboxctlRun on = notify(
            {QStringLiteral("on"), QStringLiteral("--reason"), QStringLiteral("x"), QStringLiteral("--yes")},
            *db);
        QCOMPARE(on.exitCode, 2);
        QVERIFY2(on.err.contains("no wake-up trigger"), on.err.constData());
        QCOMPARE(countRows(*db, QStringLiteral("{audit}")), qint64(0));
        const OutboxctlRun bad = notify({QStringLiteral("sideways")}, *db);
        QCOMPARE(bad.exitCode, 2);
    }
};

QTEST_GUILESS_MAIN(TestNotifyCommand)
#include "tst_notifycommand.moc"
