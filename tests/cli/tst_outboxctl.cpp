#include "core/db/DeadLetterStore.h"
#include "core/demo/OrderSimulator.h"
#include "core/ops/AuditLog.h"
#include "tests/support/BulkEvents.h"
#include "tests/support/OutboxctlProcess.h"
#include "tests/support/TestDatabases.h"
#include "tests/support/TopicReader.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTcpServer>
#include <QTemporaryDir>
#include <QTest>
#include <csignal>
#include <sys/types.h>

using namespace outbox;
using namespace outbox::test;
using outbox::demo::OrderSimulator;

namespace {

using Run = OutboxctlRun;

// Runs the real outboxctl binary, without a terminal on stdin; with `stopAfterMs`, sends SIGTERM
// after that long (for long-running commands).
Run outboxctl(const QStringList& args, const QProcessEnvironment& extraEnv = {}, int stopAfterMs = 0)
{
    OutboxctlOptions options;
    options.extraEnv = extraEnv;
    options.stopAfterMs = stopAfterMs;
    options.timeoutMs = 60000;
    return runOutboxctl(args, options);
}

// 20 events in a new SQLite database, relayed by `outboxctl relay` through `bootstrap` until its
// SIGTERM: how many it marked SENT, and its exit code.
std::pair<qint64, int> relayTwentyEvents(const QString& bootstrap, const QString& name)
{
    auto db = TestDatabases::fresh(QStringLiteral("sqlite"), name);
    insertEvents(*db, 20);
    const Run relay =
        outboxctl({QStringLiteral("relay"), QStringLiteral("--db"), TestDatabases::urlText(db->url()),
                   QStringLiteral("--kafka-bootstrap"), bootstrap, QStringLiteral("--quiet")},
                  {}, 4000);
    return {countRows(*db, QStringLiteral("{events}"), QStringLiteral("status = 'SENT'")), relay.exitCode};
}

} // namespace

class TestOutboxctl : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QVERIFY2(!qEnvironmentVariable("OUTBOXCTL").isEmpty(), "OUTBOXCTL must point at the binary");
    }

    void migrateAndStatusOnEveryDatabase_data() { TestDatabases::addKinds(); }
    void migrateAndStatusOnEveryDatabase()
    {
        QFETCH(QString, kind);
        const QString url =
            TestDatabases::urlText(TestDatabases::create(kind, TestDatabases::uniqueName(kind)));

        const Run notMigrated = outboxctl({QStringLiteral("status"), QStringLiteral("--db"), url});
        QCOMPARE(notMigrated.exitCode, 1);
        QVERIFY2(notMigrated.err.contains("outboxctl migrate"), notMigrated.err.constData());

        const Run migrate =
            outboxctl({QStringLiteral("migrate"), QStringLiteral("--db"), url, QStringLiteral("--json")});
        QVERIFY2(migrate.exitCode == 0, migrate.err.constData());
        QCOMPARE(migrate.json().value(QStringLiteral("applied")).toArray().size(),
                 Dialect::create(DatabaseUrl::parse(url)->kind)->migrations().size());
        const Run again = outboxctl({QStringLiteral("migrate"), QStringLiteral("--db"), url});
        QCOMPARE(again.exitCode, 0);
        QVERIFY(again.out.contains("up to date"));
        QVERIFY2(!again.out.contains("outbox:"), "password must not be printed");

        auto db = TestDatabases::open(DatabaseUrl::parse(url).value());
        const auto ids = insertEvents(*db, 7);
        forceStatus(*db, ids.mid(0, 2), QStringLiteral("FAILED"),
                    QStringLiteral("Broker: Topic authorization failed"));

        const Run status =
            outboxctl({QStringLiteral("status"), QStringLiteral("--db"), url, QStringLiteral("--json")});
        QVERIFY2(status.exitCode == 0, status.err.constData());
        const QJsonObject events = status.json().value(QStringLiteral("events")).toObject();
        QCOMPARE(events.value(QStringLiteral("PENDING")).toInteger(), qint64(5));
        QCOMPARE(events.value(QStringLiteral("FAILED")).toInteger(), qint64(2));
        QCOMPARE(events.value(QStringLiteral("SENT")).toInteger(), qint64(0));
        QVERIFY(status.json().value(QStringLiteral("oldest_pending_age_seconds")).toDouble() >= 0);
        QVERIFY(status.json().contains(QStringLiteral("relays")));
        QVERIFY(
            status.json().value(QStringLiteral("dead_letters")).toObject().contains(QStringLiteral("NEW")));

        const Run human = outboxctl({QStringLiteral("status"), QStringLiteral("--db"), url});
        QCOMPARE(human.exitCode, 0);
        QVERIFY(human.out.contains("PENDING"));

        const Run list =
            outboxctl({QStringLiteral("events"), QStringLiteral("list"), QStringLiteral("--db"), url,
                       QStringLiteral("--status"), QStringLiteral("failed"), QStringLiteral("--json")});
        QVERIFY2(list.exitCode == 0, list.err.constData());
        QCOMPARE(list.json().value(QStringLiteral("events")).toArray().size(), 2);

        const QString eventId = list.json()
                                    .value(QStringLiteral("events"))
                                    .toArray()
                                    .first()
                                    .toObject()
                                    .value(QStringLiteral("event_id"))
                                    .toString();
        const Run show = outboxctl({QStringLiteral("events"), QStringLiteral("show"), eventId,
                                    QStringLiteral("--db"), url, QStringLiteral("--json")});
        QVERIFY2(show.exitCode == 0, show.err.constData());
        QCOMPARE(show.json().value(QStringLiteral("event_id")).toString(), eventId);
        QCOMPARE(show.json().value(QStringLiteral("status")).toString(), QStringLiteral("FAILED"));
    }

    void requeueNeedsConfirmationThenAudits_data() { TestDatabases::addKinds(); }
    // A MariaDB writer whose session is at +05:00 writes available_at = NOW(6): its event waits 5
    // hours. status said "oldest pending 0ms" and nothing else; now it says that one event is held
    // back, until when, and where to look (issue 37 item 4). On PostgreSQL and SQLite the same local
    // time is written with the row.
    void statusSaysWhatIsHeldBack_data() { TestDatabases::addKinds(); }
    void statusSaysWhatIsHeldBack()
    {
        QFETCH(QString, kind);
        auto db = TestDatabases::fresh(kind, QStringLiteral("held_back"));
        const QString url = TestDatabases::urlText(db->url());
        insertEvents(*db, 2); // due now
        if (kind == QLatin1String("mysql")) {
            QVERIFY(db->exec(QStringLiteral("SET time_zone = '+05:00'")).ok());
            auto written = db->exec(
                QStringLiteral("INSERT INTO {events} (event_id, event_type, aggregate_type, aggregate_id, "
                               "payload, available_at) VALUES ('tz-writer', 'OrderCreated', 'Order', 'o-tz', "
                               "'{}', NOW(6))"));
            QVERIFY2(written.ok(), qPrintable(written.message()));
            QVERIFY(db->exec(QStringLiteral("SET time_zone = '+00:00'")).ok());
        } else {
            const qint64 id =
                insertEvents(*db, 1, QStringLiteral("OrderCreated"), QStringLiteral("tz-")).first();
            auto written = db->exec(QStringLiteral("UPDATE {events} SET available_at = %1 WHERE id = :id")
                                        .arg(db->dialect().nowPlusMillis(QStringLiteral(":ms"))),
                                    {{QStringLiteral(":ms"), 5 * 3600 * 1000}, {QStringLiteral(":id"), id}});
            QVERIFY2(written.ok(), qPrintable(written.message()));
        }
        const Run human = outboxctl({QStringLiteral("status"), QStringLiteral("--db"), url});
        QVERIFY2(human.exitCode == 0, human.err.constData());
        const QString out = QString::fromUtf8(human.out);
        QVERIFY2(out.contains(QRegularExpression(
                     QStringLiteral("held back +1 pending event\\(s\\) not due before \\d{4}-\\d\\d-\\d\\d "
                                    "\\d\\d:\\d\\d:\\d\\d UTC \\((4h59m|5h0m) ahead\\)"))),
                 qPrintable(out));
        QVERIFY2(out.contains(QLatin1String("doctor --check contract-violations")), qPrintable(out));
        QVERIFY2(!out.contains(QLatin1String("created ahead")), qPrintable(out));

        const Run json =
            outboxctl({QStringLiteral("status"), QStringLiteral("--db"), url, QStringLiteral("--json")});
        QVERIFY2(json.exitCode == 0, json.err.constData());
        const QJsonObject held = json.json().value(QStringLiteral("held_back")).toObject();
        QCOMPARE(held.value(QStringLiteral("not_due")).toInteger(), qint64(1));
        const double ahead = held.value(QStringLiteral("last_due_in_seconds")).toDouble();
        QVERIFY2(ahead > 5 * 3600 - 120 && ahead <= 5 * 3600, qPrintable(QString::number(ahead)));
        QCOMPARE(held.value(QStringLiteral("created_ahead")).toInteger(), qint64(0));

        // Due: nothing held back any more, and status says nothing about it.
        QVERIFY(db->exec(QStringLiteral("UPDATE {events} SET available_at = created_at")).ok());
        const Run due = outboxctl({QStringLiteral("status"), QStringLiteral("--db"), url});
        QVERIFY2(!due.out.contains("held back"), due.out.constData());
    }

    void requeueNeedsConfirmationThenAudits()
    {
        QFETCH(QString, kind);
        auto db = TestDatabases::fresh(kind, kind);
        const QString url = TestDatabases::urlText(db->url());
        const auto ids = insertEvents(*db, 5);
        forceStatus(*db, ids.mid(0, 3), QStringLiteral("FAILED"),
                    QStringLiteral("Broker: Message size too large"));

        const QStringList base = {QStringLiteral("requeue"), QStringLiteral("--db"), url,
                                  QStringLiteral("--status"), QStringLiteral("FAILED")};
        const Run noReason = outboxctl(base + QStringList{QStringLiteral("--yes")});
        QCOMPARE(noReason.exitCode, 2);
        QVERIFY2(noReason.err.contains("a reason is required (--reason)"), noReason.err.constData());
        QCOMPARE(noReason.errLines(), 1);

        const Run dry = outboxctl(base + QStringList{QStringLiteral("--dry-run"), QStringLiteral("--json")});
        QVERIFY2(dry.exitCode == 0, dry.err.constData());
        QCOMPARE(dry.json().value(QStringLiteral("matched")).toInteger(), qint64(3));
        QCOMPARE(dry.json().value(QStringLiteral("sample")).toArray().size(), 3);

        const Run unconfirmed =
            outboxctl(base + QStringList{QStringLiteral("--reason"), QStringLiteral("max bytes raised")});
        QCOMPARE(unconfirmed.exitCode, 2);
        QVERIFY2(unconfirmed.err.contains("--yes"), unconfirmed.err.constData());
        QCOMPARE(countRows(*db, QStringLiteral("{events}"), QStringLiteral("status = 'FAILED'")), qint64(3));

        const Run done =
            outboxctl(base + QStringList{QStringLiteral("--reason"), QStringLiteral("max bytes raised"),
                                         QStringLiteral("--yes"), QStringLiteral("--actor"),
                                         QStringLiteral("dave"), QStringLiteral("--json")});
        QVERIFY2(done.exitCode == 0, done.err.constData());
        QCOMPARE(done.json().value(QStringLiteral("affected")).toInteger(), qint64(3));
        QCOMPARE(countRows(*db, QStringLiteral("{events}"), QStringLiteral("status = 'PENDING'")), qint64(5));

        const Run dead = outboxctl({QStringLiteral("dead"), QString::number(ids[4]), QStringLiteral("--db"),
                                    url, QStringLiteral("--reason"), QStringLiteral("duplicate order"),
                                    QStringLiteral("--yes")});
        QVERIFY2(dead.exitCode == 0, dead.err.constData());
        QCOMPARE(statusOf(*db, ids[4]), QStringLiteral("DEAD"));

        const Run audit = outboxctl({QStringLiteral("audit"), QStringLiteral("list"), QStringLiteral("--db"),
                                     url, QStringLiteral("--json")});
        QVERIFY2(audit.exitCode == 0, audit.err.constData());
        const QJsonArray entries = audit.json().value(QStringLiteral("entries")).toArray();
        QCOMPARE(entries.size(), 2);
        QCOMPARE(entries.at(1).toObject().value(QStringLiteral("actor")).toString(), QStringLiteral("dave"));
        QCOMPARE(entries.at(1).toObject().value(QStringLiteral("reason")).toString(),
                 QStringLiteral("max bytes raised"));
        QCOMPARE(entries.at(0).toObject().value(QStringLiteral("action")).toString(),
                 QStringLiteral("events.dead"));
        const Run filtered =
            outboxctl({QStringLiteral("audit"), QStringLiteral("list"), QStringLiteral("--db"), url,
                       QStringLiteral("--action"), QStringLiteral("events.dead"), QStringLiteral("--json")});
        QCOMPARE(filtered.json().value(QStringLiteral("entries")).toArray().size(), 1);
    }

    // A filter action on 2,500 FAILED rows from the real binary: three audited chunks, and the
    // JSON summary says so.
    void bulkRequeueRunsInAuditedChunks_data() { TestDatabases::addKinds(); }
    void bulkRequeueRunsInAuditedChunks()
    {
        QFETCH(QString, kind);
        auto db = TestDatabases::fresh(kind, TestDatabases::uniqueName(QStringLiteral("clibulk")));
        const QString url = TestDatabases::urlText(db->url());
        insertGeneratedEvents(*db, 2500, 1);
        const Run dry =
            outboxctl({QStringLiteral("requeue"), QStringLiteral("--db"), url, QStringLiteral("--status"),
                       QStringLiteral("FAILED"), QStringLiteral("--dry-run")});
        QVERIFY2(dry.exitCode == 0, dry.err.constData());
        QVERIFY2(dry.out.contains("2500 event(s) would change") && dry.out.contains("chunks of 1000"),
                 dry.out.constData());
        const Run done =
            outboxctl({QStringLiteral("requeue"), QStringLiteral("--db"), url, QStringLiteral("--status"),
                       QStringLiteral("FAILED"), QStringLiteral("--reason"), QStringLiteral("broker back"),
                       QStringLiteral("--yes"), QStringLiteral("--json")});
        QVERIFY2(done.exitCode == 0, done.err.constData());
        QCOMPARE(done.json().value(QStringLiteral("affected")).toInteger(), qint64(2500));
        QCOMPARE(done.json().value(QStringLiteral("chunks")).toInt(), 3);
        QCOMPARE(done.json().value(QStringLiteral("audit_ids")).toArray().size(), 3);
        QCOMPARE(done.json().value(QStringLiteral("cancelled")).toBool(), false);
        QVERIFY2(!done.err.contains('['), "no progress bar without a terminal");
        QCOMPARE(countRows(*db, QStringLiteral("{audit}"),
                           QStringLiteral("reason = 'broker back' AND action = 'events.requeue'")),
                 qint64(3));
        QCOMPARE(countRows(*db, QStringLiteral("{events}"), QStringLiteral("status = 'PENDING'")),
                 qint64(2500));
    }

    // A failure group by its fingerprint, as the console lists it: only the group changes.
    void groupRequeueFromTheCli()
    {
        auto db = TestDatabases::fresh(QStringLiteral("sqlite"), QStringLiteral("cligroup"));
        const QString url = TestDatabases::urlText(db->url());
        insertGeneratedEvents(*db, 1500, 1);
        const auto other = insertEvents(*db, 2);
        forceStatus(*db, other, QStringLiteral("FAILED"),
                    QStringLiteral("Broker: Topic authorization failed"));
        const Run done =
            outboxctl({QStringLiteral("requeue"), QStringLiteral("--db"), url, QStringLiteral("--group"),
                       QStringLiteral("schema check failed for row <n>"), QStringLiteral("--group-class"),
                       QStringLiteral("deterministic"), QStringLiteral("--reason"),
                       QStringLiteral("registry fixed"), QStringLiteral("--yes"), QStringLiteral("--json")});
        QVERIFY2(done.exitCode == 0, done.err.constData());
        QCOMPARE(done.json().value(QStringLiteral("affected")).toInteger(), qint64(1500));
        QCOMPARE(done.json().value(QStringLiteral("chunks")).toInt(), 2);
        QCOMPARE(countRows(*db, QStringLiteral("{events}"), QStringLiteral("status = 'FAILED'")), qint64(2));
        // A group narrows by --status only (the doctor's `--status FAILED --group …`); any other filter
        // is one usage error.
        const Run both =
            outboxctl({QStringLiteral("requeue"), QStringLiteral("--db"), url, QStringLiteral("--group"),
                       QStringLiteral("x"), QStringLiteral("--error"), QStringLiteral("Broker"),
                       QStringLiteral("--reason"), QStringLiteral("r"), QStringLiteral("--yes")});
        QCOMPARE(both.exitCode, 2);
        QCOMPARE(both.errLines(), 1);
        QVERIFY2(both.err.contains("no other filter"), both.err.constData());
        QCOMPARE(countRows(*db, QStringLiteral("{events}"), QStringLiteral("status = 'FAILED'")), qint64(2));
    }

    // Ctrl-C (SIGINT to the real process) stops between chunks: the finished chunk stays
    // committed and audited, the rest is untouched, the exit code says "cancelled" and the
    // last line says how far it got. A failpoint pauses after each chunk so the signal lands
    // between chunks whatever the machine's speed.
    void ctrlCCancelsBetweenChunks_data() { TestDatabases::addKinds(); }
    void ctrlCCancelsBetweenChunks()
    {
        QFETCH(QString, kind);
        auto db = TestDatabases::fresh(kind, TestDatabases::uniqueName(QStringLiteral("clicancel")));
        const QString url = TestDatabases::urlText(db->url());
        insertGeneratedEvents(*db, 2500, 1);
        auto p =
            startOutboxctl({QStringLiteral("dead"), QStringLiteral("--db"), url, QStringLiteral("--status"),
                            QStringLiteral("FAILED"), QStringLiteral("--reason"), QStringLiteral("poison"),
                            QStringLiteral("--yes")},
                           QStringLiteral("ops.bulk.between_chunks=sleep(2000)"));
        QTRY_VERIFY_WITH_TIMEOUT(
            countRows(*db, QStringLiteral("{audit}"), QStringLiteral("reason = 'poison'")) == 1, 30000);
        QCOMPARE(::kill(pid_t(p->processId()), SIGINT), 0);
        QVERIFY(p->waitForFinished(30000));
        const QByteArray output = p->readAll();
        QCOMPARE(p->exitStatus(), QProcess::NormalExit);
        QVERIFY2(p->exitCode() == 130, output.constData());
        QVERIFY2(output.contains("cancelled after 1 chunk(s): 1000 of 2500 event(s) changed"),
                 output.constData());
        QVERIFY2(output.contains("the rest is untouched"), output.constData());
        QCOMPARE(countRows(*db, QStringLiteral("{events}"), QStringLiteral("status = 'DEAD'")), qint64(1000));
        QCOMPARE(countRows(*db, QStringLiteral("{events}"), QStringLiteral("status = 'FAILED'")),
                 qint64(1500));
        QCOMPARE(countRows(*db, QStringLiteral("{audit}"), QStringLiteral("reason = 'poison'")), qint64(1));
    }

    // On a terminal (a pseudo-terminal from script(1)) a progress bar is drawn on stderr.
    void progressBarOnATerminal()
    {
        if (QStandardPaths::findExecutable(QStringLiteral("script")).isEmpty())
            QSKIP("script(1) not installed");
        auto db = TestDatabases::fresh(QStringLiteral("sqlite"), QStringLiteral("clitty"));
        insertGeneratedEvents(*db, 1500, 1);
        OutboxctlOptions terminal;
        terminal.onTerminal = true;
        const OutboxctlRun run = runOutboxctl({QStringLiteral("requeue"), QStringLiteral("--db"),
                                               TestDatabases::urlText(db->url()), QStringLiteral("--status"),
                                               QStringLiteral("FAILED"), QStringLiteral("--reason"),
                                               QStringLiteral("tty"), QStringLiteral("--yes")},
                                              terminal);
        const QByteArray& output = run.out;
        QVERIFY2(run.exitCode == 0, output.constData());
        QVERIFY2(output.contains("[##############################] 1500/1500 rows, chunk 2"),
                 output.constData());
        QVERIFY2(output.contains("1500 of 1500 event(s) changed (events.requeue, 2 chunks"),
                 output.constData());
    }

    void deadLettersThroughTheCli()
    {
        auto db = TestDatabases::fresh(QStringLiteral("postgresql"), QStringLiteral("dlq"));
        const QString url = TestDatabases::urlText(db->url());
        DeadLetter l;
        l.consumerName = QStringLiteral("inventory");
        l.eventId = QStringLiteral("e-1");
        l.topic = QStringLiteral("order");
        l.payload = "{}";
        l.error = QStringLiteral("poison");
        QVERIFY(DeadLetterStore(*db).insert(l).ok());
        QVERIFY(DeadLetterStore(*db).insert(l).ok());
        const Run list = outboxctl({QStringLiteral("dlq"), QStringLiteral("list"), QStringLiteral("--db"),
                                    url, QStringLiteral("--json")});
        QVERIFY2(list.exitCode == 0, list.err.constData());
        QCOMPARE(list.json().value(QStringLiteral("dead_letters")).toArray().size(), 2);
        // The options are core's filter fields (read by DeadLetterFilter::fromJson, as the API's query):
        // --event-id is "event_id", --status takes a comma list, an unknown status is refused.
        const auto listed = [&](const QStringList& options) {
            return outboxctl(QStringList{QStringLiteral("dlq"), QStringLiteral("list"),
                                         QStringLiteral("--db"), url, QStringLiteral("--json")} +
                             options);
        };
        const Run byEvent =
            listed({QStringLiteral("--event-id"), QStringLiteral("e-1"), QStringLiteral("--status"),
                    QStringLiteral("NEW,replayed"), QStringLiteral("--topic"), QStringLiteral("order")});
        QVERIFY2(byEvent.exitCode == 0, byEvent.err.constData());
        QCOMPARE(byEvent.json().value(QStringLiteral("dead_letters")).toArray().size(), 2);
        const Run otherEvent = listed({QStringLiteral("--event-id"), QStringLiteral("e-2")});
        QVERIFY2(otherEvent.exitCode == 0, otherEvent.err.constData());
        QCOMPARE(otherEvent.json().value(QStringLiteral("dead_letters")).toArray().size(), 0);
        const Run badStatus = listed({QStringLiteral("--status"), QStringLiteral("NEW,GONE")});
        QCOMPARE(badStatus.exitCode, 2);
        QVERIFY2(badStatus.err.contains("unknown dead-letter status \"GONE\""), badStatus.err.constData());
        const Run discard = outboxctl({QStringLiteral("dlq"), QStringLiteral("discard"), QStringLiteral("1"),
                                       QStringLiteral("--db"), url, QStringLiteral("--reason"),
                                       QStringLiteral("test data"), QStringLiteral("--yes")});
        QVERIFY2(discard.exitCode == 0, discard.err.constData());
        const Run replay =
            outboxctl({QStringLiteral("dlq"), QStringLiteral("replay"), QStringLiteral("--consumer"),
                       QStringLiteral("inventory"), QStringLiteral("--db"), url, QStringLiteral("--reason"),
                       QStringLiteral("fixed"), QStringLiteral("--yes"), QStringLiteral("--json")});
        QVERIFY2(replay.exitCode == 0, replay.err.constData());
        QCOMPARE(replay.json().value(QStringLiteral("affected")).toInteger(), qint64(1));
        QVERIFY(!replay.json().value(QStringLiteral("replay_token")).toString().isEmpty());
        const Run show = outboxctl({QStringLiteral("dlq"), QStringLiteral("show"), QStringLiteral("2"),
                                    QStringLiteral("--db"), url, QStringLiteral("--json")});
        QCOMPARE(show.json().value(QStringLiteral("status")).toString(), QStringLiteral("REPLAYING"));
        // As text, every key stands apart from its value (issue 25: "replay_lease_until-").
        const Run shown = outboxctl({QStringLiteral("dlq"), QStringLiteral("show"), QStringLiteral("2"),
                                     QStringLiteral("--db"), url});
        QVERIFY2(shown.exitCode == 0, shown.err.constData());
        QVERIFY2(QString::fromUtf8(shown.out).contains(QRegularExpression(
                     QStringLiteral("^replay_lease_until  +\\S"), QRegularExpression::MultilineOption)),
                 shown.out.constData());
        for (const QString& key : show.json().keys())
            QVERIFY2(QString::fromUtf8(shown.out).contains(
                         QRegularExpression(QStringLiteral("^%1  ").arg(QRegularExpression::escape(key)),
                                            QRegularExpression::MultilineOption)),
                     qPrintable(key));
    }

    void badInputGetsOneClearLine_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<int>("exitCode");
        QTest::addColumn<QString>("expected");
        QTest::newRow("malformed url") << QStringList{QStringLiteral("status"), QStringLiteral("--db"),
                                                      QStringLiteral("postgresql//nohost")}
                                       << 2 << "invalid database URL";
        QTest::newRow("unknown scheme")
            << QStringList{QStringLiteral("status"), QStringLiteral("--db"), QStringLiteral("redis://h/0")}
            << 2 << "unknown scheme";
        QTest::newRow("unreachable postgres")
            << QStringList{QStringLiteral("status"), QStringLiteral("--db"),
                           QStringLiteral("postgresql://outbox@127.0.0.1:1/x")}
            << 1 << "cannot connect";
        QTest::newRow("unreachable mysql") << QStringList{QStringLiteral("status"), QStringLiteral("--db"),
                                                          QStringLiteral("mysql://outbox@127.0.0.1:1/x")}
                                           << 1 << "cannot connect";
        QTest::newRow("missing sqlite dir") << QStringList{QStringLiteral("migrate"), QStringLiteral("--db"),
                                                           QStringLiteral("sqlite:///nonexistent-dir/x.db")}
                                            << 1 << "does not exist";
        // Core says what is missing; outboxctl adds how to give it.
        QTest::newRow("no db") << QStringList{QStringLiteral("status")} << 2
                               << "no database given (--db <url>, OUTBOX_DB_URL or [database] url)";
        QTest::newRow("relay without broker")
            << QStringList{QStringLiteral("relay"), QStringLiteral("--db"),
                           QStringLiteral("sqlite:///tmp/x.db")}
            << 2
            << "no Kafka bootstrap servers given (--kafka-bootstrap <host:port>, OUTBOX_KAFKA_BOOTSTRAP or "
               "[kafka] bootstrap)";
        QTest::newRow("lease shorter than a delivery")
            << QStringList{QStringLiteral("relay"),
                           QStringLiteral("--db"),
                           QStringLiteral("sqlite:///tmp/x.db"),
                           QStringLiteral("--kafka-bootstrap"),
                           QStringLiteral("127.0.0.1:1"),
                           QStringLiteral("--lease-ms"),
                           QStringLiteral("5000")}
            << 2 << "lengthen the lease (--lease-ms <ms>, OUTBOX_RELAY_LEASE_MS or [relay] lease_ms)";
        QTest::newRow("consumer group set by hand")
            << QStringList{QStringLiteral("consume"),
                           QStringLiteral("--demo-inventory"),
                           QStringLiteral("--db"),
                           QStringLiteral("sqlite:///tmp/x.db"),
                           QStringLiteral("--kafka-bootstrap"),
                           QStringLiteral("127.0.0.1:1"),
                           QStringLiteral("-X"),
                           QStringLiteral("group.id=other")}
            << 2 << "named after the consumer (--consumer <name>, OUTBOX_CONSUMER_NAME or [consumer] name)";
        QTest::newRow("unknown command") << QStringList{QStringLiteral("explode")} << 2 << "unknown command";
        QTest::newRow("unknown option")
            << QStringList{QStringLiteral("status"), QStringLiteral("--bogus")} << 2 << "bogus";
        QTest::newRow("unknown status")
            << QStringList{QStringLiteral("events"),   QStringLiteral("list"),
                           QStringLiteral("--db"),     QStringLiteral("sqlite:///tmp/x.db"),
                           QStringLiteral("--status"), QStringLiteral("LOST")}
            << 2 << "unknown status";
        QTest::newRow("bad id") << QStringList{QStringLiteral("requeue"), QStringLiteral("12abc"),
                                               QStringLiteral("--db"), QStringLiteral("sqlite:///tmp/x.db")}
                                << 2 << "invalid id";
        QTest::newRow("bad time") << QStringList{QStringLiteral("events"),
                                                 QStringLiteral("list"),
                                                 QStringLiteral("--db"),
                                                 QStringLiteral("sqlite:///tmp/x.db"),
                                                 QStringLiteral("--since"),
                                                 QStringLiteral("yesterday")}
                                  << 2 << "invalid time";
        QTest::newRow("bad limit") << QStringList{QStringLiteral("events"),
                                                  QStringLiteral("list"),
                                                  QStringLiteral("--db"),
                                                  QStringLiteral("sqlite:///tmp/x.db"),
                                                  QStringLiteral("--limit"),
                                                  QStringLiteral("0")}
                                   << 2 << "--limit";
        QTest::newRow("bad dlq cursor")
            << QStringList{QStringLiteral("dlq"),        QStringLiteral("list"),
                           QStringLiteral("--db"),       QStringLiteral("sqlite:///tmp/x.db"),
                           QStringLiteral("--after-id"), QStringLiteral("-5")}
            << 2 << "--after-id";
        QTest::newRow("bad audit limit")
            << QStringList{QStringLiteral("audit"),   QStringLiteral("list"),
                           QStringLiteral("--db"),    QStringLiteral("sqlite:///tmp/x.db"),
                           QStringLiteral("--limit"), QStringLiteral("lots")}
            << 2 << "--limit";
        QTest::newRow("missing config") << QStringList{QStringLiteral("status"), QStringLiteral("--config"),
                                                       QStringLiteral("/nonexistent.ini")}
                                        << 2 << "cannot read the configuration";
    }
    void badInputGetsOneClearLine()
    {
        QFETCH(QStringList, args);
        QFETCH(int, exitCode);
        QFETCH(QString, expected);
        const Run r = outboxctl(args);
        QCOMPARE(r.exitCode, exitCode);
        QVERIFY2(r.err.contains(expected.toUtf8()), r.err.constData());
        QCOMPARE(r.errLines(), 1);
        QVERIFY(r.out.isEmpty());
    }

    // Issue 26: a mistyped URL is reported without its password, whichever way it was given
    // (--db, OUTBOX_DB_URL, the configuration file) and whatever the command.
    void invalidUrlNeverShowsItsPassword()
    {
        const QString url = QStringLiteral("postgresql://u:S3cr3tPw@127.0.0.1:99999/db");
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString ini = dir.filePath(QStringLiteral("outbox.ini"));
        QFile file(ini);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("[database]\nurl = " + url.toUtf8() + "\n");
        file.close();
        QProcessEnvironment viaEnv;
        viaEnv.insert(QStringLiteral("OUTBOX_DB_URL"), url);
        const QVector<QPair<QStringList, QProcessEnvironment>> runs{
            {{QStringLiteral("status"), QStringLiteral("--db"), url}, {}},
            {{QStringLiteral("status"), QStringLiteral("--db"), url, QStringLiteral("--json")}, {}},
            {{QStringLiteral("doctor"), QStringLiteral("--db"), url}, {}},
            {{QStringLiteral("events"), QStringLiteral("list")}, viaEnv},
            {{QStringLiteral("status"), QStringLiteral("--config"), ini}, {}},
            {{QStringLiteral("serve"), QStringLiteral("--db"), url, QStringLiteral("--listen"),
              QStringLiteral("127.0.0.1:58599")},
             {}},
        };
        for (const auto& [args, env] : runs) {
            const Run r = outboxctl(args, env);
            const QByteArray all = r.out + r.err;
            QVERIFY2(r.exitCode == 2,
                     qPrintable(args.join(QLatin1Char(' ')) + QStringLiteral(": ") + QString::fromUtf8(all)));
            QVERIFY2(all.contains("invalid database URL"), all.constData());
            QVERIFY2(!all.contains("S3cr3tPw"), all.constData());
        }
    }

    // Issue 26: an option hidden in another option's value is refused before anything connects.
    void urlOptionsCannotCarryOtherOptions()
    {
        if (!TestDatabases::available(QStringLiteral("postgresql")))
            QSKIP("no PostgreSQL test server");
        const QString url = TestDatabases::urlText(TestDatabases::create(
            QStringLiteral("postgresql"), TestDatabases::uniqueName(QStringLiteral("opt"))));
        QVERIFY(outboxctl({QStringLiteral("migrate"), QStringLiteral("--db"), url}).exitCode == 0);
        // TLS is refused by the test server: what the attack tries to get around.
        const Run tls = outboxctl(
            {QStringLiteral("status"), QStringLiteral("--db"), url + QStringLiteral("?sslmode=require")});
        QCOMPARE(tls.exitCode, 1);
        const Run attack =
            outboxctl({QStringLiteral("status"), QStringLiteral("--db"),
                       url + QStringLiteral("?sslmode=require&application_name=x%20sslmode%3Ddisable")});
        QCOMPARE(attack.exitCode, 2);
        QVERIFY2(attack.err.contains("the value of option \"application_name\" must not contain"),
                 attack.err.constData());
        QVERIFY(attack.out.isEmpty());
        const Run port = outboxctl({QStringLiteral("status"), QStringLiteral("--db"),
                                    url + QStringLiteral("?application_name=x%20port%3D57999")});
        QCOMPARE(port.exitCode, 2);
        const Run spaced = outboxctl({QStringLiteral("status"), QStringLiteral("--db"),
                                      url + QStringLiteral("?application_name=outbox%20status")});
        QVERIFY2(spaced.exitCode == 0, spaced.err.constData());
    }

    // Issue 26: `audit list --csv` prints the same cells as every CSV export (core's AuditCsv): an
    // actor or reason that is a spreadsheet formula arrives as text.
    void auditCsvKeepsFormulasAsText()
    {
        auto db =
            TestDatabases::fresh(QStringLiteral("sqlite"), TestDatabases::uniqueName(QStringLiteral("csv")));
        AuditEntry e;
        e.actor = QStringLiteral("+cmd|' /C calc'!A0");
        e.host = QStringLiteral("@host");
        e.action = QStringLiteral("events.requeue");
        e.targetKind = QStringLiteral("event");
        e.reason = QStringLiteral("=HYPERLINK(\"http://evil.example/\",\"click\")");
        e.outcome = QStringLiteral("none");
        QVERIFY(AuditLog(*db).append(e).ok());
        const Run r = outboxctl({QStringLiteral("audit"), QStringLiteral("list"), QStringLiteral("--csv"),
                                 QStringLiteral("--db"), TestDatabases::urlText(db->url())});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const QList<QByteArray> lines = r.out.trimmed().split('\n');
        QCOMPARE(lines.size(), 2);
        QVERIFY2(lines.first().startsWith("id,at,actor,host,action,target_kind,"), r.out.constData());
        QVERIFY2(r.out.contains(",'+cmd|' /C calc'!A0,'@host,events.requeue,"), r.out.constData());
        QVERIFY2(r.out.contains(",\"'=HYPERLINK(\"\"http://evil.example/\"\",\"\"click\"\")\","),
                 r.out.constData());
        QVERIFY(r.out.endsWith("\r\n"));
    }

    void configFileSuppliesTheDatabase()
    {
        auto db = TestDatabases::fresh(QStringLiteral("sqlite"), QStringLiteral("config"));
        QTemporaryDir dir;
        const QString ini = dir.filePath(QStringLiteral("outbox.ini"));
        QFile f(ini);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("[database]\nurl=" + TestDatabases::urlText(db->url()).toUtf8() + "\n");
        f.close();
        const Run r =
            outboxctl({QStringLiteral("status"), QStringLiteral("--config"), ini, QStringLiteral("--json")});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QVERIFY(r.json().contains(QStringLiteral("events")));

        QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
        f.write("[database\nurl=\"unterminated\n\x01\x02");
        f.close();
        const Run bad = outboxctl({QStringLiteral("status"), QStringLiteral("--config"), ini});
        QCOMPARE(bad.exitCode, 2);
        QCOMPARE(bad.errLines(), 1);
    }

    void kafkaRunsTheEmbeddedBrokerStandalone()
    {
        auto started =
            startOutboxctl({QStringLiteral("kafka"), QStringLiteral("--brokers"), QStringLiteral("2"),
                            QStringLiteral("--topic"), QStringLiteral("order:3")});
        QProcess& broker = *started;
        QVERIFY(broker.canReadLine() || broker.waitForReadyRead(10000));
        const QByteArray line = broker.readLine().trimmed();
        QVERIFY2(line.startsWith("bootstrap 127.0.0.1:"), line.constData());
        const QString bootstrap = QString::fromUtf8(line.mid(10));
        // SIGTERM drains and exits cleanly.
        QCOMPARE(relayTwentyEvents(bootstrap, QStringLiteral("standalone")), std::make_pair(qint64(20), 0));
        broker.terminate();
        QVERIFY(broker.waitForFinished(10000));
        QCOMPARE(broker.exitCode(), 0);
    }

    // `kafka --port`: the embedded broker on a bootstrap address known in advance (issue 36); a
    // relay and a consumer given only that address reach it, and a port that is taken is one error.
    void kafkaOnAFixedBootstrapPort()
    {
        quint16 port = 0;
        {
            QTcpServer probe; // a port free a moment ago
            QVERIFY(probe.listen(QHostAddress::LocalHost, 0));
            port = probe.serverPort();
        }
        auto started =
            startOutboxctl({QStringLiteral("kafka"), QStringLiteral("--port"), QString::number(port),
                            QStringLiteral("--topic"), QStringLiteral("order:1")});
        QProcess& broker = *started;
        QVERIFY(broker.canReadLine() || broker.waitForReadyRead(10000));
        const QByteArray line = broker.readLine().trimmed();
        QCOMPARE(line, QByteArray("bootstrap 127.0.0.1:") + QByteArray::number(port));
        const QString bootstrap = QStringLiteral("127.0.0.1:%1").arg(port);
        QCOMPARE(relayTwentyEvents(bootstrap, QStringLiteral("fixedport")), std::make_pair(qint64(20), 0));
        QCOMPARE(readTopic(bootstrap, QStringLiteral("order"), 20).size(), 20);
        // The same port again, while it is taken: one clear error, exit 1.
        const Run taken =
            outboxctl({QStringLiteral("kafka"), QStringLiteral("--port"), QString::number(port)});
        QCOMPARE(taken.exitCode, 1);
        QVERIFY2(taken.err.contains(QStringLiteral("cannot take port %1").arg(port).toUtf8()),
                 taken.err.constData());
        const Run bad =
            outboxctl({QStringLiteral("kafka"), QStringLiteral("--port"), QStringLiteral("70000")});
        QCOMPARE(bad.exitCode, 2);
        broker.terminate();
        QVERIFY(broker.waitForFinished(10000));
        QCOMPARE(broker.exitCode(), 0);
        QVERIFY(broker.readAll().contains("keeps the newest 5 MiB of each partition")); // stderr, merged
    }

    void relayRefusesUnsafeOptions_data()
    {
        QTest::addColumn<QStringList>("extra");
        QTest::addColumn<QString>("expected");
        QTest::newRow("timeout beyond lease")
            << QStringList{QStringLiteral("-X"), QStringLiteral("message.timeout.ms=60000")}
            << "message.timeout.ms";
        QTest::newRow("no idempotence")
            << QStringList{QStringLiteral("-X"), QStringLiteral("enable.idempotence=false")} << "idempotence";
        QTest::newRow("bad property")
            << QStringList{QStringLiteral("-X"), QStringLiteral("nonsense")} << "name=value";
        QTest::newRow("bad ordering")
            << QStringList{QStringLiteral("--ordering"), QStringLiteral("total")} << "--ordering";
        QTest::newRow("bad batch") << QStringList{QStringLiteral("--batch-size"), QStringLiteral("0")}
                                   << "--batch-size";
        QTest::newRow("no bootstrap")
            << QStringList{QStringLiteral("--kafka-bootstrap"), QString()} << "bootstrap";
    }
    void relayRefusesUnsafeOptions()
    {
        QFETCH(QStringList, extra);
        QFETCH(QString, expected);
        auto db = TestDatabases::fresh(QStringLiteral("sqlite"), QStringLiteral("unsafe"));
        QStringList args{QStringLiteral("relay"), QStringLiteral("--db"), TestDatabases::urlText(db->url()),
                         QStringLiteral("--kafka-bootstrap"), QStringLiteral("127.0.0.1:9")};
        const Run r = outboxctl(args + extra);
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(expected.toUtf8()), r.err.constData());
        QCOMPARE(r.errLines(), 1);
    }

    void demoRunsEndToEnd()
    {
        QTemporaryDir dir;
        const QString url = QStringLiteral("sqlite://") + dir.filePath(QStringLiteral("demo.db"));
        const Run demo =
            outboxctl({QStringLiteral("demo"), QStringLiteral("--db"), url, QStringLiteral("--duration"),
                       QStringLiteral("6"), QStringLiteral("--rate"), QStringLiteral("200")});
        QVERIFY2(demo.exitCode == 0, demo.err.constData());
        QVERIFY(demo.out.contains("kafka bootstrap 127.0.0.1:"));
        QVERIFY(demo.out.contains("demo stopped"));
        auto db = TestDatabases::open(DatabaseUrl::parse(url).value());
        QVERIFY(countRows(*db, QStringLiteral("{events}"), QStringLiteral("status = 'SENT'")) > 500);
        QVERIFY(countRows(*db, QStringLiteral("{events}"),
                          QStringLiteral("status = 'FAILED' AND last_error_class = 'deterministic'")) >= 2);
        QCOMPARE(countRows(*db, QStringLiteral("demo_orders")),
                 countRows(*db, QStringLiteral("{events}"), QStringLiteral("event_type = 'OrderCreated'")));
    }

    // On a server database the order service writes through several connections, each order with
    // its event in its own transaction: every order number is taken once, none is skipped.
    void demoWritesOrdersThroughSeveralConnections()
    {
        const DatabaseUrl url =
            TestDatabases::create(QStringLiteral("postgresql"), QStringLiteral("demowriters"));
        const QString urlText = TestDatabases::urlText(url);
        const Run zero = outboxctl({QStringLiteral("demo"), QStringLiteral("--db"), urlText,
                                    QStringLiteral("--writers"), QStringLiteral("0")});
        QCOMPARE(zero.exitCode, 2);
        QVERIFY2(zero.err.contains("--writers must be between 1 and 32"), zero.err.constData());
        const Run demo =
            outboxctl({QStringLiteral("demo"), QStringLiteral("--db"), urlText, QStringLiteral("--duration"),
                       QStringLiteral("4"), QStringLiteral("--rate"), QStringLiteral("300"),
                       QStringLiteral("--writers"), QStringLiteral("3")});
        QVERIFY2(demo.exitCode == 0, demo.err.constData());
        QVERIFY2(demo.out.contains("300 orders/s on 3 connection(s)"), demo.out.constData());
        auto db = TestDatabases::open(url);
        const qint64 orders = countRows(*db, QStringLiteral("demo_orders"));
        QVERIFY(orders > 300);
        QCOMPARE(orders,
                 countRows(*db, QStringLiteral("{events}"), QStringLiteral("event_type = 'OrderCreated'")));
        QCOMPARE(OrderSimulator::lastOrderNumber(*db).value(), orders); // O100001 … with no gap
        // The default on PostgreSQL: the banner names it.
        const Run again = outboxctl({QStringLiteral("demo"), QStringLiteral("--db"), urlText,
                                     QStringLiteral("--duration"), QStringLiteral("1")});
        QVERIFY2(again.exitCode == 0, again.err.constData());
        QVERIFY2(again.out.contains(QStringLiteral("50 orders/s on %1 connection(s)")
                                        .arg(OrderSimulator::DefaultServerWriters)
                                        .toUtf8()),
                 again.out.constData());
    }

    void injectionThroughCliFiltersChangesNothing_data() { TestDatabases::addKinds(); }
    void injectionThroughCliFiltersChangesNothing()
    {
        QFETCH(QString, kind);
        auto db = TestDatabases::fresh(kind, QStringLiteral("inject"));
        const QString url = TestDatabases::urlText(db->url());
        const auto ids = insertEvents(*db, 4);
        forceStatus(*db, ids.mid(0, 2), QStringLiteral("FAILED"), QStringLiteral("boom"));
        const QString attack = QStringLiteral("x' OR '1'='1'; DELETE FROM outbox_events; --");
        for (const QString& option : {QStringLiteral("--type"), QStringLiteral("--aggregate"),
                                      QStringLiteral("--aggregate-type"), QStringLiteral("--error")}) {
            const Run list =
                outboxctl({QStringLiteral("events"), QStringLiteral("list"), QStringLiteral("--db"), url,
                           option, attack, QStringLiteral("--json")});
            QVERIFY2(list.exitCode == 0, list.err.constData());
            QCOMPARE(list.json().value(QStringLiteral("events")).toArray().size(), 0);
            const Run requeue = outboxctl({QStringLiteral("requeue"), QStringLiteral("--db"), url, option,
                                           attack, QStringLiteral("--reason"), QStringLiteral("r"),
                                           QStringLiteral("--yes"), QStringLiteral("--json")});
            QVERIFY2(requeue.exitCode == 0, requeue.err.constData());
            QCOMPARE(requeue.json().value(QStringLiteral("matched")).toInteger(), qint64(0));
        }
        const Run status = outboxctl({QStringLiteral("events"), QStringLiteral("list"),
                                      QStringLiteral("--db"), url, QStringLiteral("--status"), attack});
        QCOMPARE(status.exitCode, 2);
        QCOMPARE(countRows(*db, QStringLiteral("{events}")), qint64(4));
        QCOMPARE(countRows(*db, QStringLiteral("{events}"), QStringLiteral("status = 'FAILED'")), qint64(2));
    }
};

QTEST_GUILESS_MAIN(TestOutboxctl)
#include "tst_outboxctl.moc"
