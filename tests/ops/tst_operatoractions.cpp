#include "core/db/DeadLetterStore.h"
#include "core/db/EventStatus.h"
#include "core/db/EventStore.h"
#include "core/ops/AuditLog.h"
#include "core/ops/OperatorActions.h"
#include "core/support/Failpoints.h"
#include "tests/support/TestDatabases.h"

#include <QJsonArray>
#include <QTest>
#include <QThread>

using namespace outbox;
using namespace outbox::test;

namespace {

ActionRequest byIds(const QVector<qint64>& ids, const QString& reason = QStringLiteral("broker fixed"))
{
    ActionRequest r;
    r.ids = ids;
    r.reason = reason;
    r.actor = QStringLiteral("alice");
    return r;
}

void addDeadLetters(Database& db, int count, const QString& consumer = QStringLiteral("inventory"))
{
    DeadLetterStore store(db);
    for (int i = 0; i < count; ++i) {
        DeadLetter l;
        l.consumerName = consumer;
        l.eventId = QStringLiteral("evt-%1").arg(i);
        l.topic = QStringLiteral("order");
        l.sourcePartition = 0;
        l.sourceOffset = i;
        l.messageKey = QStringLiteral("O%1").arg(i);
        l.headers = R"({"event_id":"x"})";
        l.payload = R"({"sku":"poison"})";
        l.error = QStringLiteral("unknown SKU poison");
        l.attempts = 3;
        auto id = store.insert(l);
        if (!id)
            qFatal("dead letter insert failed: %s", qPrintable(id.message()));
    }
}

} // namespace

class TestOperatorActions : public QObject
{
    Q_OBJECT

private slots:
    void cleanup() { QVERIFY(Failpoints::configure(QString()).ok()); }

    void requeueByIdsChangesOnlyEligibleRowsAndAudits_data() { TestDatabases::addKinds(); }
    void requeueByIdsChangesOnlyEligibleRowsAndAudits()
    {
        QFETCH(QString, kind);
        auto db = TestDatabases::fresh(kind, kind);
        const auto ids = insertEvents(*db, 6);
        forceStatus(*db, ids.mid(0, 2), QStringLiteral("FAILED"),
                    QStringLiteral("Broker: Topic authorization failed"));
        forceStatus(*db, {ids[2]}, QStringLiteral("DEAD"));
        forceStatus(*db, {ids[3]}, QStringLiteral("SENT"));
        QVERIFY(db->exec(QStringLiteral("UPDATE {events} SET attempts = 5 WHERE id IN (%1, %2)")
                             .arg(ids[0])
                             .arg(ids[2]))
                    .ok());

        auto result = OperatorActions(*db).requeue(byIds({ids[0], ids[1], ids[2], ids[3], ids[4], 999999}));
        QVERIFY2(result.ok(), qPrintable(result.message()));
        QCOMPARE(result->matched, qint64(3));
        QCOMPARE(result->affected, qint64(3));
        QCOMPARE(result->conflicts.size(), 3); // SENT, PENDING, missing
        QCOMPARE(result->before.value(QStringLiteral("FAILED")).toInteger(), qint64(2));
        QCOMPARE(result->before.value(QStringLiteral("DEAD")).toInteger(), qint64(1));
        QCOMPARE(result->after.value(QStringLiteral("PENDING")).toInteger(), qint64(3));
        QVERIFY(result->auditId > 0);
        QCOMPARE(statusOf(*db, ids[0]), EventStatus::Pending);
        QCOMPARE(statusOf(*db, ids[2]), EventStatus::Pending);
        QCOMPARE(statusOf(*db, ids[3]), EventStatus::Sent);
        QCOMPARE(EventStore(*db).find(QString::number(ids[0]))->attempts, 0);

        auto audit = AuditLog(*db).list({});
        QVERIFY(audit.ok());
        QCOMPARE(audit->size(), 1);
        const AuditEntry& e = audit->first();
        QCOMPARE(e.action, QStringLiteral("events.requeue"));
        QCOMPARE(e.actor, QStringLiteral("alice"));
        QCOMPARE(e.reason, QStringLiteral("broker fixed"));
        QCOMPARE(e.affectedCount, qint64(3));
        QCOMPARE(e.targetIds.size(), 3);
        QCOMPARE(e.outcome, QStringLiteral("partial"));
        QVERIFY(!e.host.isEmpty());
        QCOMPARE(e.before.value(QStringLiteral("FAILED")).toInteger(), qint64(2));
    }

    void dryRunCountsAndSamplesWithoutChanging_data() { TestDatabases::addKinds(); }
    void dryRunCountsAndSamplesWithoutChanging()
    {
        QFETCH(QString, kind);
        auto db = TestDatabases::fresh(kind, kind);
        const auto ids = insertEvents(*db, 30);
        forceStatus(*db, ids.mid(0, 25), QStringLiteral("FAILED"),
                    QStringLiteral("Broker: Message size too large"));
        forceStatus(*db, ids.mid(25, 2), QStringLiteral("SENT"));
        ActionRequest r;
        r.eventFilter = EventFilter{};
        r.eventFilter->errorText = QStringLiteral("too large");
        r.actor = QStringLiteral("bob");
        r.dryRun = true;
        auto preview = OperatorActions(*db).requeue(r);
        QVERIFY2(preview.ok(), qPrintable(preview.message()));
        QCOMPARE(preview->matched, qint64(25));
        QCOMPARE(preview->affected, qint64(0));
        QCOMPARE(preview->sample.size(), 10);
        QCOMPARE(preview->sample.first().toObject().value(QStringLiteral("id")).toInteger(), ids.first());
        QCOMPARE(countRows(*db, QStringLiteral("{events}"), QStringLiteral("status = 'FAILED'")), qint64(25));
        QCOMPARE(countRows(*db, QStringLiteral("{audit}")), qint64(0));

        r.dryRun = false;
        r.reason.clear();
        auto noReason = OperatorActions(*db).requeue(r);
        QVERIFY(!noReason.ok());
        QCOMPARE(noReason.error().kind, ErrorKind::Usage);
        QVERIFY(noReason.message().contains(QStringLiteral("reason")));

        r.reason = QStringLiteral("raised message.max.bytes");
        auto done = OperatorActions(*db).requeue(r);
        QVERIFY(done.ok());
        QCOMPARE(done->affected, qint64(25));
        QCOMPARE(done->skipped.value(QStringLiteral("SENT")),
                 qint64(0)); // SENT rows do not match the error filter
        QCOMPARE(countRows(*db, QStringLiteral("{events}"), QStringLiteral("status = 'PENDING'")),
                 qint64(28));
        auto audit = AuditLog(*db).list({});
        QCOMPARE(audit->size(), 1);
        QCOMPARE(audit->first().filter.value(QStringLiteral("error")).toString(),
                 QStringLiteral("too large"));
        QCOMPARE(audit->first().outcome, QStringLiteral("ok"));
    }

    void liveLeasesAreOnlyTakenWithForce_data() { TestDatabases::addKinds(); }
    void liveLeasesAreOnlyTakenWithForce()
    {
        QFETCH(QString, kind);
        auto db = TestDatabases::fresh(kind, kind);
        insertEvents(*db, 4);
        EventStore store(*db);
        auto live = store.claim(QStringLiteral("busy"), 2, 600000);
        auto expired = store.claim(QStringLiteral("gone"), 2, 1);
        QVERIFY(live.ok() && expired.ok());
        QThread::msleep(30);
        QVector<qint64> all;
        for (const auto& e : live->events + expired->events)
            all << e.id;
        auto r = OperatorActions(*db).requeue(byIds(all, QStringLiteral("stuck")));
        QVERIFY2(r.ok(), qPrintable(r.message()));
        QCOMPARE(r->affected, qint64(2)); // only the expired leases
        QCOMPARE(r->conflicts.size(), 2);
        // Core names the problem, not a front end's flag.
        QVERIFY(r->conflicts.first().reason.contains(QStringLiteral("live lease")));
        QVERIFY(!r->conflicts.first().reason.contains(QStringLiteral("--")));
        QCOMPARE(statusOf(*db, live->events.first().id), EventStatus::Sending);
        ActionRequest forced = byIds({live->events.first().id}, QStringLiteral("relay host lost"));
        forced.force = true;
        auto f = OperatorActions(*db).requeue(forced);
        QVERIFY(f.ok());
        QCOMPARE(f->affected, qint64(1));
        QCOMPARE(statusOf(*db, live->events.first().id), EventStatus::Pending);
        // The old lease holder is fenced out now.
        auto late = store.markSent(live->leaseToken, {SentMark{live->events.first().id, 0, 0}});
        QCOMPARE(late->updated, 0);
    }

    void sentIsOnlyResentWhenAsked()
    {
        auto db = TestDatabases::fresh(QStringLiteral("sqlite"), QStringLiteral("resend"));
        const auto ids = insertEvents(*db, 2);
        forceStatus(*db, ids, QStringLiteral("SENT"));
        auto plain = OperatorActions(*db).requeue(byIds(ids));
        QVERIFY(plain.ok());
        QCOMPARE(plain->affected, qint64(0));
        ActionRequest resend = byIds(ids, QStringLiteral("consumer lost its data"));
        resend.resend = true;
        auto r = OperatorActions(*db).requeue(resend);
        QVERIFY(r.ok());
        QCOMPARE(r->affected, qint64(2));
        QCOMPARE(statusOf(*db, ids[0]), EventStatus::Pending);
    }

    void markDeadTakesPendingAndFailedOnly_data() { TestDatabases::addKinds(); }
    void markDeadTakesPendingAndFailedOnly()
    {
        QFETCH(QString, kind);
        auto db = TestDatabases::fresh(kind, kind);
        const auto ids = insertEvents(*db, 3);
        forceStatus(*db, {ids[1]}, QStringLiteral("FAILED"));
        forceStatus(*db, {ids[2]}, QStringLiteral("SENT"));
        auto r = OperatorActions(*db).markDead(byIds(ids, QStringLiteral("poison payload")));
        QVERIFY2(r.ok(), qPrintable(r.message()));
        QCOMPARE(r->affected, qint64(2));
        QCOMPARE(r->conflicts.size(), 1);
        QCOMPARE(r->conflicts.first().status, EventStatus::Sent);
        QCOMPARE(statusOf(*db, ids[0]), EventStatus::Dead);
        QCOMPARE(statusOf(*db, ids[1]), EventStatus::Dead);
        QCOMPARE(statusOf(*db, ids[2]), EventStatus::Sent);
        QCOMPARE(AuditLog(*db).list({})->first().action, QStringLiteral("events.dead"));
    }

    void filterMustNotSelectEverything()
    {
        auto db = TestDatabases::fresh(QStringLiteral("sqlite"), QStringLiteral("everything"));
        insertEvents(*db, 3);
        ActionRequest r;
        r.eventFilter = EventFilter{};
        r.reason = QStringLiteral("x");
        r.actor = QStringLiteral("a");
        auto result = OperatorActions(*db).markDead(r);
        QVERIFY(!result.ok());
        QCOMPARE(result.error().kind, ErrorKind::Usage);
        QCOMPARE(countRows(*db, QStringLiteral("{events}"), QStringLiteral("status = 'PENDING'")), qint64(3));
    }

    void deadLetterDiscardAndReplayIntent_data() { TestDatabases::addKinds(); }
    void deadLetterDiscardAndReplayIntent()
    {
        QFETCH(QString, kind);
        auto db = TestDatabases::fresh(kind, kind);
        addDeadLetters(*db, 4);
        OperatorActions ops(*db);
        auto discard = ops.discardDeadLetters(byIds({1}, QStringLiteral("test order, not real")));
        QVERIFY2(discard.ok(), qPrintable(discard.message()));
        QCOMPARE(discard->affected, qint64(1));

        ActionRequest replay;
        replay.deadLetterFilter = DeadLetterFilter{};
        replay.deadLetterFilter->consumerName = QStringLiteral("inventory");
        replay.reason = QStringLiteral("SKU table fixed");
        replay.actor = QStringLiteral("carol");
        replay.replayTopic = QStringLiteral("order-retry");
        auto r = ops.replayDeadLetters(replay);
        QVERIFY2(r.ok(), qPrintable(r.message()));
        QCOMPARE(r->affected, qint64(3));
        QCOMPARE(r->skipped.value(QStringLiteral("DISCARDED")), qint64(1));
        QVERIFY(!r->replayToken.isEmpty());
        auto letter = DeadLetterStore(*db).find(2);
        QVERIFY(letter.ok());
        QCOMPARE(letter->status, QStringLiteral("REPLAYING"));
        QCOMPARE(letter->replayToken, r->replayToken);
        QCOMPARE(letter->replayTopic, QStringLiteral("order-retry"));
        QCOMPARE(letter->replayedBy, QStringLiteral("carol"));
        // A second replay of the same letters finds nothing to do.
        auto again = ops.replayDeadLetters(replay);
        QVERIFY(again.ok());
        QCOMPARE(again->affected, qint64(0));
        auto audit = AuditLog(*db).list({});
        QCOMPARE(audit->size(), 3);
        QCOMPARE(audit->at(1).action, QStringLiteral("dlq.replay"));
        QCOMPARE(audit->at(1).filter.value(QStringLiteral("replay_topic")).toString(),
                 QStringLiteral("order-retry"));
    }

    void auditAndChangeCommitTogether_data() { TestDatabases::addKinds(); }
    void auditAndChangeCommitTogether()
    {
        QFETCH(QString, kind);
        auto db = TestDatabases::fresh(kind, kind);
        const auto ids = insertEvents(*db, 3);
        forceStatus(*db, ids, QStringLiteral("FAILED"));
        QVERIFY(Failpoints::configure(QStringLiteral("ops.before_audit_commit=error")).ok());
        auto r = OperatorActions(*db).requeue(byIds(ids, QStringLiteral("retry")));
        QVERIFY(!r.ok());
        QVERIFY2(r.message().contains(QStringLiteral("ops.before_audit_commit")), qPrintable(r.message()));
        // Seen from another connection: neither the change nor the audit row exists.
        auto other = TestDatabases::open(db->url(), QStringLiteral("observer"));
        QCOMPARE(countRows(*other, QStringLiteral("{events}"), QStringLiteral("status = 'FAILED'")),
                 qint64(3));
        QCOMPARE(countRows(*other, QStringLiteral("{audit}")), qint64(0));
        QVERIFY(!db->inTransaction());

        QVERIFY(Failpoints::configure(QString()).ok());
        auto ok = OperatorActions(*db).requeue(byIds(ids, QStringLiteral("retry")));
        QVERIFY(ok.ok());
        QCOMPARE(countRows(*other, QStringLiteral("{events}"), QStringLiteral("status = 'PENDING'")),
                 qint64(3));
        QCOMPARE(countRows(*other, QStringLiteral("{audit}")), qint64(1));
    }

    void badRequestsAreRefusedBeforeTouchingData()
    {
        auto db = TestDatabases::fresh(QStringLiteral("sqlite"), QStringLiteral("badreq"));
        const auto ids = insertEvents(*db, 2);
        forceStatus(*db, ids, QStringLiteral("FAILED"));
        OperatorActions ops(*db);
        ActionRequest none;
        none.reason = QStringLiteral("x");
        none.actor = QStringLiteral("a");
        QCOMPARE(ops.requeue(none).error().kind, ErrorKind::Usage);
        ActionRequest both = byIds(ids);
        both.eventFilter = EventFilter{};
        both.eventFilter->statuses = {EventStatus::Failed};
        QCOMPARE(ops.requeue(both).error().kind, ErrorKind::Usage);
        ActionRequest negative = byIds({-4});
        QCOMPARE(ops.requeue(negative).error().kind, ErrorKind::Usage);
        ActionRequest noActor = byIds(ids);
        noActor.actor.clear();
        QCOMPARE(ops.requeue(noActor).error().kind, ErrorKind::Usage);
        QCOMPARE(countRows(*db, QStringLiteral("{events}"), QStringLiteral("status = 'FAILED'")), qint64(2));
        QCOMPARE(countRows(*db, QStringLiteral("{audit}")), qint64(0));
    }
};

QTEST_GUILESS_MAIN(TestOperatorActions)
#include "tst_operatoractions.moc"
