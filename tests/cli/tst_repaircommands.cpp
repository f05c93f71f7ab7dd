#include "core/db/DeadLetterStore.h"
#include "core/db/EventWriter.h"
#include "core/ops/AuditLog.h"
#include "tests/consumer/ConsumerTestKit.h"
#include "tests/support/OutboxctlProcess.h"
#include "tests/support/RelayThread.h"
#include "tests/support/TestDatabases.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>
#include <memory>
#include <vector>

using namespace outbox;
using namespace outbox::test;

// Operator reach through the real `outboxctl` process against real databases and the embedded
// broker: blocked aggregates in ordering mode come and go, and an edited dead letter is replayed
// with its edited payload, which the consumer's business change shows.
namespace {

OutboxctlRun outboxctl(const QStringList& args)
{
    QProcessEnvironment actor;
    actor.insert(QStringLiteral("OUTBOX_ACTOR"), QStringLiteral("carol"));
    return runOutboxctl(args, actor, 60000);
}

// Records which SKU each order reserved; an unknown SKU is refused for good (a dead letter).
HandlerResult reserve(Database& db, const InboxMessage& m)
{
    const QString sku = m.json.object().value(QStringLiteral("sku")).toString();
    auto known = db.scalar(QStringLiteral("SELECT COUNT(*) FROM test_catalog WHERE sku = :sku"),
                           {{QStringLiteral(":sku"), sku}});
    if (!known)
        return HandlerResult::transient(known.message());
    if (known->toInt() == 0)
        return HandlerResult::permanent(QStringLiteral("unknown SKU %1").arg(sku));
    auto q =
        db.exec(QStringLiteral("INSERT INTO test_reserved (event_id, sku, quantity) VALUES (:e, :s, :q)"),
                {{QStringLiteral(":e"), m.eventId},
                 {QStringLiteral(":s"), sku},
                 {QStringLiteral(":q"), m.json.object().value(QStringLiteral("quantity")).toInt()}});
    return q ? HandlerResult::ok() : HandlerResult::transient(q.message());
}

} // namespace

class TestRepairCommands : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QVERIFY2(!qEnvironmentVariable("OUTBOXCTL").isEmpty(), "OUTBOXCTL must point at the binary");
    }

    void blockedAggregateComesAndGoes_data() { TestDatabases::addKinds(); }
    void blockedAggregateComesAndGoes()
    {
        QFETCH(QString, kind);
        auto db = TestDatabases::fresh(kind, TestDatabases::uniqueName(kind));
        const QString url = TestDatabases::urlText(db->url());
        auto broker = EmbeddedBroker::start(1);
        QVERIFY(broker.ok());
        QVERIFY((*broker)->createTopic(QStringLiteral("outbox.Order"), 1).ok());

        // Order/O-42: the first event FAILED, two later ones wait behind it; Order/O-7 is fine.
        QVector<NewEvent> events;
        for (const QString& agg : {QStringLiteral("O-42"), QStringLiteral("O-42"), QStringLiteral("O-42"),
                                   QStringLiteral("O-7")}) {
            NewEvent e;
            e.eventType = QStringLiteral("OrderChanged");
            e.aggregateType = QStringLiteral("Order");
            e.aggregateId = agg;
            e.topic = QStringLiteral("outbox.Order");
            e.payload = "{}";
            events << e;
        }
        QVERIFY(db->beginWrite());
        QVERIFY(EventWriter(*db).appendBatch(events).ok());
        QVERIFY(db->commit());
        const qint64 first = db->scalar(QStringLiteral("SELECT MIN(id) FROM {events}"))->toLongLong();
        forceStatus(*db, {first}, QStringLiteral("FAILED"), QStringLiteral("broker refused: topic ACL"));
        QVERIFY(
            db->exec(QStringLiteral("UPDATE {events} SET status = 'SENT' WHERE aggregate_id = 'O-7'")).ok());

        OutboxctlRun blocked = outboxctl({QStringLiteral("events"), QStringLiteral("blocked"),
                                          QStringLiteral("--json"), QStringLiteral("--db"), url});
        QVERIFY2(blocked.exitCode == 0, blocked.err.constData());
        QJsonArray aggregates = blocked.json().value(QStringLiteral("aggregates")).toArray();
        QCOMPARE(aggregates.size(), 1);
        const QJsonObject a = aggregates.first().toObject();
        QCOMPARE(a.value(QStringLiteral("aggregate_type")).toString(), QStringLiteral("Order"));
        QCOMPARE(a.value(QStringLiteral("aggregate_id")).toString(), QStringLiteral("O-42"));
        QCOMPARE(a.value(QStringLiteral("blocking_id")).toInteger(), first);
        QCOMPARE(a.value(QStringLiteral("waiting")).toInteger(), 2);
        QCOMPARE(a.value(QStringLiteral("error")).toString(), QStringLiteral("broker refused: topic ACL"));
        QVERIFY(!a.value(QStringLiteral("since")).toString().isEmpty());

        // The consequence comes before anything changes: in the dry run, and the run says the same.
        OutboxctlRun dry = outboxctl({QStringLiteral("requeue"), QString::number(first),
                                      QStringLiteral("--dry-run"), QStringLiteral("--db"), url});
        QVERIFY2(dry.exitCode == 0, dry.err.constData());
        QVERIFY2(dry.out.contains("2 later event(s) of Order/O-42 will be sent after it"),
                 dry.out.constData());
        OutboxctlRun dryJson =
            outboxctl({QStringLiteral("dead"), QString::number(first), QStringLiteral("--dry-run"),
                       QStringLiteral("--json"), QStringLiteral("--db"), url});
        const QJsonArray ordering = dryJson.json().value(QStringLiteral("ordering")).toArray();
        QCOMPARE(ordering.size(), 1);
        QCOMPARE(ordering.first().toObject().value(QStringLiteral("waiting")).toInteger(), 2);
        QCOMPARE(statusOf(*db, first), QStringLiteral("FAILED")); // dry runs change nothing

        OutboxctlRun requeue =
            outboxctl({QStringLiteral("requeue"), QString::number(first), QStringLiteral("--yes"),
                       QStringLiteral("--reason"), QStringLiteral("ACL fixed"), QStringLiteral("--db"), url});
        QVERIFY2(requeue.exitCode == 0, requeue.err.constData());

        // An ordering relay sends the blocking event, then the waiting ones in order.
        RelayOptions options = testRelayOptions((*broker)->bootstrap(), QStringLiteral("ordering-relay"));
        options.ordering = OrderingMode::Aggregate;
        RelayThread relay(db->url(), options);
        relay.start();
        QTRY_COMPARE_WITH_TIMEOUT(
            countRows(*db, QStringLiteral("{events}"), QStringLiteral("status = 'SENT'")), qint64(4), 30000);
        relay.stop();
        auto sentOrder = db->exec(
            QStringLiteral("SELECT id FROM {events} WHERE aggregate_id = 'O-42' ORDER BY broker_offset"));
        QVERIFY(sentOrder.ok());
        QVERIFY(sentOrder->next());
        QCOMPARE(sentOrder->value(0).toLongLong(), first);

        blocked = outboxctl({QStringLiteral("events"), QStringLiteral("blocked"), QStringLiteral("--json"),
                             QStringLiteral("--db"), url});
        QVERIFY2(blocked.exitCode == 0, blocked.err.constData());
        QCOMPARE(blocked.json().value(QStringLiteral("aggregates")).toArray().size(), 0);
        QCOMPARE(blocked.json().value(QStringLiteral("total")).toInt(), 0);
    }

    // Issue 36 M3: 25 dead letters with the same typo are repaired by one group edit (a JSON change,
    // every diff previewed, a reason, confirmation, audited chunks, each letter locked to the edit it
    // was previewed at) and replayed as a group: the consumer reserves what the repaired payloads say.
    void groupEditRepairsAndReplaysTheGroup_data() { TestDatabases::addKinds(); }
    void groupEditRepairsAndReplaysTheGroup()
    {
        QFETCH(QString, kind);
        auto db = TestDatabases::fresh(kind, TestDatabases::uniqueName(kind + QStringLiteral("grp")));
        const QString url = TestDatabases::urlText(db->url());
        QVERIFY(db->exec(QStringLiteral("CREATE TABLE test_catalog (sku VARCHAR(64) PRIMARY KEY)")).ok());
        QVERIFY(db->exec(QStringLiteral("INSERT INTO test_catalog (sku) VALUES ('SKU-1')")).ok());
        QVERIFY(db->exec(QStringLiteral("CREATE TABLE test_reserved (event_id VARCHAR(64) NOT NULL, sku "
                                        "VARCHAR(64) NOT NULL, quantity INTEGER)"))
                    .ok());
        const QString t = QStringLiteral("orders");
        auto broker = startBroker(t, 1);
        QVector<BrokerMessage> typos;
        for (int i = 0; i < 25; ++i)
            typos << orderMessage(t, QStringLiteral("e-grp-%1").arg(i), QStringLiteral("o%1").arg(i),
                                  QStringLiteral("SKU-l"), i + 1);
        produce(broker->bootstrap(), typos);
        ConsumerThread consumer(
            db->url(), testConsumerOptions(broker->bootstrap(), t, QStringLiteral("inventory")), reserve);
        consumer.start();
        QTRY_COMPARE_WITH_TIMEOUT(countRows(*db, QStringLiteral("{dead_letters}")), qint64(25), 60000);

        const OutboxctlRun groups = outboxctl({QStringLiteral("dlq"), QStringLiteral("groups"),
                                               QStringLiteral("--json"), QStringLiteral("--db"), url});
        QVERIFY2(groups.exitCode == 0, groups.err.constData());
        const QJsonArray list = groups.json().value(QStringLiteral("groups")).toArray();
        QCOMPARE(list.size(), 1);
        const QJsonObject group = list.first().toObject();
        QCOMPARE(group.value(QStringLiteral("count")).toInteger(), qint64(25));
        const QStringList groupArgs{
            QStringLiteral("--consumer"),    QStringLiteral("inventory"),
            QStringLiteral("--group-class"), group.value(QStringLiteral("error_class")).toString(),
            QStringLiteral("--group"),       group.value(QStringLiteral("fingerprint")).toString(),
            QStringLiteral("--db"),          url};
        const QStringList change{QStringLiteral("--set"), QStringLiteral("sku"), QStringLiteral("--to"),
                                 QStringLiteral("\"SKU-1\"")};

        // The preview: every letter's diff, nothing changed.
        const OutboxctlRun preview =
            outboxctl(QStringList{QStringLiteral("dlq"), QStringLiteral("edit-group")} + change + groupArgs +
                      QStringList{QStringLiteral("--dry-run"), QStringLiteral("--json")});
        QVERIFY2(preview.exitCode == 0, preview.err.constData());
        QCOMPARE(preview.json().value(QStringLiteral("changing")).toInt(), 25);
        // Core's verb and phrase, the ones every console asks for.
        QCOMPARE(preview.json().value(QStringLiteral("verb")).toString(), QStringLiteral("edit"));
        QCOMPARE(preview.json().value(QStringLiteral("confirmation")).toString(), QStringLiteral("edit 25"));
        const QJsonArray items = preview.json().value(QStringLiteral("dead_letters")).toArray();
        QCOMPARE(items.size(), 25);
        for (const QJsonValue& v : items)
            QCOMPARE(v.toObject().value(QStringLiteral("differences")).toArray().first().toString(),
                     QStringLiteral("sku: \"SKU-l\" \u2192 \"SKU-1\""));
        QCOMPARE(countRows(*db, QStringLiteral("{dead_letters}"), QStringLiteral("edit_count > 0")),
                 qint64(0));
        // No reason, or no confirmation (no terminal, no --yes): refused, nothing changed.
        const OutboxctlRun noReason =
            outboxctl(QStringList{QStringLiteral("dlq"), QStringLiteral("edit-group")} + change + groupArgs +
                      QStringList{QStringLiteral("--yes")});
        QCOMPARE(noReason.exitCode, 2);
        QVERIFY2(noReason.err.contains("--reason"), noReason.err.constData());
        const OutboxctlRun unconfirmed =
            outboxctl(QStringList{QStringLiteral("dlq"), QStringLiteral("edit-group")} + change + groupArgs +
                      QStringList{QStringLiteral("--reason"), QStringLiteral("SKU typo")});
        QCOMPARE(unconfirmed.exitCode, 2);
        QVERIFY2(unconfirmed.err.contains("without confirmation"), unconfirmed.err.constData());
        QCOMPARE(countRows(*db, QStringLiteral("{dead_letters}"), QStringLiteral("edit_count > 0")),
                 qint64(0));

        // One group edit, in audited chunks of 10.
        const OutboxctlRun edit =
            outboxctl(QStringList{QStringLiteral("dlq"), QStringLiteral("edit-group")} + change + groupArgs +
                      QStringList{QStringLiteral("--reason"), QStringLiteral("SKU typo: SKU-l is SKU-1"),
                                  QStringLiteral("--chunk-size"), QStringLiteral("10"),
                                  QStringLiteral("--yes"), QStringLiteral("--json")});
        QVERIFY2(edit.exitCode == 0, edit.err.constData());
        QCOMPARE(edit.json().value(QStringLiteral("edited")).toInt(), 25);
        QCOMPARE(edit.json().value(QStringLiteral("chunks")).toInt(), 3);
        QCOMPARE(edit.json().value(QStringLiteral("conflicts")).toInt(), 0);
        QCOMPARE(countRows(*db, QStringLiteral("{dead_letters}"),
                           QStringLiteral("edit_count = 1 AND edited_by = 'carol' AND status = 'NEW'")),
                 qint64(25));
        AuditQuery query;
        query.action = QStringLiteral("dlq.edit_group");
        auto entries = AuditLog(*db).list(query);
        QVERIFY(entries.ok());
        QCOMPARE(entries->size(), 3);
        for (const AuditEntry& e : *entries) {
            QCOMPARE(e.actor, QStringLiteral("carol"));
            QCOMPARE(e.reason, QStringLiteral("SKU typo: SKU-l is SKU-1"));
        }
        // The same edit again changes nothing: each letter has that value already.
        const OutboxctlRun again =
            outboxctl(QStringList{QStringLiteral("dlq"), QStringLiteral("edit-group")} + change + groupArgs +
                      QStringList{QStringLiteral("--reason"), QStringLiteral("again"),
                                  QStringLiteral("--yes"), QStringLiteral("--json")});
        QVERIFY2(again.exitCode == 0, again.err.constData());
        QCOMPARE(again.json().value(QStringLiteral("changing")).toInt(), 0);

        // The group replayed by the real process: the consumer reserves SKU-1 for all 25.
        const OutboxctlRun replay =
            outboxctl(QStringList{QStringLiteral("dlq"), QStringLiteral("replay")} + groupArgs +
                      QStringList{QStringLiteral("--deliver"), QStringLiteral("--yes"),
                                  QStringLiteral("--reason"), QStringLiteral("after the group repair"),
                                  QStringLiteral("--kafka-bootstrap"), broker->bootstrap()});
        QVERIFY2(replay.exitCode == 0, replay.err.constData());
        QTRY_COMPARE_WITH_TIMEOUT(countRows(*db, QStringLiteral("test_reserved")), qint64(25), 60000);
        consumer.stop();
        QCOMPARE(countRows(*db, QStringLiteral("test_reserved"), QStringLiteral("sku = 'SKU-1'")),
                 qint64(25));
        QCOMPARE(countRows(*db, QStringLiteral("{dead_letters}"), QStringLiteral("status = 'REPLAYED'")),
                 qint64(25));
    }

    void editedDeadLetterReplaysEditedPayload_data() { TestDatabases::addKinds(); }
    void editedDeadLetterReplaysEditedPayload()
    {
        QFETCH(QString, kind);
        auto db = TestDatabases::fresh(kind, TestDatabases::uniqueName(kind));
        const QString url = TestDatabases::urlText(db->url());
        QVERIFY(db->exec(QStringLiteral("CREATE TABLE test_catalog (sku VARCHAR(64) PRIMARY KEY)")).ok());
        QVERIFY(db->exec(QStringLiteral("INSERT INTO test_catalog (sku) VALUES ('SKU-1')")).ok());
        QVERIFY(db->exec(QStringLiteral("CREATE TABLE test_reserved (event_id VARCHAR(64) NOT NULL, sku "
                                        "VARCHAR(64) NOT NULL, quantity INTEGER)"))
                    .ok());
        const QString t = QStringLiteral("orders");
        auto broker = startBroker(t, 1);
        // A typo in the SKU: the consumer refuses it for good.
        produce(broker->bootstrap(), {orderMessage(t, QStringLiteral("e-typo"), QStringLiteral("o1"),
                                                   QStringLiteral("SKU-l"), 3)});
        ConsumerThread consumer(
            db->url(), testConsumerOptions(broker->bootstrap(), t, QStringLiteral("inventory")), reserve);
        consumer.start();
        QTRY_COMPARE_WITH_TIMEOUT(countRows(*db, QStringLiteral("{dead_letters}")), qint64(1), 60000);
        const qint64 letterId = db->scalar(QStringLiteral("SELECT id FROM {dead_letters}"))->toLongLong();
        auto before = DeadLetterStore(*db).find(letterId);
        QVERIFY(before.ok());
        const QByteArray originalPayload = before->payload;
        QVERIFY(originalPayload.contains("SKU-l"));

        QTemporaryDir dir;
        const QString payloadFile = dir.filePath(QStringLiteral("payload.json"));
        const QByteArray edited = R"({"order_id":"o1","sku":"SKU-1","quantity":3})";
        {
            QFile f(payloadFile);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(edited);
        }
        const QString badFile = dir.filePath(QStringLiteral("bad.json"));
        {
            QFile f(badFile);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write("{\"sku\": ");
        }
        // Invalid JSON (when asked for JSON) and a missing reason: one clear error, nothing changed.
        OutboxctlRun bad =
            outboxctl({QStringLiteral("dlq"), QStringLiteral("edit"), QString::number(letterId),
                       QStringLiteral("--payload-file"), badFile, QStringLiteral("--json-payload"),
                       QStringLiteral("--reason"), QStringLiteral("x"), QStringLiteral("--db"), url});
        QCOMPARE(bad.exitCode, 2);
        QVERIFY2(bad.err.contains("not valid JSON"), bad.err.constData());
        OutboxctlRun noReason =
            outboxctl({QStringLiteral("dlq"), QStringLiteral("edit"), QString::number(letterId),
                       QStringLiteral("--payload-file"), payloadFile, QStringLiteral("--db"), url});
        QCOMPARE(noReason.exitCode, 2);
        QVERIFY2(noReason.err.contains("--reason"), noReason.err.constData());
        QCOMPARE(DeadLetterStore(*db).find(letterId)->payload, originalPayload);
        QCOMPARE(DeadLetterStore(*db).find(letterId)->editCount, 0);

        OutboxctlRun edit =
            outboxctl({QStringLiteral("dlq"), QStringLiteral("edit"), QString::number(letterId),
                       QStringLiteral("--payload-file"), payloadFile, QStringLiteral("--reason"),
                       QStringLiteral("SKU typo: SKU-l is SKU-1"), QStringLiteral("--json"),
                       QStringLiteral("--yes"), QStringLiteral("--db"), url});
        QVERIFY2(edit.exitCode == 0, edit.err.constData());
        const qint64 auditId = edit.json().value(QStringLiteral("audit_id")).toInteger();
        QVERIFY(auditId > 0);
        auto after = DeadLetterStore(*db).find(letterId);
        QCOMPARE(after->payload, edited);
        QCOMPARE(after->originalPayload, originalPayload); // the original stays kept
        QCOMPARE(after->editCount, 1);
        QCOMPARE(after->editedBy, QStringLiteral("carol"));

        // The audit row holds both versions.
        AuditQuery query;
        query.action = QStringLiteral("dlq.edit");
        auto entries = AuditLog(*db).list(query);
        QVERIFY(entries.ok());
        QCOMPARE(entries->size(), 1);
        QCOMPARE(entries->first().id, auditId);
        QCOMPARE(entries->first().actor, QStringLiteral("carol"));
        QCOMPARE(entries->first().before.value(QStringLiteral("payload")).toString().toUtf8(),
                 originalPayload);
        QCOMPARE(entries->first().after.value(QStringLiteral("payload")).toString().toUtf8(), edited);

        // Replayed by the real process: the consumer reserves what the edited payload says.
        OutboxctlRun replay =
            outboxctl({QStringLiteral("dlq"), QStringLiteral("replay"), QString::number(letterId),
                       QStringLiteral("--deliver"), QStringLiteral("--yes"), QStringLiteral("--reason"),
                       QStringLiteral("after the fix"), QStringLiteral("--kafka-bootstrap"),
                       broker->bootstrap(), QStringLiteral("--db"), url});
        QVERIFY2(replay.exitCode == 0, replay.err.constData());
        QTRY_COMPARE_WITH_TIMEOUT(countRows(*db, QStringLiteral("test_reserved")), qint64(1), 30000);
        consumer.stop();
        auto reserved = db->exec(QStringLiteral("SELECT event_id, sku, quantity FROM test_reserved"));
        QVERIFY(reserved.ok() && reserved->next());
        QCOMPARE(reserved->value(0).toString(), QStringLiteral("e-typo"));
        QCOMPARE(reserved->value(1).toString(), QStringLiteral("SKU-1"));
        QCOMPARE(reserved->value(2).toInt(), 3);
        QCOMPARE(DeadLetterStore(*db).find(letterId)->status, QStringLiteral("REPLAYED"));
        // A replayed dead letter cannot be edited any more.
        OutboxctlRun late =
            outboxctl({QStringLiteral("dlq"), QStringLiteral("edit"), QString::number(letterId),
                       QStringLiteral("--payload-file"), payloadFile, QStringLiteral("--reason"),
                       QStringLiteral("again"), QStringLiteral("--yes"), QStringLiteral("--db"), url});
        QVERIFY(late.exitCode != 0);
        QVERIFY2(late.err.contains("only NEW"), late.err.constData());
    }

    // Issue 26: `dlq edit` follows the rule of every change (no --yes and no terminal: refused,
    // nothing changed), and an edit carries the version it was made from: ten operators editing
    // version 0 at once in ten real processes, one wins and nine are told it was edited meanwhile.
    void dlqEditConfirmsAndRefusesStaleEdits_data()
    {
        QTest::addColumn<QString>("kind");
        QTest::newRow("sqlite") << QStringLiteral("sqlite");
        QTest::newRow("postgresql") << QStringLiteral("postgresql");
    }
    void dlqEditConfirmsAndRefusesStaleEdits()
    {
        QFETCH(QString, kind);
        if (!TestDatabases::available(kind))
            QSKIP("no test server");
        auto db = TestDatabases::fresh(kind, TestDatabases::uniqueName(QStringLiteral("dlqedit")));
        const QString url = TestDatabases::urlText(db->url());
        DeadLetter l;
        l.consumerName = QStringLiteral("inventory");
        l.eventId = QStringLiteral("e-race");
        l.topic = QStringLiteral("orders");
        l.headers = R"({"trace_id":"t-1"})";
        l.payload = R"({"sku":"SKU-l"})";
        l.error = QStringLiteral("unknown SKU SKU-l");
        const qint64 id = DeadLetterStore(*db).insert(l).value();
        QTemporaryDir dir;
        const auto payloadFile = [&](int i) {
            const QString path = dir.filePath(QStringLiteral("p%1.json").arg(i));
            QFile f(path);
            if (!f.open(QIODevice::WriteOnly))
                qFatal("cannot write %s", qPrintable(path));
            f.write(QStringLiteral(R"({"sku":"SKU-%1"})").arg(i).toUtf8());
            return path;
        };
        const auto editArgs = [&](int i) {
            return QStringList{QStringLiteral("dlq"),
                               QStringLiteral("edit"),
                               QString::number(id),
                               QStringLiteral("--payload-file"),
                               payloadFile(i),
                               QStringLiteral("--reason"),
                               QStringLiteral("fix %1").arg(i),
                               QStringLiteral("--db"),
                               url};
        };

        const OutboxctlRun unconfirmed = outboxctl(editArgs(99));
        QCOMPARE(unconfirmed.exitCode, 2);
        QVERIFY2(unconfirmed.err.contains("without confirmation: pass --yes"), unconfirmed.err.constData());
        QCOMPARE(DeadLetterStore(*db).find(id)->editCount, 0);
        QCOMPARE(DeadLetterStore(*db).find(id)->payload, l.payload);

        constexpr int Editors = 10;
        std::vector<std::unique_ptr<QProcess>> editors;
        for (int i = 0; i < Editors; ++i) {
            OutboxctlStart start;
            start.removedVariables = {QStringLiteral("OUTBOX_DB_URL")};
            start.extraEnv.insert(QStringLiteral("OUTBOX_ACTOR"), QStringLiteral("operator-%1").arg(i));
            start.noInput = true;
            editors.push_back(startOutboxctl(editArgs(i) << QStringLiteral("--edit-count")
                                                         << QStringLiteral("0") << QStringLiteral("--yes"),
                                             start));
        }
        int winners = 0;
        for (auto& p : editors) {
            QVERIFY(p->waitForFinished(60000));
            const QByteArray err = p->readAll(); // stdout and stderr merged
            if (p->exitCode() == 0) {
                ++winners;
                continue;
            }
            QCOMPARE(p->exitCode(), 1);
            QVERIFY2(err.contains("edited meanwhile") || err.contains("changed meanwhile"), err.constData());
        }
        QCOMPARE(winners, 1);
        QCOMPARE(DeadLetterStore(*db).find(id)->editCount, 1);
        QCOMPARE(countRows(*db, QStringLiteral("{audit}"), QStringLiteral("action = 'dlq.edit'")), qint64(1));

        // Made from the current version, the next edit goes through; made from 0, it is stale.
        const OutboxctlRun stale = outboxctl(editArgs(11) << QStringLiteral("--edit-count")
                                                          << QStringLiteral("0") << QStringLiteral("--yes"));
        QCOMPARE(stale.exitCode, 1);
        QVERIFY2(stale.err.contains("it is at edit 1; this edit was made from edit 0"),
                 stale.err.constData());
        const OutboxctlRun fresh = outboxctl(editArgs(12) << QStringLiteral("--edit-count")
                                                          << QStringLiteral("1") << QStringLiteral("--yes"));
        QVERIFY2(fresh.exitCode == 0, fresh.err.constData());
        QCOMPARE(DeadLetterStore(*db).find(id)->payload, QByteArray(R"({"sku":"SKU-12"})"));
    }
};

QTEST_GUILESS_MAIN(TestRepairCommands)
#include "tst_repaircommands.moc"
