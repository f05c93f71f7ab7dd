// The one bulk-action engine (core/ops/BulkActionEngine) against real PostgreSQL, MariaDB and
// SQLite: keyset chunks with one audit row each, progress, cancel between chunks, conflicts,
// failure groups, dead letters, and validation that names the problem.
#include "core/db/DeadLetterStore.h"
#include "core/db/EventStatus.h"
#include "core/ops/AuditLog.h"
#include "core/ops/BulkActionEngine.h"
#include "core/support/Failpoints.h"
#include "tests/support/BulkEvents.h"
#include "tests/support/TestDatabases.h"

#include <QJsonArray>
#include <QSet>
#include <QTest>
#include <QThread>
#include <atomic>

using namespace outbox;
using namespace outbox::test;

namespace {

ActionRequest failedFilter(const QString& reason)
{
    ActionRequest r;
    r.eventFilter = EventFilter{};
    r.eventFilter->statuses = {EventStatus::Failed};
    r.reason = reason;
    r.actor = QStringLiteral("alice");
    return r;
}

QVector<AuditEntry> auditFor(Database& db, const QString& action)
{
    AuditQuery q;
    q.action = action;
    q.limit = 1000;
    auto entries = AuditLog(db).list(q);
    if (!entries)
        qFatal("audit list failed: %s", qPrintable(entries.message()));
    QVector<AuditEntry> out = *entries;
    std::sort(out.begin(), out.end(), [](const AuditEntry& a, const AuditEntry& b) { return a.id < b.id; });
    return out;
}

QVector<qint64> idsWhere(Database& db, const QString& where)
{
    QVector<qint64> ids;
    auto q = db.exec(QStringLiteral("SELECT id FROM {events} WHERE %1 ORDER BY id").arg(where));
    if (!q)
        qFatal("select failed: %s", qPrintable(q.message()));
    while (q->next())
        ids << q->value(0).toLongLong();
    return ids;
}

} // namespace

class TestBulkActionEngine : public QObject
{
    Q_OBJECT

private slots:
    void cleanup() { QVERIFY(Failpoints::configure(QString()).ok()); }

    // 2,500 FAILED rows by filter: three chunks (1,000 + 1,000 + 500), each its own audit row,
    // progress after each, and rows outside the filter untouched.
    void filterRunsInAuditedChunks_data() { TestDatabases::addKinds(); }
    void filterRunsInAuditedChunks()
    {
        QFETCH(QString, kind);
        auto db = TestDatabases::fresh(kind, TestDatabases::uniqueName(QStringLiteral("chunks")));
        insertGeneratedEvents(*db, 2500, 1);
        const auto others = insertEvents(*db, 7);
        forceStatus(*db, others.mid(0, 3), EventStatus::Sent);

        BulkActionEngine engine(*db);
        auto preview = engine.preview(ActionKind::Requeue, failedFilter(QString()));
        QVERIFY2(preview.ok(), qPrintable(preview.message()));
        QCOMPARE(preview->matched, qint64(2500));
        QCOMPARE(preview->sample.size(), 10);
        QCOMPARE(countRows(*db, QStringLiteral("{audit}")), qint64(0));

        QVector<BulkProgress> reports;
        BulkControl control;
        control.progress = [&](const BulkProgress& p) { reports << p; };
        auto result =
            engine.run(ActionKind::Requeue, failedFilter(QStringLiteral("broker fixed")), *preview, control);
        QVERIFY2(result.ok(), qPrintable(result.message()));
        QCOMPARE(result->expected, qint64(2500));
        QCOMPARE(result->affected, qint64(2500));
        QCOMPARE(result->conflictCount, qint64(0));
        QCOMPARE(result->chunks, 3);
        QCOMPARE(result->cancelled, false);
        QCOMPARE(reports.size(), 3);
        QCOMPARE(reports.at(0).processed, qint64(1000));
        QCOMPARE(reports.at(1).processed, qint64(2000));
        QCOMPARE(reports.at(2).processed, qint64(2500));
        QCOMPARE(reports.at(2).expected, qint64(2500));
        QCOMPARE(countRows(*db, QStringLiteral("{events}"), QStringLiteral("status = 'FAILED'")), qint64(0));
        QCOMPARE(countRows(*db, QStringLiteral("{events}"), QStringLiteral("status = 'PENDING'")),
                 qint64(2500 + 4));
        QCOMPARE(countRows(*db, QStringLiteral("{events}"), QStringLiteral("status = 'SENT'")), qint64(3));

        const auto audit = auditFor(*db, QStringLiteral("events.requeue"));
        QCOMPARE(audit.size(), 3);
        QCOMPARE(result->auditIds.size(), 3);
        const QString run = audit.first().filter.value(QStringLiteral("run")).toString();
        QVERIFY(!run.isEmpty());
        const qint64 expectedCounts[] = {1000, 1000, 500};
        QSet<qint64> covered;
        for (int i = 0; i < 3; ++i) {
            const AuditEntry& e = audit.at(i);
            QCOMPARE(e.id, result->auditIds.at(i));
            QCOMPARE(e.affectedCount, expectedCounts[i]);
            QCOMPARE(e.targetIds.size(), int(expectedCounts[i]));
            QCOMPARE(e.reason, QStringLiteral("broker fixed"));
            QCOMPARE(e.outcome, QStringLiteral("ok"));
            QCOMPARE(e.filter.value(QStringLiteral("run")).toString(), run);
            QCOMPARE(e.filter.value(QStringLiteral("chunk")).toInt(), i + 1);
            QCOMPARE(e.filter.value(QStringLiteral("status")).toArray().first().toString(),
                     EventStatus::Failed);
            QCOMPARE(e.before.value(QStringLiteral("FAILED")).toInteger(), expectedCounts[i]);
            for (const QJsonValue& id : e.targetIds)
                covered.insert(id.toInteger());
        }
        QCOMPARE(covered.size(), 2500); // every row in exactly one chunk
    }

    // A run given the preview the operator confirmed takes that preview's count instead of counting
    // again: rows that joined the filter since are still changed, the progress total stays the
    // preview's, and fewer statements reach the database than for a preview and a run; a preview of
    // another action is refused.
    void runAfterPreviewDoesNotPreviewAgain()
    {
        auto db = TestDatabases::fresh(QStringLiteral("sqlite"),
                                       TestDatabases::uniqueName(QStringLiteral("previewed")));
        const auto first = insertEvents(*db, 3);
        forceStatus(*db, first, EventStatus::Failed);
        BulkActionEngine engine(*db);
        auto preview = engine.preview(ActionKind::Requeue, failedFilter(QString()));
        QVERIFY2(preview.ok(), qPrintable(preview.message()));
        QCOMPARE(preview->matched, qint64(3));
        const auto later = insertEvents(*db, 2);
        forceStatus(*db, later, EventStatus::Failed);

        quint64 before = db->statementsSent();
        auto reused =
            engine.run(ActionKind::Requeue, failedFilter(QStringLiteral("after a preview")), *preview);
        const quint64 reusedStatements = db->statementsSent() - before;
        QVERIFY2(reused.ok(), qPrintable(reused.message()));
        QCOMPARE(reused->expected, qint64(3)); // the preview's count: nothing counted again
        QCOMPARE(reused->affected, qint64(5));

        // Previewing and running (what OperatorActions does for callers without a preview of
        // their own) sends more: the run above did not count again.
        forceStatus(*db, first + later, EventStatus::Failed);
        before = db->statementsSent();
        auto counted =
            OperatorActions(*db).perform(ActionKind::Requeue, failedFilter(QStringLiteral("again")));
        const quint64 countedStatements = db->statementsSent() - before;
        QVERIFY2(counted.ok(), qPrintable(counted.message()));
        QCOMPARE(counted->expected, qint64(5));
        QVERIFY2(countedStatements > reusedStatements,
                 qPrintable(QStringLiteral("%1 statements with a preview, %2 previewing first")
                                .arg(reusedStatements)
                                .arg(countedStatements)));

        // The preview says what every front end shows: the verb, the phrase to type (a filter is
        // bulk work), and whether the run takes more than one chunk.
        QCOMPARE(preview->verb, QStringLiteral("requeue"));
        QCOMPARE(preview->confirmation, QStringLiteral("requeue 3"));
        QVERIFY(!preview->runsAsJob);
        const QJsonObject shown = preview->toJson();
        QCOMPARE(shown.value(QStringLiteral("confirmation")).toString(), QStringLiteral("requeue 3"));
        QCOMPARE(shown.value(QStringLiteral("verb")).toString(), QStringLiteral("requeue"));
        QCOMPARE(shown.value(QStringLiteral("job")).toBool(true), false);
        forceStatus(*db, first + later, EventStatus::Failed);
        ActionRequest small = failedFilter(QString());
        small.chunkSize = 2;
        auto chunked = engine.preview(ActionKind::MarkDead, small);
        QVERIFY2(chunked.ok(), qPrintable(chunked.message()));
        QVERIFY(chunked->runsAsJob); // five rows in chunks of two
        QCOMPARE(chunked->confirmation, QStringLiteral("dead 5"));
        // One row named by its id confirms without typing, unless the caller asks (production).
        ActionRequest one;
        one.ids = {first.first()};
        one.actor = QStringLiteral("alice");
        auto single = engine.preview(ActionKind::Requeue, one);
        QVERIFY2(single.ok(), qPrintable(single.message()));
        QCOMPARE(single->confirmation, QString());
        one.confirmAlways = true;
        single = engine.preview(ActionKind::Requeue, one);
        QVERIFY2(single.ok(), qPrintable(single.message()));
        QCOMPARE(single->confirmation, QStringLiteral("requeue 1"));

        // A preview of another action is not taken for this one: refused, nothing changes.
        auto deadPreview = engine.preview(ActionKind::MarkDead, failedFilter(QString()));
        QVERIFY(deadPreview.ok());
        const qint64 audits = countRows(*db, QStringLiteral("{audit}"));
        auto other =
            engine.run(ActionKind::Requeue, failedFilter(QStringLiteral("other preview")), *deadPreview);
        QVERIFY(!other.ok());
        QCOMPARE(other.error().kind, ErrorKind::Usage);
        QCOMPARE(countRows(*db, QStringLiteral("{events}"), QStringLiteral("status = 'FAILED'")), qint64(5));
        QCOMPARE(countRows(*db, QStringLiteral("{audit}")), audits);
        // Nor is a run's result.
        auto notAPreview = engine.run(ActionKind::Requeue, failedFilter(QStringLiteral("a run")), *reused);
        QVERIFY(!notAPreview.ok());
    }

    // Cancel between chunks: the finished chunk stays committed and audited, the rest is
    // untouched; running again continues where it stopped.
    void cancelBetweenChunksLeavesTheRestUntouched_data() { TestDatabases::addKinds(); }
    void cancelBetweenChunksLeavesTheRestUntouched()
    {
        QFETCH(QString, kind);
        auto db = TestDatabases::fresh(kind, TestDatabases::uniqueName(QStringLiteral("cancel")));
        insertGeneratedEvents(*db, 2500, 1);
        const QVector<qint64> failed = idsWhere(*db, QStringLiteral("status = 'FAILED'"));
        BulkActionEngine engine(*db);

        // Cancelled before the first chunk: nothing changes, nothing is audited.
        auto preview = engine.preview(ActionKind::MarkDead, failedFilter(QString()));
        QVERIFY2(preview.ok(), qPrintable(preview.message()));
        BulkControl early;
        early.cancelRequested = []() { return true; };
        auto none =
            engine.run(ActionKind::MarkDead, failedFilter(QStringLiteral("stop at once")), *preview, early);
        QVERIFY2(none.ok(), qPrintable(none.message()));
        QVERIFY(none->cancelled);
        QCOMPARE(none->affected, qint64(0));
        QCOMPARE(countRows(*db, QStringLiteral("{audit}")), qint64(0));

        std::atomic<int> chunksSeen{0};
        BulkControl control;
        control.progress = [&](const BulkProgress&) { ++chunksSeen; };
        control.cancelRequested = [&]() { return chunksSeen.load() >= 1; };
        auto result =
            engine.run(ActionKind::MarkDead, failedFilter(QStringLiteral("poison batch")), *preview, control);
        QVERIFY2(result.ok(), qPrintable(result.message()));
        QVERIFY(result->cancelled);
        QCOMPARE(result->chunks, 1);
        QCOMPARE(result->affected, qint64(1000));
        QCOMPARE(result->lastId, failed.at(999));
        QCOMPARE(countRows(*db, QStringLiteral("{events}"), QStringLiteral("status = 'DEAD'")), qint64(1000));
        QCOMPARE(countRows(*db, QStringLiteral("{events}"), QStringLiteral("status = 'FAILED'")),
                 qint64(1500));
        QCOMPARE(countRows(*db, QStringLiteral("{events}"),
                           QStringLiteral("status = 'DEAD' AND id <= %1").arg(failed.at(999))),
                 qint64(1000));
        QCOMPARE(countRows(*db, QStringLiteral("{audit}"), QStringLiteral("reason = 'poison batch'")),
                 qint64(1));

        auto rest = OperatorActions(*db).perform(ActionKind::MarkDead,
                                                 failedFilter(QStringLiteral("poison batch, the rest")));
        QVERIFY2(rest.ok(), qPrintable(rest.message()));
        QCOMPARE(rest->expected, qint64(1500));
        QCOMPARE(rest->affected, qint64(1500));
        QCOMPARE(rest->chunks, 2);
        QCOMPARE(countRows(*db, QStringLiteral("{events}"), QStringLiteral("status = 'DEAD'")), qint64(2500));
    }

    // Rows that change state after their chunk was selected and before it is locked are
    // conflicts: counted, named, never changed.
    void rowsChangedMeanwhileAreConflicts_data() { TestDatabases::addKinds(); }
    void rowsChangedMeanwhileAreConflicts()
    {
        QFETCH(QString, kind);
        auto db = TestDatabases::fresh(kind, TestDatabases::uniqueName(QStringLiteral("conflict")));
        insertGeneratedEvents(*db, 1500, 1);
        const QVector<qint64> failed = idsWhere(*db, QStringLiteral("status = 'FAILED'"));
        // The second chunk's selection is followed by a pause before its lock.
        QVERIFY(Failpoints::configure(QStringLiteral("ops.bulk.before_chunk_lock=sleep(1500)")).ok());
        std::atomic<int> chunksSeen{0};
        Result<ActionResult> result = Error::runtime(QStringLiteral("not run"));
        const DatabaseUrl url = db->url();
        std::unique_ptr<QThread> worker(QThread::create([&]() {
            auto own = TestDatabases::open(url, QStringLiteral("engine"));
            BulkControl control;
            control.progress = [&](const BulkProgress&) { ++chunksSeen; };
            BulkActionEngine engine(*own);
            auto preview = engine.preview(ActionKind::Requeue, failedFilter(QString()));
            result = preview ? engine.run(ActionKind::Requeue, failedFilter(QStringLiteral("retry")),
                                          *preview, control)
                             : Result<ActionResult>(preview.error());
        }));
        worker->start();
        QTRY_VERIFY_WITH_TIMEOUT(chunksSeen.load() >= 1, 20000);
        QTest::qWait(500); // inside the second chunk's pause: selected, not locked yet
        const QVector<qint64> taken = failed.mid(1000, 5);
        forceStatus(*db, taken, EventStatus::Sent);
        QVERIFY(worker->wait(30000));
        QVERIFY2(result.ok(), qPrintable(result.message()));
        QCOMPARE(result->chunks, 2);
        QCOMPARE(result->conflictCount, qint64(5));
        QCOMPARE(result->affected, qint64(1495));
        QCOMPARE(result->conflicts.size(), 5);
        QCOMPARE(result->conflicts.first().id, taken.first());
        QCOMPARE(result->conflicts.first().status, EventStatus::Sent);
        for (qint64 id : taken)
            QCOMPARE(statusOf(*db, id), EventStatus::Sent);
        const auto audit = auditFor(*db, QStringLiteral("events.requeue"));
        QCOMPARE(audit.size(), 2);
        QCOMPARE(audit.at(1).outcome, QStringLiteral("partial"));
        QCOMPARE(audit.at(1).affectedCount, qint64(495));
    }

    // A failure group (error class + fingerprint) in chunks: its eligible members change, other
    // groups and ineligible members do not.
    void failureGroupRunsInChunks_data() { TestDatabases::addKinds(); }
    void failureGroupRunsInChunks()
    {
        QFETCH(QString, kind);
        auto db = TestDatabases::fresh(kind, TestDatabases::uniqueName(QStringLiteral("group")));
        insertGeneratedEvents(*db, 2500, 1); // "schema check failed for row N", class deterministic
        const auto other = insertEvents(*db, 4);
        forceStatus(*db, other, EventStatus::Failed, QStringLiteral("Broker: Topic authorization failed"));
        // Two members of the group are PENDING (retrying): in the group, not requeueable.
        const QVector<qint64> members = idsWhere(*db, QStringLiteral("last_error LIKE 'schema check%'"));
        forceStatus(*db, members.mid(0, 2), EventStatus::Pending,
                    QStringLiteral("schema check failed for row 1"));
        QVERIFY(db->exec(QStringLiteral("UPDATE {events} SET last_error_class = 'deterministic' WHERE id IN "
                                        "(%1, %2)")
                             .arg(members.at(0))
                             .arg(members.at(1)))
                    .ok());

        auto groups = FailureGroups(*db).list();
        QVERIFY(groups.ok());
        const auto it = std::find_if(groups->begin(), groups->end(), [](const FailureGroup& g) {
            return g.fingerprint == QLatin1String("schema check failed for row <n>");
        });
        QVERIFY(it != groups->end());
        QCOMPARE(it->count, qint64(2500));

        ActionRequest request;
        request.group = *it;
        request.actor = QStringLiteral("bob");
        BulkActionEngine engine(*db);
        auto preview = engine.preview(ActionKind::Requeue, request);
        QVERIFY2(preview.ok(), qPrintable(preview.message()));
        QCOMPARE(preview->matched, qint64(2498));
        QCOMPARE(preview->skipped.value(EventStatus::Pending), qint64(2));
        QCOMPARE(preview->sample.size(), 10);

        request.reason = QStringLiteral("schema registry fixed");
        auto result = engine.run(ActionKind::Requeue, request, *preview);
        QVERIFY2(result.ok(), qPrintable(result.message()));
        QCOMPARE(result->affected, qint64(2498));
        QCOMPARE(result->chunks, 3);
        QCOMPARE(result->skipped.value(EventStatus::Pending), qint64(2));
        QCOMPARE(result->conflictCount, qint64(0));
        const auto audit = auditFor(*db, QStringLiteral("events.requeue"));
        QCOMPARE(audit.size(), 3);
        QCOMPARE(audit.first()
                     .filter.value(QStringLiteral("group"))
                     .toObject()
                     .value(QStringLiteral("fingerprint")),
                 QJsonValue(QStringLiteral("schema check failed for row <n>")));
        for (qint64 id : other)
            QCOMPARE(statusOf(*db, id), EventStatus::Failed);
        QCOMPARE(countRows(*db, QStringLiteral("{events}"), QStringLiteral("status = 'FAILED'")), qint64(4));
    }

    // Dead letters go through the same engine; one replay token covers every chunk.
    void deadLetterReplayRunsInChunks_data() { TestDatabases::addKinds(); }
    void deadLetterReplayRunsInChunks()
    {
        QFETCH(QString, kind);
        auto db = TestDatabases::fresh(kind, TestDatabases::uniqueName(QStringLiteral("dlq")));
        QVERIFY(db->beginWrite().ok());
        for (int i = 0; i < 250; ++i) {
            DeadLetter l;
            l.consumerName = i < 240 ? QStringLiteral("inventory") : QStringLiteral("billing");
            l.eventId = QStringLiteral("evt-%1").arg(i);
            l.topic = QStringLiteral("order");
            l.payload = R"({"sku":"poison"})";
            l.headers = "{}";
            l.error = QStringLiteral("unknown SKU");
            QVERIFY(DeadLetterStore(*db).insert(l).ok());
        }
        QVERIFY(db->commit().ok());
        ActionRequest request;
        request.deadLetterFilter = DeadLetterFilter{};
        request.deadLetterFilter->consumerName = QStringLiteral("inventory");
        request.reason = QStringLiteral("SKU table fixed");
        request.actor = QStringLiteral("carol");
        request.chunkSize = 100;
        auto result = OperatorActions(*db).perform(ActionKind::ReplayDeadLetters, request);
        QVERIFY2(result.ok(), qPrintable(result.message()));
        QCOMPARE(result->chunks, 3);
        QCOMPARE(result->affected, qint64(240));
        QVERIFY(!result->replayToken.isEmpty());
        QCOMPARE(countRows(
                     *db, QStringLiteral("{dead_letters}"),
                     QStringLiteral("status = 'REPLAYING' AND replay_token = '%1'").arg(result->replayToken)),
                 qint64(240));
        QCOMPARE(countRows(*db, QStringLiteral("{dead_letters}"), QStringLiteral("status = 'NEW'")),
                 qint64(10));
        QCOMPARE(auditFor(*db, QStringLiteral("dlq.replay")).size(), 3);

        request.deadLetterFilter->consumerName = QStringLiteral("billing");
        auto discard = OperatorActions(*db).perform(ActionKind::DiscardDeadLetters, request);
        QVERIFY2(discard.ok(), qPrintable(discard.message()));
        QCOMPARE(discard->affected, qint64(10));
        QCOMPARE(discard->chunks, 1);
    }

    // An id list longer than a chunk is split by id; missing and ineligible ids are conflicts.
    void idListsOverAChunkAreSplit()
    {
        auto db = TestDatabases::fresh(QStringLiteral("sqlite"), QStringLiteral("ids"));
        insertGeneratedEvents(*db, 2200, 1);
        QVector<qint64> ids = idsWhere(*db, QStringLiteral("1 = 1"));
        forceStatus(*db, ids.mid(0, 3), EventStatus::Sent);
        ids << 999999 << ids.first(); // a missing id and a duplicate
        ActionRequest r;
        r.ids = ids;
        r.actor = QStringLiteral("dave");
        r.reason = QStringLiteral("retry all");
        auto result = OperatorActions(*db).perform(ActionKind::Requeue, r);
        QVERIFY2(result.ok(), qPrintable(result.message()));
        QCOMPARE(result->chunks, 3);
        QCOMPARE(result->affected, qint64(2197));
        QCOMPARE(result->conflictCount, qint64(4)); // three SENT, one missing
        QCOMPARE(countRows(*db, QStringLiteral("{audit}")), qint64(3));
    }

    // Core says what is wrong, names the input, and never a front end's flag.
    void validationNamesTheProblemNotAFlag()
    {
        ActionInput input = ActionInput::Targets;
        ActionRequest r;
        r.actor = QStringLiteral("a");
        r.ids = {1};
        Status s = BulkActionEngine::validate(ActionKind::Requeue, r, &input);
        QVERIFY(!s.ok());
        QCOMPARE(input, ActionInput::Reason);
        QCOMPARE(s.message(), QStringLiteral("a reason is required"));

        r.reason = QStringLiteral("why");
        r.ids.clear();
        r.eventFilter = EventFilter{};
        s = BulkActionEngine::validate(ActionKind::MarkDead, r, &input);
        QCOMPARE(input, ActionInput::Filter);
        QVERIFY(!s.message().contains(QStringLiteral("--")));

        r.eventFilter.reset();
        s = BulkActionEngine::validate(ActionKind::MarkDead, r, &input);
        QCOMPARE(input, ActionInput::Targets);

        r.group = FailureGroup{QStringLiteral("deterministic"), QStringLiteral("x <n>"), {}, 3, 1, {}, {}};
        QVERIFY(BulkActionEngine::validate(ActionKind::MarkDead, r, &input).ok());
        QVERIFY(!BulkActionEngine::validate(ActionKind::ReplayDeadLetters, r, &input).ok());
        r.chunkSize = 1001;
        s = BulkActionEngine::validate(ActionKind::MarkDead, r, &input);
        QCOMPARE(input, ActionInput::ChunkSize);
        r.chunkSize = 1000;
        r.actor.clear();
        s = BulkActionEngine::validate(ActionKind::MarkDead, r, &input);
        QCOMPARE(input, ActionInput::Actor);
        QVERIFY(!s.message().contains(QStringLiteral("--")));
    }
};

QTEST_GUILESS_MAIN(TestBulkActionEngine)
#include "tst_bulkactionengine.moc"
