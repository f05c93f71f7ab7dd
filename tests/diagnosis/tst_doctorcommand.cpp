// `outboxctl doctor` and `outboxctl relays` as real processes: the report, the exit codes, and the
// prepared command lines run through a shell exactly as an operator would paste them.
#include "core/db/DeadLetterStore.h"
#include "core/db/InboxStore.h"
#include "core/db/RelayStore.h"
#include "core/diagnosis/Doctor.h"
#include "tests/support/OutboxctlProcess.h"
#include "tests/support/TestDatabases.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QSet>
#include <QTcpServer>
#include <QTemporaryDir>
#include <QTest>

using namespace outbox;
using namespace outbox::test;

namespace {

using Run = OutboxctlRun;

// The prepared commands carry no password: it comes from the environment, as in an operator's shell.
OutboxctlOptions environment(const DatabaseUrl& url)
{
    OutboxctlOptions options;
    options.extraEnv.insert(QStringLiteral("OUTBOX_DB_PASSWORD"), url.password);
    options.timeoutMs = 60000;
    return options;
}

Run outboxctl(const DatabaseUrl& url, const QStringList& args)
{
    return runOutboxctl(args, environment(url));
}

// Runs a prepared command line ("outboxctl …", shell-quoted) as printed, with the options `extra`
// added where options go: before the `--` that ends them (the positionals follow it).
Run shell(const DatabaseUrl& url, const QString& command, const QString& extra)
{
    QString line = command;
    const qsizetype end = line.indexOf(QLatin1String(" -- "));
    if (end < 0)
        line += QLatin1Char(' ') + extra;
    else
        line.insert(end, QLatin1Char(' ') + extra);
    return runPrintedCommand(line, environment(url));
}

QStringList findingIds(const Run& run)
{
    QStringList ids;
    for (const QJsonValue& v : run.json().value(QStringLiteral("findings")).toArray())
        ids << v.toObject().value(QStringLiteral("id")).toString();
    return ids;
}

// The first prepared action of the report's first finding (`doctor --json`).
QJsonObject firstAction(const Run& run)
{
    return run.json()
        .value(QStringLiteral("findings"))
        .toArray()
        .first()
        .toObject()
        .value(QStringLiteral("actions"))
        .toArray()
        .first()
        .toObject();
}

// The prepared action of finding `id` whose command starts with `prefix` (`doctor --json`).
QJsonObject actionOf(const Run& run, const QString& id, const QString& prefix)
{
    for (const QJsonValue& f : run.json().value(QStringLiteral("findings")).toArray()) {
        if (f.toObject().value(QStringLiteral("id")).toString() != id)
            continue;
        for (const QJsonValue& a : f.toObject().value(QStringLiteral("actions")).toArray())
            if (a.toObject().value(QStringLiteral("label")).toString().startsWith(prefix))
                return a.toObject();
    }
    return {};
}

// The finding with this id whose title contains `text` (`doctor --json`).
QJsonObject findingOf(const Run& run, const QString& id, const QString& text)
{
    for (const QJsonValue& f : run.json().value(QStringLiteral("findings")).toArray())
        if (f.toObject().value(QStringLiteral("id")).toString() == id &&
            f.toObject().value(QStringLiteral("title")).toString().contains(text))
            return f.toObject();
    return {};
}

QStringList doctorArgs(const DatabaseUrl& url, const QStringList& more = {})
{
    return QStringList{QStringLiteral("doctor"), QStringLiteral("--db"), TestDatabases::urlText(url)} + more;
}

void ageCreated(Database& db, qint64 ms)
{
    exec(db,
         QStringLiteral("UPDATE {events} SET created_at = %1")
             .arg(db.dialect().nowPlusMillis(QStringLiteral(":ms"))),
         {{QStringLiteral(":ms"), -ms}});
}

} // namespace

class TestDoctorCommand : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QVERIFY2(!qEnvironmentVariable("OUTBOXCTL").isEmpty(), "OUTBOXCTL must point at the binary");
    }

    void healthyDatabasePrintsNoFindings_data() { TestDatabases::addKinds(); }
    void healthyDatabasePrintsNoFindings()
    {
        QFETCH(QString, kind);
        auto db = TestDatabases::fresh(kind, QStringLiteral("doctorcli_healthy"));
        insertEvents(*db, 3); // just written: PENDING, but young
        registerRelay(*db, QStringLiteral("relay-a"), 0);
        const Run text = outboxctl(db->url(), doctorArgs(db->url()));
        QVERIFY2(text.exitCode == 0, text.err.constData());
        QVERIFY2(text.out.contains("no findings"), text.out.constData());
        QVERIFY(!text.out.contains("\x1b[")); // no colour without a terminal
        const Run json = outboxctl(db->url(), doctorArgs(db->url(), {QStringLiteral("--json")}));
        QCOMPARE(json.exitCode, 0);
        QVERIFY(json.json().value(QStringLiteral("findings")).toArray().isEmpty());
        QCOMPARE(json.json().value(QStringLiteral("checks")).toArray().size(),
                 Doctor::checkIds().size()); // every check
    }

    void pendingWithoutRelayExitsThree_data() { TestDatabases::addKinds(); }
    void pendingWithoutRelayExitsThree()
    {
        QFETCH(QString, kind);
        auto db = TestDatabases::fresh(kind, QStringLiteral("doctorcli_norelay"));
        insertEvents(*db, 5);
        ageCreated(*db, 10 * 60 * 1000);
        const Run text = outboxctl(db->url(), doctorArgs(db->url()));
        QCOMPARE(text.exitCode, 3);
        QVERIFY2(text.out.contains("CRITICAL  no-relay"), text.out.constData());
        QVERIFY2(text.out.contains("WARNING   backlog-age"), text.out.constData());
        QVERIFY(text.out.contains("1 critical, 1 warning"));
        const Run json = outboxctl(db->url(), doctorArgs(db->url(), {QStringLiteral("--json")}));
        QCOMPARE(json.exitCode, 3);
        QCOMPARE(findingIds(json), (QStringList{QStringLiteral("no-relay"), QStringLiteral("backlog-age")}));

        // A live relay: only the backlog warning is left; --fail-on decides the exit code.
        registerRelay(*db, QStringLiteral("relay-a"), 0);
        QCOMPARE(outboxctl(db->url(), doctorArgs(db->url())).exitCode, 0);
        const Run strict = outboxctl(
            db->url(), doctorArgs(db->url(), {QStringLiteral("--fail-on"), QStringLiteral("warning")}));
        QCOMPARE(strict.exitCode, 3);
        // One check only.
        const Run one =
            outboxctl(db->url(), doctorArgs(db->url(), {QStringLiteral("--check"), QStringLiteral("no-relay"),
                                                        QStringLiteral("--json")}));
        QCOMPARE(one.exitCode, 0);
        QCOMPARE(one.json().value(QStringLiteral("checks")).toArray().size(), 1);
    }

    void runningTheFailedEventsCommandClearsTheFinding_data() { TestDatabases::addKinds(); }
    void runningTheFailedEventsCommandClearsTheFinding()
    {
        QFETCH(QString, kind);
        auto db = TestDatabases::fresh(kind, QStringLiteral("doctorcli_failed"));
        const auto ids = insertEvents(*db, 6);
        registerRelay(*db, QStringLiteral("relay-a"), 0);
        forceStatus(*db, ids.mid(0, 4), QStringLiteral("FAILED"),
                    QStringLiteral("Broker: Topic authorization failed"));
        forceStatus(*db, ids.mid(4, 1), QStringLiteral("FAILED"),
                    QStringLiteral("Broker: Message size too large"));
        const Run before = outboxctl(db->url(), doctorArgs(db->url(), {QStringLiteral("--json")}));
        QCOMPARE(before.exitCode, 3);
        QCOMPARE(findingIds(before),
                 (QStringList{QStringLiteral("failed-events"), QStringLiteral("failed-events")}));
        const QJsonObject acl = before.json().value(QStringLiteral("findings")).toArray().first().toObject();
        QCOMPARE(acl.value(QStringLiteral("evidence")).toObject().value(QStringLiteral("count")).toInteger(),
                 qint64(4));
        const QString command = acl.value(QStringLiteral("actions"))
                                    .toArray()
                                    .first()
                                    .toObject()
                                    .value(QStringLiteral("command"))
                                    .toString();
        QVERIFY2(command.startsWith(QLatin1String("outboxctl requeue ")), qPrintable(command));
        QVERIFY2(command.contains(QLatin1String("--db ")), qPrintable(command)); // reaches the same database

        const Run requeue =
            shell(db->url(), command, QStringLiteral("--reason 'failed-events: ACL fixed' --yes"));
        QVERIFY2(requeue.exitCode == 0, requeue.err.constData());
        QVERIFY2(requeue.out.contains("4 of 4"), requeue.out.constData());

        const Run after = outboxctl(db->url(), doctorArgs(db->url(), {QStringLiteral("--json")}));
        const QJsonArray left = after.json().value(QStringLiteral("findings")).toArray();
        QCOMPARE(left.size(), 1); // only the other group
        QCOMPARE(left.first().toObject().value(QStringLiteral("key")).toString(),
                 QStringLiteral("failed-events//Broker: Message size too large"));
        QCOMPARE(countRows(*db, QStringLiteral("{audit}"), QStringLiteral("reason LIKE 'failed-events:%'")),
                 qint64(1));
    }

    void staleRelayIsForgottenWithItsCommand_data() { TestDatabases::addKinds(); }
    void staleRelayIsForgottenWithItsCommand()
    {
        QFETCH(QString, kind);
        auto db = TestDatabases::fresh(kind, QStringLiteral("doctorcli_stale"));
        registerRelay(*db, QStringLiteral("relay-gone"), 10 * 60 * 1000);
        registerRelay(*db, QStringLiteral("relay-live"), 0);
        const Run before = outboxctl(db->url(), doctorArgs(db->url(), {QStringLiteral("--json")}));
        QCOMPARE(before.exitCode, 0); // a warning only
        QCOMPARE(findingIds(before), QStringList{QStringLiteral("relay-stale")});
        const QString command = firstAction(before).value(QStringLiteral("command")).toString();
        const Run forget =
            shell(db->url(), command, QStringLiteral("--reason 'relay-stale: host retired' --yes"));
        QVERIFY2(forget.exitCode == 0, forget.err.constData());
        QCOMPARE(countRows(*db, QStringLiteral("{relays}")), qint64(1));
        QVERIFY(outboxctl(db->url(), doctorArgs(db->url(), {QStringLiteral("--json")}))
                    .json()
                    .value(QStringLiteral("findings"))
                    .toArray()
                    .isEmpty());
        QCOMPARE(countRows(*db, QStringLiteral("{audit}"), QStringLiteral("action = 'relay.forget'")),
                 qint64(1));

        // A live relay is never forgotten; pause and resume are audited too.
        const QString url = TestDatabases::urlText(db->url());
        const Run refused =
            outboxctl(db->url(), {QStringLiteral("relays"), QStringLiteral("forget"),
                                  QStringLiteral("relay-live"), QStringLiteral("--db"), url,
                                  QStringLiteral("--reason"), QStringLiteral("x"), QStringLiteral("--yes")});
        QCOMPARE(refused.exitCode, 1);
        QVERIFY2(refused.err.contains("alive"), refused.err.constData());
        const Run pause = outboxctl(db->url(), {QStringLiteral("relays"), QStringLiteral("pause"),
                                                QStringLiteral("relay-live"), QStringLiteral("--db"), url,
                                                QStringLiteral("--reason"), QStringLiteral("maintenance"),
                                                QStringLiteral("--yes")});
        QVERIFY2(pause.exitCode == 0, pause.err.constData());
        const Run list = outboxctl(
            db->url(), {QStringLiteral("relays"), QStringLiteral("--db"), url, QStringLiteral("--json")});
        QCOMPARE(list.json()
                     .value(QStringLiteral("relays"))
                     .toArray()
                     .first()
                     .toObject()
                     .value(QStringLiteral("desired_state"))
                     .toString(),
                 QStringLiteral("PAUSE"));
    }

    // A worker id is database-derived: whatever it holds, the printed command passes it as a
    // positional. Run exactly as printed by bash, a worker id `--db=postgresql://evil@…` must not
    // connect there (with the password of the environment) and `--yes` must not skip confirmation.
    void optionShapedWorkerIdsStayPositionals()
    {
        QTcpServer evil;
        QVERIFY(evil.listen(QHostAddress::LocalHost));
        auto db = TestDatabases::fresh(QStringLiteral("sqlite"), QStringLiteral("doctorcli_inject"));
        const QString evilId = QStringLiteral("--db=postgresql://evil@127.0.0.1:%1/x").arg(evil.serverPort());
        registerRelay(*db, evilId, 30 * 60 * 1000);
        registerRelay(*db, QStringLiteral("--yes"), 30 * 60 * 1000);

        // The database from the environment, as on a server: the printed command names none.
        OutboxctlOptions options = environment(db->url());
        options.extraEnv.insert(QStringLiteral("OUTBOX_DB_URL"), TestDatabases::urlText(db->url()));
        options.extraEnv.insert(QStringLiteral("OUTBOX_DB_PASSWORD"), QStringLiteral("the-real-password"));

        const Run json = runOutboxctl({QStringLiteral("doctor"), QStringLiteral("--json")}, options);
        QCOMPARE(findingIds(json), QStringList{QStringLiteral("relay-stale")});
        const QString command = firstAction(json).value(QStringLiteral("command")).toString();

        // The human report's line, with its --reason, pasted as printed.
        const Run human = runOutboxctl({QStringLiteral("doctor")}, options);
        QString printed;
        for (const QString& line : QString::fromUtf8(human.out).split(QLatin1Char('\n')))
            if (line.trimmed().startsWith(QLatin1String("$ outboxctl relays forget")))
                printed = line.trimmed().mid(2);
        QVERIFY2(!printed.isEmpty(), human.out.constData());
        const Run pasted = runPrintedCommand(printed, options);
        QVERIFY2(pasted.exitCode == 2 && pasted.err.contains("without confirmation"),
                 qPrintable(printed + QLatin1Char('\n') + QString::fromUtf8(pasted.err)));
        QVERIFY2(!evil.waitForNewConnection(200), "the pasted command connected to the worker id's server");
        QCOMPARE(countRows(*db, QStringLiteral("{relays}")), qint64(2)); // --yes skipped nothing
        QVERIFY2(command.contains(QLatin1String(" -- ")), qPrintable(command));

        // Confirmed (--yes among the options), it forgets exactly the two relays it names.
        const Run confirmed = runPrintedCommand(
            QString(printed).replace(QStringLiteral(" -- "), QStringLiteral(" --yes -- ")), options);
        QVERIFY2(confirmed.exitCode == 0, confirmed.err.constData());
        QVERIFY(!evil.waitForNewConnection(200));
        QCOMPARE(countRows(*db, QStringLiteral("{relays}")), qint64(0));
    }

    // ESC/OSC sequences stored in the database (an error, a topic, a worker id) reach no terminal:
    // human output shows them escaped; JSON output escapes them as JSON does.
    void terminalEscapesFromTheDatabaseAreShownNotSent()
    {
        auto db = TestDatabases::fresh(QStringLiteral("sqlite"), QStringLiteral("doctorcli_escapes"));
        const QString osc = QStringLiteral("\x1b]0;owned\x07\x1b[2J\rFAKE");
        const auto ids = insertEvents(*db, 2);
        forceStatus(*db, ids, QStringLiteral("FAILED"), QStringLiteral("Broker: ") + osc);
        QVERIFY(db->exec(QStringLiteral("UPDATE {events} SET attempts = 1")).ok()); // trace shows the error
        registerRelay(*db, QStringLiteral("relay") + osc, 30 * 60 * 1000);
        DeadLetter letter;
        letter.consumerName = QStringLiteral("billing");
        letter.eventId = QStringLiteral("ev-1");
        letter.topic = QStringLiteral("orders") + osc;
        letter.payload = "{}";
        letter.error = QStringLiteral("handler: ") + osc;
        QVERIFY(DeadLetterStore(*db).insert(letter).ok());

        const QString url = TestDatabases::urlText(db->url());
        const QList<QStringList> commands{{QStringLiteral("doctor")},
                                          {QStringLiteral("events"), QStringLiteral("list"),
                                           QStringLiteral("--status"), QStringLiteral("FAILED")},
                                          {QStringLiteral("trace"), QString::number(ids.first())},
                                          {QStringLiteral("dlq"), QStringLiteral("list")},
                                          {QStringLiteral("relays")}};
        for (const QStringList& command : commands) {
            const Run human = outboxctl(db->url(), command + QStringList{QStringLiteral("--db"), url});
            const QByteArray shown = human.out + human.err;
            QVERIFY2(human.exitCode == 0 || human.exitCode == 3, qPrintable(command.join(QLatin1Char(' '))));
            QVERIFY2(!shown.contains('\x1b') && !shown.contains('\x07') && !shown.contains('\r'),
                     qPrintable(command.join(QLatin1Char(' ')) + QStringLiteral(": raw control characters")));
            QVERIFY2(shown.contains("\\e]0;owned\\x07\\e[2J"), shown.constData());
            const Run json = outboxctl(
                db->url(), command + QStringList{QStringLiteral("--db"), url, QStringLiteral("--json")});
            QVERIFY2(!json.out.contains('\x1b') && json.out.contains("u001b]0;owned"), json.out.constData());
        }
    }

    // A relay refuses a worker id that would read as an option or drive a terminal.
    void relayRefusesUnsafeWorkerIds()
    {
        auto db = TestDatabases::fresh(QStringLiteral("sqlite"), QStringLiteral("doctorcli_workerid"));
        for (const QString& id : {QStringLiteral("--yes"), QStringLiteral("relay\x1b]0;x\x07")}) {
            const Run r =
                outboxctl(db->url(), {QStringLiteral("relay"), QStringLiteral("--db"),
                                      TestDatabases::urlText(db->url()), QStringLiteral("--worker-id=") + id,
                                      QStringLiteral("--kafka-bootstrap"), QStringLiteral("127.0.0.1:1")});
            QCOMPARE(r.exitCode, 2);
            QVERIFY2(r.err.contains("worker id"), r.err.constData());
        }
        QCOMPARE(countRows(*db, QStringLiteral("{relays}")), qint64(0));
    }

    // Issue 25 item 1: the no-relay and backlog-age findings prepare a relay for the configured
    // broker (no HOST:PORT placeholder that overrides it), with aggregate ordering while an
    // aggregate is blocked; pasted as printed, it sends the backlog. Without a configured broker
    // there is no command, only what to add.
    void preparedRelayUsesTheConfiguredBroker()
    {
        auto broker =
            startOutboxctl({QStringLiteral("kafka"), QStringLiteral("--topic"), QStringLiteral("Order:3")});
        QVERIFY(broker->canReadLine() || broker->waitForReadyRead(10000));
        const QByteArray line = broker->readLine().trimmed();
        QVERIFY2(line.startsWith("bootstrap 127.0.0.1:"), line.constData());
        const QString bootstrap = QString::fromUtf8(line.mid(10));

        auto db = TestDatabases::fresh(QStringLiteral("sqlite"), QStringLiteral("doctorcli_relaycmd"));
        insertEvents(*db, 5, QStringLiteral("OrderCreated"), QStringLiteral("free-"));
        const QVector<qint64> blocking =
            insertEvents(*db, 1, QStringLiteral("OrderCreated"), QStringLiteral("held-"));
        insertEvents(*db, 1, QStringLiteral("OrderCreated"), QStringLiteral("held-")); // waits behind it
        ageCreated(*db, 10 * 60 * 1000);
        exec(*db, QStringLiteral("UPDATE {events} SET status = 'FAILED', last_error = 'boom' WHERE id = :id"),
             {{QStringLiteral(":id"), blocking.first()}});

        // Unknown broker: no runnable-looking command, and the report says what is missing.
        const Run unknown = outboxctl(db->url(), doctorArgs(db->url(), {QStringLiteral("--json")}));
        QCOMPARE(unknown.exitCode, 3);
        const QJsonObject missing =
            actionOf(unknown, QStringLiteral("no-relay"), QStringLiteral("Start a relay"));
        QVERIFY(!missing.isEmpty());
        QCOMPARE(missing.value(QStringLiteral("command")).toString(), QString());
        QVERIFY2(missing.value(QStringLiteral("command_refused"))
                     .toString()
                     .contains(QStringLiteral("not configured")),
                 qPrintable(missing.value(QStringLiteral("command_refused")).toString()));
        const Run unknownText = outboxctl(db->url(), doctorArgs(db->url()));
        QVERIFY2(!unknownText.out.contains("HOST:PORT"), unknownText.out.constData());
        QVERIFY2(unknownText.out.contains("(no command: the broker is not configured"),
                 unknownText.out.constData());

        QTemporaryDir dir;
        const QString ini = dir.filePath(QStringLiteral("outbox.ini"));
        QFile file(ini);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("[kafka]\nbootstrap = " + bootstrap.toUtf8() + "\n");
        file.close();
        const Run json = outboxctl(
            db->url(), doctorArgs(db->url(), {QStringLiteral("--config"), ini, QStringLiteral("--json")}));
        QCOMPARE(json.exitCode, 3);
        for (const QString& id : {QStringLiteral("no-relay"), QStringLiteral("backlog-age")}) {
            const QString command = actionOf(json, id, QStringLiteral("Start a relay"))
                                        .value(QStringLiteral("command"))
                                        .toString();
            QVERIFY2(command.startsWith(QStringLiteral("outboxctl relay ")),
                     qPrintable(id + QLatin1Char(' ') + command));
            QVERIFY2(!command.contains(QStringLiteral("HOST:PORT")), qPrintable(command));
            QVERIFY2(command.contains(QStringLiteral("--broker=kafka://") + bootstrap), qPrintable(command));
            QVERIFY2(command.contains(QStringLiteral("--ordering=aggregate")), qPrintable(command));
        }
        const QString printed = actionOf(json, QStringLiteral("no-relay"), QStringLiteral("Start a relay"))
                                    .value(QStringLiteral("command"))
                                    .toString();
        OutboxctlOptions options = environment(db->url());
        options.stopAfterMs = 8000;
        runPrintedCommand(printed, options);
        QCOMPARE(countRows(*db, QStringLiteral("{events}"), QStringLiteral("status = 'SENT'")), qint64(5));
        // The aggregate behind its FAILED event kept its order.
        QCOMPARE(countRows(*db, QStringLiteral("{events}"), QStringLiteral("status = 'PENDING'")), qint64(1));
        terminateAndWait(*broker);
    }

    // Issue 25 item 2: a group action targets the exact group, never a substring of its error:
    // "unknown SKU SKU-" is also in "unknown SKU sku-27" where LIKE ignores case. The printed
    // commands, pasted, leave the other group alone (events and dead letters).
    void groupActionsNeverTouchTheOtherGroup_data() { TestDatabases::addKinds(); }
    void groupActionsNeverTouchTheOtherGroup()
    {
        QFETCH(QString, kind);
        auto db = TestDatabases::fresh(kind, QStringLiteral("doctorcli_groups"));
        registerRelay(*db, QStringLiteral("relay-a"), 0);
        const auto ids = insertEvents(*db, 13);
        for (int i = 0; i < 12; ++i) // more than the samples a finding names: the group is the target
            forceStatus(*db, {ids.at(i)}, QStringLiteral("FAILED"),
                        QStringLiteral("unknown SKU SKU-%1").arg(100 + i));
        forceStatus(*db, {ids.at(12)}, QStringLiteral("FAILED"), QStringLiteral("unknown SKU sku-27"));
        for (int i = 0; i < 4; ++i) {
            DeadLetter letter;
            letter.consumerName = QStringLiteral("inventory");
            letter.eventId = QStringLiteral("ev-%1").arg(i);
            letter.topic = QStringLiteral("Order");
            letter.payload = "{}";
            letter.error = i < 3 ? QStringLiteral("unknown SKU SKU-%1").arg(200 + i)
                                 : QStringLiteral("unknown SKU sku-27");
            QVERIFY(DeadLetterStore(*db).insert(letter).ok());
        }
        const Run before = outboxctl(db->url(), doctorArgs(db->url(), {QStringLiteral("--json")}));
        const QJsonObject events =
            findingOf(before, QStringLiteral("failed-events"), QStringLiteral("SKU SKU-"));
        QVERIFY2(!events.isEmpty(), before.out.constData());
        const QJsonObject requeue = events.value(QStringLiteral("actions")).toArray().first().toObject();
        QCOMPARE(requeue.value(QStringLiteral("target")).toObject().value(QStringLiteral("kind")).toString(),
                 QStringLiteral("failure-group"));
        const QString requeueCommand = requeue.value(QStringLiteral("command")).toString();
        QVERIFY2(requeueCommand.contains(QStringLiteral("--group=")) &&
                     !requeueCommand.contains(QStringLiteral("--error")),
                 qPrintable(requeueCommand));
        const QString extra = QStringLiteral("--reason='issue 25: exact group' --yes");
        const Run requeued = shell(db->url(), requeueCommand, extra);
        QVERIFY2(requeued.exitCode == 0, requeued.err.constData());
        QCOMPARE(countRows(*db, QStringLiteral("{events}"), QStringLiteral("status = 'PENDING'")),
                 qint64(12));
        QCOMPARE(countRows(*db, QStringLiteral("{events}"), QStringLiteral("status = 'FAILED'")), qint64(1));

        const QJsonObject letters =
            findingOf(before, QStringLiteral("dead-letters"), QStringLiteral("SKU SKU-"));
        QVERIFY2(!letters.isEmpty(), before.out.constData());
        QJsonObject discard;
        for (const QJsonValue& a : letters.value(QStringLiteral("actions")).toArray())
            if (a.toObject().value(QStringLiteral("operation")).toString() == QLatin1String("dlq.discard"))
                discard = a.toObject();
        const QJsonObject group = discard.value(QStringLiteral("target"))
                                      .toObject()
                                      .value(QStringLiteral("failure_group"))
                                      .toObject();
        QCOMPARE(group.value(QStringLiteral("consumer")).toString(), QStringLiteral("inventory"));
        QVERIFY(!group.value(QStringLiteral("fingerprint")).toString().isEmpty());
        const QString discardCommand = discard.value(QStringLiteral("command")).toString();
        QVERIFY2(discardCommand.contains(QStringLiteral("--group=")) &&
                     !discardCommand.contains(QStringLiteral("--error")),
                 qPrintable(discardCommand));
        const Run discarded = shell(db->url(), discardCommand, extra);
        QVERIFY2(discarded.exitCode == 0, discarded.err.constData());
        QCOMPARE(countRows(*db, QStringLiteral("{dead_letters}"), QStringLiteral("status = 'DISCARDED'")),
                 qint64(3));
        QCOMPARE(countRows(*db, QStringLiteral("{dead_letters}"), QStringLiteral("status = 'NEW'")),
                 qint64(1));
        QCOMPARE(countRows(*db, QStringLiteral("{dead_letters}"),
                           QStringLiteral("status = 'NEW' AND error = 'unknown SKU sku-27'")),
                 qint64(1));
    }

    // Issue 25 item 4: a printed mutating command carries a reason (the finding's), so pasted as
    // printed it does not fail with "a reason is required"; with the confirmation it runs.
    void printedMutatingCommandsCarryAReason()
    {
        auto db = TestDatabases::fresh(QStringLiteral("sqlite"), QStringLiteral("doctorcli_reason"));
        registerRelay(*db, QStringLiteral("relay-a"), 0);
        const auto ids = insertEvents(*db, 3);
        forceStatus(*db, ids, QStringLiteral("FAILED"), QStringLiteral("Broker: Topic authorization failed"));
        const Run text = outboxctl(db->url(), doctorArgs(db->url()));
        QString printed;
        for (const QString& line : QString::fromUtf8(text.out).split(QLatin1Char('\n')))
            if (line.trimmed().startsWith(QStringLiteral("$ outboxctl requeue")))
                printed = line.trimmed().mid(2);
        QVERIFY2(printed.contains(QStringLiteral("--reason=")), text.out.constData());
        const Run json = outboxctl(db->url(), doctorArgs(db->url(), {QStringLiteral("--json")}));
        QCOMPARE(firstAction(json).value(QStringLiteral("command")).toString(), printed);
        const Run pasted = runPrintedCommand(printed, environment(db->url()));
        QVERIFY2(!pasted.err.contains("reason"), pasted.err.constData());
        QCOMPARE(countRows(*db, QStringLiteral("{events}"), QStringLiteral("status = 'FAILED'")), qint64(3));
        const Run confirmed = shell(db->url(), printed, QStringLiteral("--yes"));
        QVERIFY2(confirmed.exitCode == 0, confirmed.err.constData());
        QCOMPARE(countRows(*db, QStringLiteral("{events}"), QStringLiteral("status = 'PENDING'")), qint64(3));
        QCOMPARE(countRows(*db, QStringLiteral("{audit}"),
                           QStringLiteral("reason LIKE 'failed-events: Requeue%'")),
                 qint64(1));
    }

    // Issue 25 item 10: with LANG=zh_CN.UTF-8 every human text of every finding (title, causes,
    // runbook steps, action labels and consequences) is Chinese, the ids, keys, severities, units and
    // commands of --json stay as they are, and a printed command (its reason now Chinese) runs as printed.
    void zhCnTranslatesEveryHumanText()
    {
        auto db = TestDatabases::fresh(QStringLiteral("sqlite"), QStringLiteral("doctorcli_zhcn"));
        const auto ids = insertEvents(*db, 8);
        ageCreated(*db, 10 * 60 * 1000);
        registerRelay(*db, QStringLiteral("relay-old"), 10 * 60 * 1000);
        forceStatus(*db, {ids.at(0), ids.at(1)}, QStringLiteral("FAILED"),
                    QStringLiteral("Broker: Topic authorization failed"));
        forceStatus(*db, {ids.at(2)}, QStringLiteral("DEAD"),
                    QStringLiteral("Broker: Message size too large"));
        DeadLetter letter;
        letter.consumerName = QStringLiteral("inventory");
        letter.eventId = QStringLiteral("ev-1");
        letter.topic = QStringLiteral("Order");
        letter.payload = "{}";
        letter.error = QStringLiteral("unknown SKU SKU-1");
        QVERIFY(DeadLetterStore(*db).insert(letter).ok());

        const auto inLocale = [&](const char* locale, const QStringList& more) {
            OutboxctlOptions options = environment(db->url());
            for (const char* name : {"LC_ALL", "LC_MESSAGES", "LANG"})
                options.extraEnv.insert(QLatin1String(name), QLatin1String(locale));
            options.extraEnv.insert(QStringLiteral("LANGUAGE"), QString());
            return runOutboxctl(doctorArgs(db->url(), more), options);
        };
        const Run english = inLocale("C.UTF-8", {QStringLiteral("--json")});
        const Run chinese = inLocale("zh_CN.UTF-8", {QStringLiteral("--json")});
        QCOMPARE(chinese.exitCode, 3);
        const auto findings = [](const Run& run) {
            QMap<QString, QJsonObject> byKey;
            for (const QJsonValue& f : run.json().value(QStringLiteral("findings")).toArray())
                byKey.insert(f.toObject().value(QStringLiteral("key")).toString(), f.toObject());
            return byKey;
        };
        const QMap<QString, QJsonObject> en = findings(english);
        const QMap<QString, QJsonObject> zh = findings(chinese);
        QCOMPARE(zh.keys(), en.keys());
        QSet<QString> kinds;
        for (const QJsonObject& f : zh)
            kinds << f.value(QStringLiteral("id")).toString();
        for (const char* id :
             {"no-relay", "relay-stale", "backlog-age", "failed-events", "dead-events", "dead-letters"})
            QVERIFY2(kinds.contains(QLatin1String(id)),
                     qPrintable(QStringList(kinds.values()).join(QLatin1Char(','))));
        static const QRegularExpression han(QStringLiteral("[\\x{4e00}-\\x{9fff}]"));
        const auto translated = [&](const QString& where, const QString& source, const QString& shown) {
            QVERIFY2(shown != source && shown.contains(han),
                     qPrintable(where + QStringLiteral(": ") + shown));
        };
        for (auto it = en.cbegin(); it != en.cend(); ++it) {
            const QJsonObject& e = it.value();
            const QJsonObject& z = zh.value(it.key());
            const QString where = it.key();
            for (const char* same : {"id", "severity"})
                QCOMPARE(z.value(QLatin1String(same)), e.value(QLatin1String(same)));
            QCOMPARE(z.value(QStringLiteral("evidence")).toObject().value(QStringLiteral("unit")),
                     e.value(QStringLiteral("evidence")).toObject().value(QStringLiteral("unit")));
            translated(where, e.value(QStringLiteral("title")).toString(),
                       z.value(QStringLiteral("title")).toString());
            for (const char* list : {"causes", "runbook"}) {
                const QJsonArray el = e.value(QLatin1String(list)).toArray();
                const QJsonArray zl = z.value(QLatin1String(list)).toArray();
                QCOMPARE(zl.size(), el.size());
                for (int i = 0; i < el.size(); ++i)
                    translated(where + QLatin1Char(' ') + QLatin1String(list), el.at(i).toString(),
                               zl.at(i).toString());
            }
            const QJsonArray ea = e.value(QStringLiteral("actions")).toArray();
            const QJsonArray za = z.value(QStringLiteral("actions")).toArray();
            QCOMPARE(za.size(), ea.size());
            for (int i = 0; i < ea.size(); ++i) {
                for (const char* text : {"label", "consequence"})
                    translated(where + QLatin1Char(' ') + QLatin1String(text),
                               ea.at(i).toObject().value(QLatin1String(text)).toString(),
                               za.at(i).toObject().value(QLatin1String(text)).toString());
                // The command is the same command; only its --reason (the finding's label) is Chinese.
                const QString command = ea.at(i).toObject().value(QStringLiteral("command")).toString();
                QCOMPARE(za.at(i)
                             .toObject()
                             .value(QStringLiteral("command"))
                             .toString()
                             .section(QLatin1Char(' '), 0, 1),
                         command.section(QLatin1Char(' '), 0, 1));
            }
        }

        const Run text = inLocale("zh_CN.UTF-8", {});
        const QString out = QString::fromUtf8(text.out);
        QCOMPARE(text.exitCode, 3);
        for (const QString& expected :
             {QStringLiteral("严重"), QStringLiteral("个事件待发送，但没有中继在运行"),
              QStringLiteral("原因："), QStringLiteral("处理步骤："), QStringLiteral("准备好的操作："),
              QStringLiteral("证据：")})
            QVERIFY2(out.contains(expected), qPrintable(out));
        for (const QString& source : {QStringLiteral("CRITICAL"), QStringLiteral("why:"),
                                      QStringLiteral("what to do:"), QStringLiteral("no relay is running")})
            QVERIFY2(!out.contains(source), qPrintable(out));
        QString printed;
        for (const QString& line : out.split(QLatin1Char('\n')))
            if (line.trimmed().startsWith(QStringLiteral("$ outboxctl requeue")) &&
                line.contains(QStringLiteral("--reason=failed-events: ")))
                printed = line.trimmed().mid(2);
        QVERIFY2(!printed.isEmpty(), qPrintable(out));
        const Run confirmed = shell(db->url(), printed, QStringLiteral("--yes"));
        QVERIFY2(confirmed.exitCode == 0, confirmed.err.constData());
        QCOMPARE(countRows(*db, QStringLiteral("{events}"), QStringLiteral("status = 'FAILED'")), qint64(0));
    }

    // Issue 25 item 3: unconsumed's prepared commands, run as printed: the list names every
    // unprocessed event (not the one whose dead letter was discarded), the resend never sends the
    // discarded one again, and the finding clears once the consumer has the others.
    void unconsumedCommandsRunAsPrintedAndRespectDiscards_data() { TestDatabases::addKinds(); }
    void unconsumedCommandsRunAsPrintedAndRespectDiscards()
    {
        QFETCH(QString, kind);
        auto db = TestDatabases::fresh(kind, QStringLiteral("doctorcli_unconsumed"));
        registerRelay(*db, QStringLiteral("relay-a"), 0);
        const auto ids = insertEvents(*db, 4);
        forceStatus(*db, ids, QStringLiteral("SENT"));
        exec(*db,
             QStringLiteral("UPDATE {events} SET sent_topic = 'orders', sent_at = %1, created_at = %1")
                 .arg(db->dialect().nowPlusMillis(QStringLiteral(":ago"))),
             {{QStringLiteral(":ago"), -10 * 60 * 1000}});
        exec(*db, QStringLiteral("UPDATE {events} SET sent_topic = 'payments' WHERE id = :id"),
             {{QStringLiteral(":id"), ids[3]}});
        QVERIFY(InboxStore(*db).recordTopics(QStringLiteral("inventory"), {QStringLiteral("orders")}).ok());
        DeadLetter l;
        l.consumerName = QStringLiteral("inventory");
        l.eventId = db->scalar(QStringLiteral("SELECT event_id FROM {events} WHERE id = :id"),
                               {{QStringLiteral(":id"), ids[0]}})
                        ->toString();
        l.topic = QStringLiteral("orders");
        l.payload = QByteArrayLiteral("{}");
        l.headers = QByteArrayLiteral("{}");
        l.error = QStringLiteral("unknown SKU");
        l.attempts = 1;
        QVERIFY(DeadLetterStore(*db).insert(l).ok());
        exec(*db, QStringLiteral("UPDATE {dead_letters} SET status = 'DISCARDED'"));
        const QStringList args{QStringLiteral("--consumer"), QStringLiteral("inventory"),
                               QStringLiteral("--check"), QStringLiteral("unconsumed"),
                               QStringLiteral("--json")};
        const Run json = outboxctl(db->url(), doctorArgs(db->url(), args));
        const QJsonObject finding =
            findingOf(json, QStringLiteral("unconsumed"), QStringLiteral("inventory"));
        QCOMPARE(
            finding.value(QStringLiteral("evidence")).toObject().value(QStringLiteral("count")).toInteger(),
            qint64(2));
        const QString list = actionOf(json, QStringLiteral("unconsumed"), QStringLiteral("List every event"))
                                 .value(QStringLiteral("command"))
                                 .toString();
        QVERIFY2(list.contains(QStringLiteral("--list")), qPrintable(list));
        const Run listed = runPrintedCommand(list, environment(db->url()));
        QVERIFY2(listed.exitCode == 0, listed.err.constData());
        QSet<qint64> shown;
        for (const QString& line : QString::fromUtf8(listed.out).split(QLatin1Char('\n')).mid(1)) {
            bool ok = false;
            const qint64 id = line.section(QLatin1Char(' '), 0, 0, QString::SectionSkipEmpty).toLongLong(&ok);
            if (ok)
                shown.insert(id);
        }
        QCOMPARE(shown, (QSet<qint64>{ids[1], ids[2]}));

        const QString resend = actionOf(json, QStringLiteral("unconsumed"), QStringLiteral("Send the"))
                                   .value(QStringLiteral("command"))
                                   .toString();
        QVERIFY2(!resend.contains(QStringLiteral(" %1").arg(ids[0])), qPrintable(resend));
        const Run sent = shell(db->url(), resend, QStringLiteral("--yes"));
        QVERIFY2(sent.exitCode == 0, sent.err.constData());
        QCOMPARE(statusOf(*db, ids[0]), QStringLiteral("SENT")); // the discard stands
        QCOMPARE(statusOf(*db, ids[1]), QStringLiteral("PENDING"));
        QCOMPARE(statusOf(*db, ids[2]), QStringLiteral("PENDING"));
        QCOMPARE(statusOf(*db, ids[3]), QStringLiteral("SENT")); // not inventory's topic
    }

    // Issue 25 item 8: a time after the report's (a clock ahead, a row written meanwhile) reads
    // "just now", never "(- ago)".
    void timesAfterTheReportAreJustNow()
    {
        auto db = TestDatabases::fresh(QStringLiteral("sqlite"), QStringLiteral("doctorcli_justnow"));
        registerRelay(*db, QStringLiteral("relay-a"), 0);
        const auto ids = insertEvents(*db, 2);
        forceStatus(*db, ids, QStringLiteral("FAILED"), QStringLiteral("Broker: Topic authorization failed"));
        exec(*db,
             QStringLiteral("UPDATE {events} SET created_at = %1")
                 .arg(db->dialect().nowPlusMillis(QStringLiteral(":ahead"))),
             {{QStringLiteral(":ahead"), 60 * 1000}});
        const Run text = outboxctl(db->url(), doctorArgs(db->url()));
        QVERIFY2(text.out.contains("failed-events"), text.out.constData());
        QVERIFY2(!text.out.contains("(- ago)"), text.out.constData());
        QVERIFY2(text.out.contains("UTC (just now)"), text.out.constData());
    }

    void badInputGetsOneClearLine()
    {
        auto db = TestDatabases::fresh(QStringLiteral("sqlite"), QStringLiteral("doctorcli_bad"));
        for (const QStringList& args :
             {QStringList{QStringLiteral("--fail-on"), QStringLiteral("info")},
              QStringList{QStringLiteral("--check"), QStringLiteral("no-such-check")},
              QStringList{QStringLiteral("positional")}}) {
            const Run r = outboxctl(db->url(), doctorArgs(db->url(), args));
            QCOMPARE(r.exitCode, 2);
            QCOMPARE(r.err.trimmed().count('\n'), 0);
            QVERIFY(r.err.startsWith("outboxctl: "));
        }
        const Run unreachable =
            outboxctl(db->url(), {QStringLiteral("doctor"), QStringLiteral("--db"),
                                  QStringLiteral("postgresql://nobody@127.0.0.1:1/none")});
        QCOMPARE(unreachable.exitCode, 1);
        QCOMPARE(unreachable.err.trimmed().count('\n'), 0);
        const Run relaysNoReason = outboxctl(
            db->url(), {QStringLiteral("relays"), QStringLiteral("pause"), QStringLiteral("r1"),
                        QStringLiteral("--db"), TestDatabases::urlText(db->url()), QStringLiteral("--yes")});
        QCOMPARE(relaysNoReason.exitCode, 2);
    }
};

QTEST_GUILESS_MAIN(TestDoctorCommand)
#include "tst_doctorcommand.moc"
