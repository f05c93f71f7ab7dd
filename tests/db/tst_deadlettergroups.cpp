#include "core/db/DeadLetterGroups.h"
#include "core/db/DeadLetterStore.h"
#include "core/ops/AuditLog.h"
#include "core/ops/BulkActionEngine.h"
#include "core/ops/DeadLetterEditor.h"
#include "tests/support/TestDatabases.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QTest>
#include <atomic>
#include <thread>
#include <vector>

using namespace outbox;
using namespace outbox::test;

// Dead-letter failure groups (consumer, error class, fingerprint) and their bulk replay and
// discard, and dead-letter edits (exact bytes, original kept, audited) on every database.
namespace {

qint64 letter(Database& db, const QString& consumer, const QString& error, const QByteArray& payload = "{}")
{
    DeadLetter l;
    l.consumerName = consumer;
    l.eventId = QStringLiteral("e-%1").arg(qHash(error + consumer + QString::fromLatin1(payload.toHex())));
    l.topic = QStringLiteral("orders");
    l.headers = R"({"trace_id":"t-1"})";
    l.payload = payload;
    l.error = error;
    auto id = DeadLetterStore(db).insert(l);
    if (!id)
        qFatal("%s", qPrintable(id.message()));
    return *id;
}

} // namespace

class TestDeadLetterGroups : public QObject
{
    Q_OBJECT

private slots:
    void groupsAreActionable_data() { TestDatabases::addKinds(); }
    void groupsAreActionable()
    {
        QFETCH(QString, kind);
        auto db = TestDatabases::fresh(kind, TestDatabases::uniqueName(kind));
        // inventory: 3 unknown SKUs (one group), 1 timeout; billing: the same SKU text (another group).
        const qint64 a = letter(*db, QStringLiteral("inventory"), QStringLiteral("unknown SKU 17"));
        const qint64 b = letter(*db, QStringLiteral("inventory"), QStringLiteral("unknown SKU 4711"));
        const qint64 c = letter(*db, QStringLiteral("inventory"), QStringLiteral("unknown SKU 99"));
        const qint64 t = letter(*db, QStringLiteral("inventory"),
                                QStringLiteral("retries exhausted after 5 attempts: lock wait timeout"));
        const qint64 other = letter(*db, QStringLiteral("billing"), QStringLiteral("unknown SKU 17"));

        auto groups = DeadLetterGroups(*db).list();
        QVERIFY2(groups.ok(), qPrintable(groups.message()));
        QCOMPARE(groups->size(), 3);
        const DeadLetterGroup sku = groups->first();
        QCOMPARE(sku.consumerName, QStringLiteral("inventory"));
        QCOMPARE(sku.errorClass, QStringLiteral("permanent"));
        QCOMPARE(sku.fingerprint, QStringLiteral("unknown SKU <n>"));
        QCOMPARE(sku.count, qint64(3));
        QCOMPARE(sku.firstId, a);
        bool sawTimeout = false, sawBilling = false;
        for (const DeadLetterGroup& g : *groups) {
            if (g.errorClass == QLatin1String("retries_exhausted")) {
                sawTimeout = true;
                QCOMPARE(g.firstId, t);
            }
            if (g.consumerName == QLatin1String("billing")) {
                sawBilling = true;
                QCOMPARE(g.count, qint64(1));
            }
        }
        QVERIFY(sawTimeout && sawBilling);
        QCOMPARE(DeadLetterGroups(*db).ids(sku, 0, 100).value(), (QVector<qint64>{a, b, c}));

        // Replay the group: exactly its members, in audited chunks; the others stay NEW.
        ActionRequest replay;
        replay.deadLetterGroup = sku;
        replay.actor = QStringLiteral("alice");
        replay.reason = QStringLiteral("catalog fixed");
        replay.chunkSize = 2;
        BulkActionEngine engine(*db);
        auto preview = engine.preview(ActionKind::ReplayDeadLetters, replay);
        QVERIFY2(preview.ok(), qPrintable(preview.message()));
        QCOMPARE(preview->matched, qint64(3));
        auto run = engine.run(ActionKind::ReplayDeadLetters, replay, *preview);
        QVERIFY2(run.ok(), qPrintable(run.message()));
        QCOMPARE(run->affected, qint64(3));
        QCOMPARE(run->chunks, 2);
        for (qint64 id : {a, b, c})
            QCOMPARE(DeadLetterStore(*db).find(id)->status, QStringLiteral("REPLAYING"));
        for (qint64 id : {t, other})
            QCOMPARE(DeadLetterStore(*db).find(id)->status, QStringLiteral("NEW"));
        AuditQuery q;
        q.action = QStringLiteral("dlq.replay");
        auto audit = AuditLog(*db).list(q);
        QCOMPARE(audit->size(), 2);
        QCOMPARE(
            audit->first().filter.value(QStringLiteral("group")).toObject().value(QStringLiteral("consumer")),
            QJsonValue(QStringLiteral("inventory")));
        // Replayed members left the NEW group.
        groups = DeadLetterGroups(*db).list();
        QCOMPARE(groups->size(), 2);

        // Discard the billing group.
        DeadLetterGroup billing;
        for (const DeadLetterGroup& g : *groups)
            if (g.consumerName == QLatin1String("billing"))
                billing = g;
        ActionRequest discard;
        discard.deadLetterGroup = billing;
        discard.actor = QStringLiteral("alice");
        discard.reason = QStringLiteral("billing reprocesses on its own");
        auto discarded = OperatorActions(*db).perform(ActionKind::DiscardDeadLetters, discard);
        QVERIFY2(discarded.ok(), qPrintable(discarded.message()));
        QCOMPARE(discarded->affected, qint64(1));
        QCOMPARE(DeadLetterStore(*db).find(other)->status, QStringLiteral("DISCARDED"));
        QCOMPARE(DeadLetterStore(*db).find(t)->status, QStringLiteral("NEW"));

        // A group needs its consumer and class; an event group does not select dead letters.
        ActionRequest bad = discard;
        bad.deadLetterGroup->consumerName.clear();
        QCOMPARE(BulkActionEngine::validate(ActionKind::DiscardDeadLetters, bad).error().kind,
                 ErrorKind::Usage);
        ActionRequest events = discard;
        QCOMPARE(BulkActionEngine::validate(ActionKind::Requeue, events).error().kind, ErrorKind::Usage);
        // An injection attempt in the consumer name matches nothing and changes nothing.
        ActionRequest injected = discard;
        injected.deadLetterGroup->consumerName = QStringLiteral("x' OR '1'='1");
        auto none = OperatorActions(*db).perform(ActionKind::DiscardDeadLetters, injected);
        QVERIFY(none.ok());
        QCOMPARE(none->affected, qint64(0));
        QCOMPARE(DeadLetterStore(*db).find(t)->status, QStringLiteral("NEW"));
    }

    void editKeepsTheOriginalExactly_data() { TestDatabases::addKinds(); }
    void editKeepsTheOriginalExactly()
    {
        QFETCH(QString, kind);
        auto db = TestDatabases::fresh(kind, TestDatabases::uniqueName(kind));
        const QByteArray original = R"({"sku":"SKU-l","quantity":3})";
        const qint64 id =
            letter(*db, QStringLiteral("inventory"), QStringLiteral("unknown SKU SKU-l"), original);

        DeadLetterEdit edit;
        edit.actor = QStringLiteral("bob");
        edit.reason = QStringLiteral("binary fix");
        edit.baseEditCount = 0;
        const QByteArray binary("\x00\xff\x01{\"sku\":\"SKU-1\"}\x80", 19);
        edit.payload = binary;
        edit.headers = QJsonObject{{QStringLiteral("trace_id"), QStringLiteral("t-2")},
                                   {QStringLiteral("x-fixed"), QStringLiteral("yes")}};
        auto first = DeadLetterEditor(*db).edit(id, edit);
        QVERIFY2(first.ok(), qPrintable(first.message()));
        auto letterNow = DeadLetterStore(*db).find(id);
        QCOMPARE(letterNow->payload, binary); // exact bytes, NUL and invalid UTF-8 included
        QVERIFY(!letterNow->payloadIsText);
        QCOMPARE(letterNow->originalPayload, original);
        QVERIFY(letterNow->originalPayloadIsText);
        QCOMPARE(
            QJsonDocument::fromJson(letterNow->originalHeaders).object().value(QStringLiteral("trace_id")),
            QJsonValue(QStringLiteral("t-1")));
        const auto headers = letterNow->exactHeaders();
        QCOMPARE(headers.size(), 2);

        // A second edit keeps the message as it came, not the first edit.
        DeadLetterEdit second;
        second.actor = QStringLiteral("bob");
        second.reason = QStringLiteral("text again");
        second.baseEditCount = 1;
        second.payload = QByteArray(R"({"sku":"SKU-1","quantity":3})");
        second.requireJsonPayload = true;
        QVERIFY(DeadLetterEditor(*db).edit(id, second).ok());
        letterNow = DeadLetterStore(*db).find(id);
        QCOMPARE(letterNow->payload, *second.payload);
        QCOMPARE(letterNow->originalPayload, original);
        QCOMPARE(letterNow->editCount, 2);
        QCOMPARE(
            letterNow->toJson().value(QStringLiteral("original")).toObject().value(QStringLiteral("payload")),
            QJsonValue(QString::fromUtf8(original)));

        AuditQuery q;
        q.action = QStringLiteral("dlq.edit");
        auto audit = AuditLog(*db).list(q);
        QCOMPARE(audit->size(), 2);
        // Newest first: text before (the binary edit, as base64) and after.
        QCOMPARE(QByteArray::fromBase64(
                     audit->at(0).before.value(QStringLiteral("payload_base64")).toString().toLatin1()),
                 binary);
        QCOMPARE(audit->at(0).after.value(QStringLiteral("payload")).toString().toUtf8(), *second.payload);
        QCOMPARE(audit->at(1).before.value(QStringLiteral("payload")).toString().toUtf8(), original);
        QCOMPARE(
            audit->at(1).after.value(QStringLiteral("headers")).toObject().value(QStringLiteral("x-fixed")),
            QJsonValue(QStringLiteral("yes")));

        // Refused with one clear error, data untouched: invalid JSON, non-string header, no reason,
        // too large, a dead letter that is not NEW.
        DeadLetterEdit bad = second;
        bad.payload = QByteArray("{\"sku\":");
        QCOMPARE(DeadLetterEditor(*db).edit(id, bad).error().kind, ErrorKind::Usage);
        bad = second;
        bad.headers = QJsonObject{{QStringLiteral("n"), 1}};
        QCOMPARE(DeadLetterEditor(*db).edit(id, bad).error().kind, ErrorKind::Usage);
        bad = second;
        bad.reason.clear();
        QCOMPARE(DeadLetterEditor(*db).edit(id, bad).error().kind, ErrorKind::Usage);
        bad = second;
        bad.requireJsonPayload = false;
        bad.payload = QByteArray(DeadLetterEditor::MaxPayloadBytes + 1, 'x');
        QCOMPARE(DeadLetterEditor(*db).edit(id, bad).error().kind, ErrorKind::Usage);
        QCOMPARE(DeadLetterEditor(*db).edit(id + 1000, second).error().kind, ErrorKind::NotFound);
        QVERIFY(db->exec(QStringLiteral("UPDATE {dead_letters} SET status = 'DISCARDED'")).ok());
        QCOMPARE(DeadLetterEditor(*db).edit(id, second).error().kind, ErrorKind::Conflict);
        QCOMPARE(DeadLetterStore(*db).find(id)->editCount, 2);
        QCOMPARE(AuditLog(*db).list(q)->size(), 2);
    }

    // Issue 26: an edit carries the version it was made from. Ten operators editing the same
    // version at once (each on its own connection): exactly one wins, nine get a conflict, and
    // only the winner's message and audit row are stored. An edit naming no version is refused.
    void staleEditsAreConflicts_data() { TestDatabases::addKinds(); }
    void staleEditsAreConflicts()
    {
        QFETCH(QString, kind);
        auto db = TestDatabases::fresh(kind, TestDatabases::uniqueName(kind));
        const qint64 id =
            letter(*db, QStringLiteral("inventory"), QStringLiteral("unknown SKU"), R"({"sku":"SKU-l"})");
        const DatabaseUrl url = db->url();

        DeadLetterEdit unversioned;
        unversioned.actor = QStringLiteral("bob");
        unversioned.reason = QStringLiteral("no version");
        unversioned.payload = QByteArray(R"({"sku":"SKU-0"})");
        auto refused = DeadLetterEditor(*db).edit(id, unversioned);
        QVERIFY(!refused.ok());
        QCOMPARE(refused.error().kind, ErrorKind::Usage);
        QCOMPARE(refused.error().subject, QStringLiteral("edit_count"));

        constexpr int Editors = 10;
        std::vector<std::thread> editors;
        std::vector<Error> errors(Editors);
        std::vector<bool> won(Editors, false);
        std::atomic<int> ready{0};
        for (int i = 0; i < Editors; ++i) {
            editors.emplace_back([&, i]() {
                auto own = Database::open(url);
                if (!own) {
                    errors[size_t(i)] = own.error();
                    ++ready;
                    return;
                }
                DeadLetterEdit e;
                e.actor = QStringLiteral("operator-%1").arg(i);
                e.reason = QStringLiteral("fix %1").arg(i);
                e.payload = QStringLiteral(R"({"sku":"SKU-%1"})").arg(i).toUtf8();
                e.baseEditCount = 0; // every one of them read the dead letter before any edit
                ++ready;
                while (ready.load() < Editors)
                    std::this_thread::yield();
                auto r = DeadLetterEditor(**own).edit(id, e);
                won[size_t(i)] = r.ok();
                if (!r)
                    errors[size_t(i)] = r.error();
            });
        }
        for (auto& t : editors)
            t.join();
        int winners = 0;
        int winner = -1;
        for (int i = 0; i < Editors; ++i) {
            if (won[size_t(i)]) {
                ++winners;
                winner = i;
                continue;
            }
            QVERIFY2(errors[size_t(i)].kind == ErrorKind::Conflict, qPrintable(errors[size_t(i)].message));
            QVERIFY2(errors[size_t(i)].message.contains(QStringLiteral("edited meanwhile")) ||
                         errors[size_t(i)].message.contains(QStringLiteral("changed meanwhile")),
                     qPrintable(errors[size_t(i)].message));
        }
        QCOMPARE(winners, 1);
        auto now = DeadLetterStore(*db).find(id);
        QCOMPARE(now->editCount, 1);
        QCOMPARE(now->payload, QStringLiteral(R"({"sku":"SKU-%1"})").arg(winner).toUtf8());
        QCOMPARE(countRows(*db, QStringLiteral("{audit}"), QStringLiteral("action = 'dlq.edit'")), qint64(1));

        // Made from the current version, the next edit goes through.
        DeadLetterEdit next = unversioned;
        next.baseEditCount = 1;
        QVERIFY(DeadLetterEditor(*db).edit(id, next).ok());
        next.baseEditCount = 1; // now stale
        auto stale = DeadLetterEditor(*db).edit(id, next);
        QCOMPARE(stale.error().kind, ErrorKind::Conflict);
        QVERIFY2(stale.message().contains(QStringLiteral("it is at edit 2; this edit was made from edit 1")),
                 qPrintable(stale.message()));
        QCOMPARE(DeadLetterStore(*db).find(id)->editCount, 2);
    }
};

QTEST_GUILESS_MAIN(TestDeadLetterGroups)
#include "tst_deadlettergroups.moc"
