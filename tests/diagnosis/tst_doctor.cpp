// Every diagnosis check against a database put into exactly the state it looks for, on SQLite,
// PostgreSQL and MariaDB, and a healthy database where every check stays silent.
#include "core/config/Config.h"
#include "core/db/DeadLetterStore.h"
#include "core/db/HeldClaim.h"
#include "core/db/InboxStore.h"
#include "core/db/Migrator.h"
#include "core/db/RelayStore.h"
#include "core/db/SqlCondition.h"
#include "core/diagnosis/Doctor.h"
#include "core/diagnosis/PreparedActionRunner.h"
#include "core/metrics/MetricsQuery.h"
#include "core/ops/OperatorActions.h"
#include "tests/support/TestDatabases.h"

#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QLocale>
#include <QTemporaryDir>
#include <QTest>
#include <QUuid>

using namespace outbox;
using namespace outbox::test;

namespace {

// Sets a timestamp column of some rows to the database's now + offset.
void setTime(Database& db, const QString& table, const QString& column, const QVector<qint64>& ids,
             qint64 offsetMs)
{
    QVariantList v;
    for (qint64 id : ids)
        v << id;
    SqlCondition c;
    c.addIn(QStringLiteral("id"), QStringLiteral("i"), v);
    c.binds.insert(QStringLiteral(":offset"), offsetMs);
    auto q =
        db.exec(QStringLiteral("UPDATE %1 SET %2 = %3 WHERE %4")
                    .arg(table, column, db.dialect().nowPlusMillis(QStringLiteral(":offset")), c.where()),
                c.binds);
    if (!q)
        qFatal("setTime failed: %s", qPrintable(q.message()));
}

// Registers a relay and moves its heartbeat `ageMs` into the past.
void addRelay(Database& db, const QString& worker, const QString& state, qint64 ageMs,
              const QString& lastError = {}, const QString& desired = QStringLiteral("RUN"))
{
    RelayRecord r;
    r.workerId = worker;
    r.host = QStringLiteral("relay-host");
    r.pid = 4242;
    r.state = state;
    r.lastError = lastError;
    if (!RelayStore(db).heartbeat(r))
        qFatal("heartbeat failed");
    exec(
        db,
        QStringLiteral("UPDATE {relays} SET heartbeat_at = %1, desired_state = :desired WHERE worker_id = :w")
            .arg(db.dialect().nowPlusMillis(QStringLiteral(":age"))),
        {{QStringLiteral(":age"), -ageMs},
         {QStringLiteral(":w"), worker},
         {QStringLiteral(":desired"), desired}});
}

void markSent(Database& db, const QVector<qint64>& ids, qint64 ageMs)
{
    forceStatus(db, ids, QStringLiteral("SENT"));
    setTime(db, QStringLiteral("{events}"), QStringLiteral("sent_at"), ids, -ageMs);
    setTime(db, QStringLiteral("{events}"), QStringLiteral("created_at"), ids, -ageMs);
}

void processed(Database& db, const QVector<qint64>& ids, const QString& consumer)
{
    for (qint64 id : ids)
        exec(db,
             QStringLiteral(
                 "INSERT INTO {inbox} (event_id, consumer_name, status, attempts, processed_at) SELECT "
                 "event_id, :consumer, 'PROCESSED', 1, %1 FROM {events} WHERE id = :id")
                 .arg(db.dialect().now()),
             {{QStringLiteral(":consumer"), consumer}, {QStringLiteral(":id"), id}});
}

qint64 addDeadLetter(Database& db, const QString& consumer, const QString& error)
{
    DeadLetter l;
    l.consumerName = consumer;
    l.eventId = QUuid::createUuid().toString(QUuid::WithoutBraces);
    l.topic = QStringLiteral("order");
    l.payload = QByteArrayLiteral("{\"sku\":\"SKU-404\"}");
    l.headers = QByteArrayLiteral("{}");
    l.error = error;
    l.attempts = 1;
    auto id = DeadLetterStore(db).insert(l);
    if (!id)
        qFatal("dead letter insert failed: %s", qPrintable(id.message()));
    return *id;
}

// A prepared command as its check made it (the report adds the finding's --reason to audited ones).
QString bare(const PreparedAction& a)
{
    auto text = a.commandLine.render();
    return text ? *text : QString();
}

DiagnosisReport diagnose(Database& db, DiagnosisOptions options = {})
{
    auto report = Doctor(db, std::move(options)).run();
    if (!report)
        qFatal("doctor failed: %s", qPrintable(report.message()));
    for (const CheckRun& c : report->checks)
        if (c.outcome == CheckRun::Outcome::Failed)
            qFatal("check %s failed: %s", qPrintable(c.id), qPrintable(c.note));
    return *report;
}

QStringList ids(const DiagnosisReport& report)
{
    QStringList out;
    for (const Finding& f : report.findings)
        out << f.id;
    return out;
}

QStringList names(std::initializer_list<const char*> list)
{
    QStringList out;
    for (const char* s : list)
        out << QString::fromLatin1(s);
    return out;
}

} // namespace

class TestDoctor : public QObject
{
    Q_OBJECT

private slots:
    void checkIdsAreTheContract()
    {
        QCOMPARE(Doctor::checkIds(),
                 names({"no-relay", "relay-stale", "relay-degraded", "backlog-age", "expired-leases",
                        "held-claims", "failed-events", "dead-events", "blocked-aggregates", "dead-letters",
                        "replay-stuck", "unconsumed", "contract-violations", "table-health",
                        "notify-lock-wait", "schema-outdated"}));
    }

    // Prepared actions run through core: events through the bulk engine (the preview's count
    // reused), relays through RelayControl; an unknown operation or a command line is an error and
    // changes nothing, never a requeue.
    void preparedActionsAreDispatchedByCore()
    {
        auto db = TestDatabases::fresh(QStringLiteral("sqlite"), QStringLiteral("doctor_dispatch"));
        const auto events = insertEvents(*db, 3);
        forceStatus(*db, events, QStringLiteral("FAILED"), QStringLiteral("broken"));
        PreparedActionRunner runner(*db, DiagnosisOptions{}.relayStaleAfterMs());
        const QString actor = QStringLiteral("alice");

        PreparedAction unknown;
        unknown.operation = static_cast<PreparedAction::Operation>(42);
        unknown.ids = events;
        for (const PreparedAction::Operation op :
             {static_cast<PreparedAction::Operation>(42), PreparedAction::Operation::RunCommand}) {
            unknown.operation = op;
            auto preview = runner.preview(unknown, actor);
            QVERIFY(!preview.ok());
            QCOMPARE(preview.error().kind, ErrorKind::Usage);
            auto run = runner.run(unknown, QStringLiteral("must not run"), actor, ActionResult{});
            QVERIFY(!run.ok());
            QCOMPARE(run.error().kind, ErrorKind::Usage);
            QVERIFY(!PreparedActionRunner::bulkKind(op).ok());
        }
        QCOMPARE(countRows(*db, QStringLiteral("{events}"), QStringLiteral("status = 'FAILED'")), qint64(3));
        QCOMPARE(countRows(*db, QStringLiteral("{audit}")), qint64(0));

        PreparedAction dead;
        dead.operation = PreparedAction::Operation::MarkEventsDead;
        dead.ids = events.mid(0, 2);
        auto preview = runner.preview(dead, actor);
        QVERIFY2(preview.ok(), qPrintable(preview.message()));
        QCOMPARE(preview->matched, qint64(2));
        QCOMPARE(preview->verb, QStringLiteral("dead"));
        QCOMPARE(preview->confirmation, QStringLiteral("dead 2")); // two rows: typed, as core spells it
        auto run = runner.run(dead, QStringLiteral("poison"), actor, *preview);
        QVERIFY2(run.ok(), qPrintable(run.message()));
        QCOMPARE(run->action, QStringLiteral("events.dead"));
        QCOMPARE(run->affected, qint64(2));
        QCOMPARE(countRows(*db, QStringLiteral("{events}"), QStringLiteral("status = 'DEAD'")), qint64(2));

        addRelay(*db, QStringLiteral("relay-paused"), QStringLiteral("PAUSED"), 0, {},
                 QStringLiteral("PAUSE"));
        PreparedAction resume;
        resume.operation = PreparedAction::Operation::ResumeRelays;
        resume.workerIds = {QStringLiteral("relay-paused")};
        auto relays = runner.preview(resume, actor);
        QVERIFY2(relays.ok(), qPrintable(relays.message()));
        QCOMPARE(relays->matched, qint64(1));
        QCOMPARE(relays->verb, QStringLiteral("resume"));
        QCOMPARE(relays->confirmation, QString()); // one relay, not asked for
        auto production = runner.preview(resume, actor, true);
        QVERIFY2(production.ok(), qPrintable(production.message()));
        QCOMPARE(production->confirmation, QStringLiteral("resume 1"));
        auto resumed = runner.run(resume, QStringLiteral("maintenance over"), actor, *relays);
        QVERIFY2(resumed.ok(), qPrintable(resumed.message()));
        QCOMPARE(resumed->action, QStringLiteral("relay.resume"));
        QCOMPARE(countRows(*db, QStringLiteral("{relays}"), QStringLiteral("desired_state = 'RUN'")),
                 qint64(1));
    }

    void optionsFromConfiguration()
    {
        QTemporaryDir dir;
        auto load = [&dir](const QByteArray& ini) {
            QFile f(dir.filePath(QStringLiteral("doctor.ini")));
            if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate))
                qFatal("cannot write the configuration");
            f.write(ini);
            f.close();
            config::ConfigInputs inputs;
            inputs.file = f.fileName();
            return config::Config::load(inputs);
        };
        auto c = load("[doctor]\nbacklog_age = 90s\nconsumers = inventory, billing\ndead_tuple_percent = 30\n"
                      "[relay]\nretention = 2d\n");
        QVERIFY2(c.ok(), qPrintable(c.message()));
        const DiagnosisOptions o = DiagnosisOptions::fromConfig(*c);
        QVERIFY(o.validate().ok());
        QCOMPARE(o.backlogAgeWarningMs, qint64(90000));
        QCOMPARE(o.backlogAgeCriticalMs, qint64(30 * 60 * 1000));
        QCOMPARE(o.consumers, names({"inventory", "billing"}));
        QCOMPARE(o.deadTupleRatio, 0.3);
        QCOMPARE(o.retentionMs, qint64(2 * 24 * 3600 * 1000));
        // A warning threshold above the default critical one moves the critical one along.
        QCOMPARE(DiagnosisOptions::fromConfig(*load("[doctor]\nbacklog_age = 2h\n")).backlogAgeCriticalMs,
                 qint64(7200000));
        QVERIFY(!load("[doctor]\nbacklog = 5m\n").ok());
        QVERIFY(!load("[doctor]\nbacklog_age = 5 minutes\n").ok());
        QVERIFY(!load("[doctor]\ndead_tuple_percent = 200\n").ok());
        QVERIFY(
            !DiagnosisOptions::fromConfig(*load("[doctor]\nbacklog_age = 40m\nbacklog_age_critical = 30m\n"))
                 .validate()
                 .ok());
    }

    void healthyDatabaseHasNoFindings_data() { TestDatabases::addKinds(); }
    void healthyDatabaseHasNoFindings()
    {
        QFETCH(QString, kind);
        auto db = TestDatabases::fresh(kind, QStringLiteral("doctor_healthy"));
        const auto sent = insertEvents(*db, 20);
        markSent(*db, sent, 10 * 60 * 1000);
        processed(*db, sent, QStringLiteral("inventory"));
        insertEvents(*db, 5, QStringLiteral("OrderPaid"), QStringLiteral("fresh-")); // just written, PENDING
        addRelay(*db, QStringLiteral("relay-a"), QStringLiteral("RUNNING"), 0);
        const qint64 replayed =
            addDeadLetter(*db, QStringLiteral("inventory"), QStringLiteral("unknown SKU 404"));
        exec(*db, QStringLiteral("UPDATE {dead_letters} SET status = 'REPLAYED' WHERE id = :id"),
             {{QStringLiteral(":id"), replayed}});
        DiagnosisOptions o;
        o.consumers = QStringList{QStringLiteral("inventory")};
        const DiagnosisReport report = diagnose(*db, o);
        QVERIFY2(report.findings.isEmpty(), qPrintable(ids(report).join(QLatin1Char(' '))));
        QCOMPARE(report.checks.size(), Doctor::checkIds().size());
        for (const CheckRun& c : report.checks)
            QVERIFY2(c.outcome == CheckRun::Outcome::Ran, qPrintable(c.id + QLatin1Char(' ') + c.note));
        QVERIFY(!report.reaches(Severity::Info));
    }

    void noRelayAndBacklogAge_data() { TestDatabases::addKinds(); }
    void noRelayAndBacklogAge()
    {
        QFETCH(QString, kind);
        auto db = TestDatabases::fresh(kind, QStringLiteral("doctor_norelay"));
        const auto pending = insertEvents(*db, 12);
        setTime(*db, QStringLiteral("{events}"), QStringLiteral("created_at"), pending, -10 * 60 * 1000);
        DiagnosisReport report = diagnose(*db);
        QCOMPARE(ids(report), names({"no-relay", "backlog-age"}));
        const Finding& noRelay = report.findings.at(0);
        QCOMPARE(noRelay.severity, Severity::Critical);
        QCOMPARE(noRelay.evidence.count, qint64(12));
        QCOMPARE(noRelay.evidence.sampleIds, pending.mid(0, 10));
        // No broker configured: no command with a placeholder, but what to add (issue 25).
        QVERIFY(noRelay.actions.first().startsRelay);
        QVERIFY(noRelay.actions.first().command.isEmpty());
        QVERIFY(noRelay.actions.first().commandRefused.contains(QLatin1String("not configured")));
        const Finding& backlog = report.findings.at(1);
        QCOMPARE(backlog.severity, Severity::Warning);
        QVERIFY(backlog.evidence.details.value(QStringLiteral("age_ms")).toInteger() >=
                10 * 60 * 1000 - 5000);

        // Older than the critical threshold: critical.
        setTime(*db, QStringLiteral("{events}"), QStringLiteral("created_at"), pending, -40 * 60 * 1000);
        report = diagnose(*db);
        QCOMPARE(report.withId(QStringLiteral("backlog-age")).first().severity, Severity::Critical);

        // A live relay: no no-relay; a paused one: backlog-age offers to resume it.
        addRelay(*db, QStringLiteral("relay-p"), QStringLiteral("PAUSED"), 0, {}, QStringLiteral("PAUSE"));
        report = diagnose(*db);
        QCOMPARE(ids(report), names({"backlog-age"}));
        const PreparedAction resume = report.findings.first().actions.first();
        QCOMPARE(resume.operation, PreparedAction::Operation::ResumeRelays);
        QCOMPARE(resume.workerIds, names({"relay-p"}));
        QCOMPARE(bare(resume), QStringLiteral("outboxctl relays resume -- relay-p"));

        // Fresh events only: nothing.
        setTime(*db, QStringLiteral("{events}"), QStringLiteral("created_at"), pending, 0);
        QVERIFY(diagnose(*db).findings.isEmpty());
    }

    void relayStaleAndDegraded_data() { TestDatabases::addKinds(); }
    void relayStaleAndDegraded()
    {
        QFETCH(QString, kind);
        auto db = TestDatabases::fresh(kind, QStringLiteral("doctor_relays"));
        addRelay(*db, QStringLiteral("relay-gone"), QStringLiteral("RUNNING"), 5 * 60 * 1000);
        addRelay(*db, QStringLiteral("relay-auth"), QStringLiteral("DEGRADED"), 0,
                 QStringLiteral("Local: Authentication failure"));
        DiagnosisReport report = diagnose(*db);
        QCOMPARE(ids(report), names({"relay-degraded", "relay-stale"}));
        const Finding& degraded = report.findings.at(0);
        QCOMPARE(degraded.severity, Severity::Critical); // no healthy relay left
        QCOMPARE(degraded.evidence.sampleNames, names({"relay-auth"}));
        QVERIFY(degraded.causes.first().contains(QLatin1String("credentials")));
        const Finding& stale = report.findings.at(1);
        QCOMPARE(stale.severity, Severity::Warning);
        QCOMPARE(stale.evidence.sampleNames, names({"relay-gone"}));
        QCOMPARE(stale.actions.first().operation, PreparedAction::Operation::ForgetRelays);
        QVERIFY(stale.actions.first().command.contains(QLatin1String("relays forget")));

        // The leases it still holds are counted in the table, not taken from its last heartbeat
        // (issue 36: "2 leases" where there was 1): it said 2, one was marked SENT since.
        const auto events = insertEvents(*db, 2);
        exec(*db, QStringLiteral("UPDATE {relays} SET leases_held = 2 WHERE worker_id = 'relay-gone'"));
        exec(*db, QStringLiteral("UPDATE {events} SET status = 'SENDING', worker_id = 'relay-gone', "
                                 "lease_token = 't' WHERE id = %1")
                      .arg(events[0]));
        setTime(*db, QStringLiteral("{events}"), QStringLiteral("lease_until"), events.mid(0, 1), 60 * 1000);
        exec(*db,
             QStringLiteral("UPDATE {events} SET status = 'SENT', worker_id = 'relay-gone' WHERE id = %1")
                 .arg(events[1]));
        const Finding counted = diagnose(*db).withId(QStringLiteral("relay-stale")).first();
        QVERIFY2(counted.runbook.join(QLatin1Char('\n')).contains(QLatin1String("Its 1 SENDING lease(s)")),
                 qPrintable(counted.runbook.join(QLatin1Char('\n'))));
        const QJsonObject gone =
            counted.evidence.details.value(QStringLiteral("relays")).toArray().first().toObject();
        QCOMPARE(gone.value(QStringLiteral("leases_held")).toInteger(), qint64(1));
        QCOMPARE(gone.value(QStringLiteral("leases_held_at_last_heartbeat")).toInteger(), qint64(2));
        exec(*db, QStringLiteral("UPDATE {events} SET status = 'SENT', lease_until = NULL WHERE id = %1")
                      .arg(events[0]));

        // With a healthy relay beside it, a degraded relay is a warning.
        addRelay(*db, QStringLiteral("relay-ok"), QStringLiteral("RUNNING"), 0);
        report = diagnose(*db);
        QCOMPARE(report.withId(QStringLiteral("relay-degraded")).first().severity, Severity::Warning);

        // Stale limit from the heartbeat interval: 5 min old is fresh with a 10 min interval.
        DiagnosisOptions slow;
        slow.heartbeatIntervalMs = 10 * 60 * 1000;
        QVERIFY(diagnose(*db, slow).withId(QStringLiteral("relay-stale")).isEmpty());
    }

    void expiredLeases_data() { TestDatabases::addKinds(); }
    void expiredLeases()
    {
        QFETCH(QString, kind);
        auto db = TestDatabases::fresh(kind, QStringLiteral("doctor_leases"));
        const auto events = insertEvents(*db, 4);
        exec(*db, QStringLiteral(
                      "UPDATE {events} SET status = 'SENDING', worker_id = 'relay-dead', lease_token = 't'"));
        addRelay(*db, QStringLiteral("relay-a"), QStringLiteral("RUNNING"), 0);
        setTime(*db, QStringLiteral("{events}"), QStringLiteral("lease_until"), events.mid(0, 3),
                -5 * 60 * 1000);
        setTime(*db, QStringLiteral("{events}"), QStringLiteral("lease_until"), events.mid(3), 60 * 1000);
        DiagnosisReport report = diagnose(*db);
        QCOMPARE(ids(report), names({"expired-leases"}));
        const Finding& f = report.findings.first();
        QCOMPARE(f.evidence.count, qint64(3));
        QCOMPARE(f.evidence.sampleIds.size(), 3);
        QCOMPARE(bare(f.actions.first()), QStringLiteral("outboxctl requeue --status=SENDING"));
        // The prepared requeue takes exactly the expired ones.
        ActionRequest r;
        r.eventFilter = f.actions.first().eventFilter;
        r.reason = QStringLiteral("expired-leases: test");
        r.actor = QStringLiteral("test");
        auto done = OperatorActions(*db).requeue(r);
        QVERIFY2(done.ok(), qPrintable(done.message()));
        QCOMPARE(done->affected, qint64(3));
        QCOMPARE(statusOf(*db, events[3]), QStringLiteral("SENDING"));
        QVERIFY(diagnose(*db).withId(QStringLiteral("expired-leases")).isEmpty());
    }

    // A held batch whose relay died leaves its journal row; past its hold time (and the grace) the
    // doctor names it until a held relay's reaper counts the attempt and removes it.
    void heldClaimsOutlivingTheirRelay_data() { TestDatabases::addKinds(); }
    void heldClaimsOutlivingTheirRelay()
    {
        QFETCH(QString, kind);
        auto db = TestDatabases::fresh(kind, QStringLiteral("doctor_held"));
        const auto events = insertEvents(*db, 5);
        addRelay(*db, QStringLiteral("relay-a"), QStringLiteral("RUNNING"), 0);
        if (!db->dialect().supportsHeldClaims()) {
            QVERIFY(!HeldClaim::journal(*db, QStringLiteral("relay-dead"), events, 1000).ok());
            QVERIFY(diagnose(*db).withId(QStringLiteral("held-claims")).isEmpty());
            return;
        }
        auto dead = HeldClaim::journal(*db, QStringLiteral("relay-dead"), events.mid(0, 3), 1000);
        QVERIFY2(dead.ok(), qPrintable(dead.message()));
        auto live = HeldClaim::journal(*db, QStringLiteral("relay-live"), events.mid(3), 60000);
        QVERIFY2(live.ok(), qPrintable(live.message()));
        QVERIFY(diagnose(*db).withId(QStringLiteral("held-claims")).isEmpty()); // within the hold time
        setTime(*db, QStringLiteral("{held_claims}"), QStringLiteral("held_until"), {*dead}, -5 * 60 * 1000);
        DiagnosisReport report = diagnose(*db);
        QCOMPARE(ids(report), names({"held-claims"}));
        const Finding& f = report.findings.first();
        QCOMPARE(f.severity, Severity::Warning);
        QCOMPARE(f.evidence.count, qint64(1));
        QCOMPARE(f.evidence.details.value(QStringLiteral("events")).toInteger(), qint64(3));
        QCOMPARE(f.evidence.sampleNames, QStringList{QStringLiteral("relay-dead")});
        QVERIFY2(f.title.contains(QLatin1String("1 held batch(es) of 3 event(s)")), qPrintable(f.title));
        // Past its hold time but within the grace: not yet.
        DiagnosisOptions patient;
        patient.expiredLeaseGraceMs = 10 * 60 * 1000;
        QVERIFY(diagnose(*db, patient).withId(QStringLiteral("held-claims")).isEmpty());
        // A held relay's reaper counts the attempts and removes the row: the finding clears.
        auto reaped = HeldClaim::reap(*db, 5, OrderingMode::None);
        QVERIFY2(reaped.ok(), qPrintable(reaped.message()));
        QVERIFY(diagnose(*db).withId(QStringLiteral("held-claims")).isEmpty());
        QCOMPARE(countRows(*db, QStringLiteral("{held_claims}")), qint64(1)); // the live one stays
    }

    void failedEventsPerGroupWithRunbookByCause_data() { TestDatabases::addKinds(); }
    void failedEventsPerGroupWithRunbookByCause()
    {
        QFETCH(QString, kind);
        auto db = TestDatabases::fresh(kind, QStringLiteral("doctor_failed"));
        const auto events = insertEvents(*db, 9);
        addRelay(*db, QStringLiteral("relay-a"), QStringLiteral("RUNNING"), 0);
        forceStatus(*db, events.mid(0, 3), QStringLiteral("FAILED"),
                    QStringLiteral("Broker: Topic authorization failed"));
        for (int i = 3; i < 5; ++i)
            forceStatus(*db, {events[i]}, QStringLiteral("FAILED"),
                        QStringLiteral("Broker: Message size too large (%1 bytes)").arg(2000000 + i));
        forceStatus(*db, {events[5]}, QStringLiteral("FAILED"),
                    QStringLiteral("Broker: Unknown topic or partition"));
        forceStatus(*db, {events[6]}, QStringLiteral("FAILED"),
                    QStringLiteral("schema check failed for order 7"));
        exec(*db, QStringLiteral(
                      "UPDATE {events} SET last_error_class = 'deterministic' WHERE status = 'FAILED'"));
        // The too-large group's payloads: one of 3,000 characters and more (issue 25 item 8).
        exec(
            *db, QStringLiteral("UPDATE {events} SET payload = :p WHERE id = :id"),
            {{QStringLiteral(":p"), QStringLiteral("{\"blob\":\"%1\"}").arg(QString(3000, QLatin1Char('x')))},
             {QStringLiteral(":id"), events[4]}});
        const DiagnosisReport report = diagnose(*db);
        const QVector<Finding> failed = report.withId(QStringLiteral("failed-events"));
        QCOMPARE(failed.size(), 4);
        QCOMPARE(report.findings.size(), 4);
        const Finding& acl = failed.at(0);
        QCOMPARE(acl.severity, Severity::Critical);
        QCOMPARE(acl.evidence.count, qint64(3));
        QCOMPARE(acl.evidence.sampleIds, events.mid(0, 3));
        QCOMPARE(acl.evidence.details.value(QStringLiteral("cause")).toString(),
                 QStringLiteral("topic-authorization"));
        QVERIFY(acl.runbook.join(QLatin1Char(' ')).contains(QLatin1String("kafka-acls")));
        QCOMPARE(acl.actions.size(), 2);
        QCOMPARE(acl.actions.at(0).operation, PreparedAction::Operation::RequeueEvents);
        // Every id of the group is known: exactly these (never a substring of the error, issue 25).
        QCOMPARE(acl.actions.at(0).ids, events.mid(0, 3));
        QCOMPARE(bare(acl.actions.at(0)), QStringLiteral("outboxctl requeue -- %1 %2 %3")
                                              .arg(events.at(0))
                                              .arg(events.at(1))
                                              .arg(events.at(2)));
        QCOMPARE(acl.actions.at(1).operation, PreparedAction::Operation::MarkEventsDead);
        QVERIFY(acl.actions.at(0).typedConfirmation);
        const Finding& large = failed.at(1);
        QCOMPARE(large.evidence.count, qint64(2));
        QCOMPARE(large.evidence.details.value(QStringLiteral("cause")).toString(),
                 QStringLiteral("message-too-large"));
        QCOMPARE(large.actions.first().operation, PreparedAction::Operation::MarkEventsDead); // DEAD first
        QCOMPARE(large.actions.first().ids.size(), 2);
        // The runbook says to look at the payload size: the evidence shows it.
        const qint64 largest = large.evidence.details.value(QStringLiteral("payload_bytes_max")).toInteger();
        QVERIFY2(largest >= 3010 && largest < 3100, qPrintable(QString::number(largest)));
        QVERIFY(large.evidence.details.value(QStringLiteral("payload_bytes_min")).toInteger() < 100);
        QVERIFY2(
            large.runbook.first().contains(QStringLiteral("%1 bytes").arg(QLocale::c().toString(largest))),
            qPrintable(large.runbook.first()));
        QVERIFY(large.evidence.details.value(QStringLiteral("payload"))
                    .toString()
                    .contains(QLatin1String(" to ")));
        QStringList causes;
        for (const Finding& f : failed)
            causes << f.evidence.details.value(QStringLiteral("cause")).toString();
        QVERIFY(causes.contains(QLatin1String("unknown-topic")));
        QVERIFY(causes.contains(QLatin1String("schema-validation")));

        // The group's prepared requeue (its ids) changes that group and nothing else.
        ActionRequest r;
        r.ids = acl.actions.at(0).ids;
        r.reason = QStringLiteral("failed-events: ACL fixed");
        r.actor = QStringLiteral("test");
        auto done = OperatorActions(*db).requeue(r);
        QVERIFY2(done.ok(), qPrintable(done.message()));
        QCOMPARE(done->affected, qint64(3));
        const DiagnosisReport after = diagnose(*db);
        QCOMPARE(after.withId(QStringLiteral("failed-events")).size(), 3);
        QVERIFY(!after.findByKey(acl.key));
    }

    // When no literal text selects a group alone, the action targets the failure group itself.
    void groupTargetWhenNoTextSelectsTheGroupAlone_data() { TestDatabases::addKinds(); }
    void groupTargetWhenNoTextSelectsTheGroupAlone()
    {
        QFETCH(QString, kind);
        auto db = TestDatabases::fresh(kind, QStringLiteral("doctor_grouptarget"));
        const auto events = insertEvents(*db, 14);
        addRelay(*db, QStringLiteral("relay-a"), QStringLiteral("RUNNING"), 0);
        for (int i = 0; i < 12; ++i)
            forceStatus(*db, {events[i]}, QStringLiteral("FAILED"),
                        QStringLiteral("payload rejected: field %1 invalid").arg(i));
        forceStatus(*db, {events[12]}, QStringLiteral("FAILED"),
                    QStringLiteral("payload rejected: field names must be lower case"));
        forceStatus(*db, {events[13]}, QStringLiteral("DEAD"),
                    QStringLiteral("payload rejected: field 99 invalid"));
        exec(*db, QStringLiteral("UPDATE {events} SET last_error_class = 'deterministic'"));
        const QVector<Finding> failed = diagnose(*db).withId(QStringLiteral("failed-events"));
        QCOMPARE(failed.size(), 2);
        const PreparedAction byGroup = failed.at(0).actions.at(0);
        QVERIFY(byGroup.group.has_value());
        QVERIFY(!byGroup.eventFilter.has_value());
        QCOMPARE(byGroup.group->statuses, QStringList{QStringLiteral("FAILED")});
        QCOMPARE(bare(byGroup),
                 QStringLiteral("outboxctl requeue --status=FAILED '--group=payload rejected: field <n> "
                                "invalid' --group-class=deterministic"));
        const PreparedAction byIds = failed.at(1).actions.at(0);
        QCOMPARE(byIds.ids, QVector<qint64>{events[12]});
        ActionRequest r;
        r.group = byGroup.group;
        r.reason = QStringLiteral("failed-events: schema fixed");
        r.actor = QStringLiteral("test");
        auto done = OperatorActions(*db).requeue(r);
        QVERIFY2(done.ok(), qPrintable(done.message()));
        QCOMPARE(done->affected,
                 qint64(12)); // the group's FAILED events: not its DEAD one, not the other group
        QCOMPARE(statusOf(*db, events[12]), QStringLiteral("FAILED"));
        QCOMPARE(statusOf(*db, events[13]), QStringLiteral("DEAD"));
    }

    void deadEventsRecentAndOld_data() { TestDatabases::addKinds(); }
    void deadEventsRecentAndOld()
    {
        QFETCH(QString, kind);
        auto db = TestDatabases::fresh(kind, QStringLiteral("doctor_dead"));
        const auto events = insertEvents(*db, 4);
        addRelay(*db, QStringLiteral("relay-a"), QStringLiteral("RUNNING"), 0);
        forceStatus(*db, events.mid(0, 2), QStringLiteral("DEAD"),
                    QStringLiteral("attempts exhausted (10): Broker: Request timed out"));
        forceStatus(*db, events.mid(2, 2), QStringLiteral("DEAD"),
                    QStringLiteral("Broker: Topic authorization failed"));
        setTime(*db, QStringLiteral("{events}"), QStringLiteral("created_at"), events.mid(2, 2),
                -3LL * 24 * 3600 * 1000);
        const DiagnosisReport report = diagnose(*db);
        const QVector<Finding> dead = report.withId(QStringLiteral("dead-events"));
        QCOMPARE(dead.size(), 2);
        QCOMPARE(ids(report), names({"dead-events", "dead-events"}));
        QCOMPARE(dead.at(0).severity, Severity::Warning); // recent
        QCOMPARE(dead.at(0).evidence.details.value(QStringLiteral("cause")).toString(),
                 QStringLiteral("attempts-exhausted"));
        QCOMPARE(dead.at(1).severity, Severity::Info); // three days old
        QCOMPARE(dead.at(0).actions.size(), 1);
        QCOMPARE(dead.at(0).actions.first().operation, PreparedAction::Operation::RequeueEvents);
        QVERIFY(!dead.at(0).actions.first().ids.isEmpty() || dead.at(0).actions.first().group);

        // Marked DEAD by an operator (audited): a record of a decision, info only.
        const auto decided = insertEvents(*db, 2, QStringLiteral("OrderPaid"), QStringLiteral("paid-"));
        forceStatus(*db, decided, QStringLiteral("FAILED"), QStringLiteral("Broker: Message size too large"));
        ActionRequest r;
        r.ids = decided;
        r.reason = QStringLiteral("failed-events: payload bug, fixed upstream");
        r.actor = QStringLiteral("test");
        QVERIFY(OperatorActions(*db).markDead(r).ok());
        const QVector<Finding> after = diagnose(*db).withId(QStringLiteral("dead-events"));
        QCOMPARE(after.size(), 3);
        Finding byOperator;
        for (const Finding& f : after)
            if (f.evidence.details.value(QStringLiteral("example")).toString() ==
                QLatin1String("Broker: Message size too large"))
                byOperator = f;
        QCOMPARE(byOperator.evidence.count, qint64(2));
        QCOMPARE(byOperator.severity, Severity::Info);
        QVERIFY(byOperator.evidence.details.value(QStringLiteral("marked_dead_by_operator")).toBool());
        QVERIFY(byOperator.causes.first().contains(QLatin1String("payload bug, fixed upstream")));
    }

    void blockedAggregates_data() { TestDatabases::addKinds(); }
    void blockedAggregates()
    {
        QFETCH(QString, kind);
        auto db = TestDatabases::fresh(kind, QStringLiteral("doctor_blocked"));
        addRelay(*db, QStringLiteral("relay-a"), QStringLiteral("RUNNING"), 0);
        // O-1: FAILED, then two PENDING behind it; O-2: only PENDING; O-3: FAILED with nothing behind.
        const auto o1 = insertEvents(*db, 3, QStringLiteral("OrderCreated"), QStringLiteral("same-"));
        exec(*db, QStringLiteral("UPDATE {events} SET aggregate_id = 'O-1'"));
        const auto o2 = insertEvents(*db, 2, QStringLiteral("OrderCreated"), QStringLiteral("two-"));
        const auto o3 = insertEvents(*db, 1, QStringLiteral("OrderCreated"), QStringLiteral("three-"));
        forceStatus(*db, {o1[0], o3[0]}, QStringLiteral("FAILED"),
                    QStringLiteral("attempts exhausted (10): Broker: Request timed out"));
        QVector<qint64> all = o1 + o2 + o3;
        setTime(*db, QStringLiteral("{events}"), QStringLiteral("available_at"), all, -5 * 60 * 1000);
        const DiagnosisReport report = diagnose(*db);
        const QVector<Finding> blocked = report.withId(QStringLiteral("blocked-aggregates"));
        QCOMPARE(blocked.size(), 1);
        const Finding& f = blocked.first();
        QCOMPARE(f.severity, Severity::Critical);
        QCOMPARE(f.evidence.count, qint64(1));
        QCOMPARE(f.evidence.sampleIds, QVector<qint64>{o1[0]});
        const QJsonObject first =
            f.evidence.details.value(QStringLiteral("aggregates")).toArray().first().toObject();
        QCOMPARE(first.value(QStringLiteral("aggregate_id")).toString(), QStringLiteral("O-1"));
        QCOMPARE(first.value(QStringLiteral("waiting")).toInteger(), qint64(2));
        QCOMPARE(f.actions.at(0).ids, QVector<qint64>{o1[0]});
        QCOMPARE(bare(f.actions.at(0)), QStringLiteral("outboxctl requeue -- %1").arg(o1[0]));
        // Waiting for less than blocked_after: not (yet) blocked.
        setTime(*db, QStringLiteral("{events}"), QStringLiteral("available_at"), all, 0);
        QVERIFY(diagnose(*db).withId(QStringLiteral("blocked-aggregates")).isEmpty());
    }

    void deadLettersAndStuckReplays_data() { TestDatabases::addKinds(); }
    void deadLettersAndStuckReplays()
    {
        QFETCH(QString, kind);
        auto db = TestDatabases::fresh(kind, QStringLiteral("doctor_dlq"));
        addRelay(*db, QStringLiteral("relay-a"), QStringLiteral("RUNNING"), 0);
        QVector<qint64> sku;
        for (int i = 0; i < 3; ++i)
            sku << addDeadLetter(*db, QStringLiteral("inventory"),
                                 QStringLiteral("unknown SKU SKU-%1").arg(400 + i));
        addDeadLetter(*db, QStringLiteral("billing"), QStringLiteral("invalid JSON payload"));
        DiagnosisReport report = diagnose(*db);
        QVector<Finding> letters = report.withId(QStringLiteral("dead-letters"));
        QCOMPARE(report.findings.size(), 2);
        QCOMPARE(letters.size(), 2);
        QCOMPARE(letters.at(0).evidence.count, qint64(3));
        QCOMPARE(letters.at(0).evidence.details.value(QStringLiteral("consumer")).toString(),
                 QStringLiteral("inventory"));
        QCOMPARE(letters.at(0).evidence.sampleIds, sku);
        // The exact group, never a substring of its error (issue 25).
        QCOMPARE(bare(letters.at(0).actions.at(0)),
                 QStringLiteral("outboxctl dlq replay --status=NEW --consumer=inventory "
                                "--group-class=permanent '--group=unknown SKU SKU-<n>'"));
        QCOMPARE(letters.at(0).actions.at(1).operation, PreparedAction::Operation::DiscardDeadLetters);

        // Replay the group as prepared: NEW -> REPLAYING, just requested: in flight, not stuck.
        ActionRequest r;
        r.deadLetterGroup = letters.at(0).actions.at(0).deadLetterGroup;
        r.reason = QStringLiteral("dead-letters: SKU table fixed");
        r.actor = QStringLiteral("test");
        auto replay = OperatorActions(*db).replayDeadLetters(r);
        QVERIFY2(replay.ok(), qPrintable(replay.message()));
        QCOMPARE(replay->affected, qint64(3));
        report = diagnose(*db);
        QCOMPARE(ids(report), names({"dead-letters"})); // billing's is left
        // Past the threshold, still REPLAYING: stuck.
        DiagnosisOptions quick;
        quick.replayStuckAfterMs = 1;
        QTest::qWait(1100); // audit times have a resolution of a second on some servers
        report = diagnose(*db, quick);
        const QVector<Finding> stuck = report.withId(QStringLiteral("replay-stuck"));
        QCOMPARE(stuck.size(), 1);
        QCOMPARE(stuck.first().evidence.count, qint64(3));
        QCOMPARE(stuck.first().evidence.sampleIds, sku);
        QVERIFY(stuck.first().evidence.oldest.isValid());
        QVERIFY(stuck.first().actions.first().command.isEmpty()); // no broker configured
        quick.brokerArguments = QStringList{QStringLiteral("--kafka-bootstrap=127.0.0.1:9092")};
        report = diagnose(*db, quick);
        QCOMPARE(bare(report.withId(QStringLiteral("replay-stuck")).first().actions.first()),
                 QStringLiteral("outboxctl dlq replay --deliver --kafka-bootstrap=127.0.0.1:9092"));
    }

    void unconsumedEvents_data() { TestDatabases::addKinds(); }
    void unconsumedEvents()
    {
        QFETCH(QString, kind);
        auto db = TestDatabases::fresh(kind, QStringLiteral("doctor_unconsumed"));
        addRelay(*db, QStringLiteral("relay-a"), QStringLiteral("RUNNING"), 0);
        const auto events = insertEvents(*db, 6);
        markSent(*db, events, 10 * 60 * 1000);
        processed(*db, events.mid(0, 4), QStringLiteral("inventory"));
        // Not configured: skipped, silent.
        DiagnosisReport report = diagnose(*db);
        QVERIFY(report.findings.isEmpty());
        for (const CheckRun& c : report.checks)
            if (c.id == QLatin1String("unconsumed"))
                QCOMPARE(c.outcome, CheckRun::Outcome::Skipped);
        DiagnosisOptions o;
        o.consumers = QStringList{QStringLiteral("inventory")};
        report = diagnose(*db, o);
        QCOMPARE(ids(report), names({"unconsumed"}));
        const Finding& f = report.findings.first();
        QCOMPARE(f.evidence.count, qint64(2));
        QCOMPARE(f.evidence.sampleIds, events.mid(4, 2));
        QCOMPARE(bare(f.actions.at(1)),
                 QStringLiteral("outboxctl requeue --resend -- %1 %2").arg(events[4]).arg(events[5]));
        processed(*db, events.mid(4, 2), QStringLiteral("inventory"));
        QVERIFY(diagnose(*db, o).findings.isEmpty());
    }

    // Issue 25 item 3: only the consumer's topics count, a dead letter the operator discarded takes its
    // event out, the resend never undoes a discard nor duplicates a dead letter, and events that left
    // the window stay in the finding (or are said not to be checked).
    void unconsumedCountsOnlyWhatTheConsumerShouldConsume_data() { TestDatabases::addKinds(); }
    void unconsumedCountsOnlyWhatTheConsumerShouldConsume()
    {
        QFETCH(QString, kind);
        auto db = TestDatabases::fresh(kind, QStringLiteral("doctor_unconsumed_scope"));
        const auto e = insertEvents(*db, 10);
        markSent(*db, e, 10 * 60 * 1000);
        auto topic = [&](int from, int to, const QString& name) {
            for (int i = from; i < to; ++i)
                exec(*db, QStringLiteral("UPDATE {events} SET sent_topic = :t WHERE id = :id"),
                     {{QStringLiteral(":t"), name}, {QStringLiteral(":id"), e[i]}});
        };
        topic(0, 6, QStringLiteral("orders"));
        topic(6, 10, QStringLiteral("payments"));
        processed(*db, e.mid(8, 2), QStringLiteral("inventory"));
        // Dead letters: #1 discarded by inventory; #2 discarded, then dead-lettered again (NEW);
        // #3 NEW; #4 discarded by another consumer (audit).
        auto letter = [&](int i, const QString& consumer, const QString& status) {
            const qint64 id = addDeadLetter(*db, consumer, QStringLiteral("boom"));
            exec(*db,
                 QStringLiteral("UPDATE {dead_letters} SET status = :s, event_id = (SELECT event_id FROM "
                                "{events} WHERE id = :e) WHERE id = :id"),
                 {{QStringLiteral(":s"), status}, {QStringLiteral(":e"), e[i]}, {QStringLiteral(":id"), id}});
        };
        letter(1, QStringLiteral("inventory"), QStringLiteral("DISCARDED"));
        letter(2, QStringLiteral("inventory"), QStringLiteral("DISCARDED"));
        letter(2, QStringLiteral("inventory"), QStringLiteral("NEW"));
        letter(3, QStringLiteral("inventory"), QStringLiteral("NEW"));
        letter(4, QStringLiteral("audit"), QStringLiteral("DISCARDED"));
        DiagnosisOptions o;
        o.consumers = QStringList{QStringLiteral("inventory")};
        o.onlyChecks = QStringList{QStringLiteral("unconsumed")};
        auto resendOf = [](const Finding& f) {
            for (const PreparedAction& a : f.actions)
                if (a.resend)
                    return a;
            return PreparedAction();
        };

        // Topics not recorded: every topic counts, the discarded #1 does not.
        QVector<Finding> found = diagnose(*db, o).withId(QStringLiteral("unconsumed"));
        QCOMPARE(found.size(), 1);
        QCOMPARE(found.first().evidence.count, qint64(7)); // 0, 2, 3, 4, 5, 6, 7
        QVERIFY(found.first()
                    .causes.join(QLatin1Char(' '))
                    .contains(QLatin1String("has not recorded the topics")));
        QCOMPARE(resendOf(found.first()).ids, (QVector<qint64>{e[0], e[5], e[6], e[7]}));
        QVERIFY(!bare(resendOf(found.first())).contains(QStringLiteral(" %1").arg(e[1])));

        // The consumer records its topics (as `outboxctl consume` does when it starts).
        QVERIFY(InboxStore(*db).recordTopics(QStringLiteral("inventory"), {QStringLiteral("orders")}).ok());
        found = diagnose(*db, o).withId(QStringLiteral("unconsumed"));
        QCOMPARE(found.size(), 1);
        QCOMPARE(found.first().evidence.count, qint64(5)); // 0, 2, 3, 4, 5
        QCOMPARE(resendOf(found.first()).ids, (QVector<qint64>{e[0], e[5]}));
        QCOMPARE(bare(resendOf(found.first())),
                 QStringLiteral("outboxctl requeue --resend -- %1 %2").arg(e[0]).arg(e[5]));
        QCOMPARE(found.first().evidence.details.value(QStringLiteral("not_resendable")).toInteger(),
                 qint64(3));
        QVERIFY(!found.first().causes.join(QLatin1Char(' ')).contains(QLatin1String("has not recorded")));
        // The metric counts the same.
        MetricsQuery metrics(*db);
        metrics.setUnconsumedConsumers({QStringLiteral("inventory")}, 5 * 60 * 1000, 3600 * 1000);
        QCOMPARE(metrics.sample()->unconsumed.value(QStringLiteral("inventory")), qint64(5));

        // The operator decides the open dead letters (discards #2's and #3's); #4's letter is audit's
        // decision, not inventory's: #0, #4 and #5 are left, until they too are processed.
        exec(*db, QStringLiteral(
                      "UPDATE {dead_letters} SET status = 'DISCARDED' WHERE consumer_name = 'inventory'"));
        found = diagnose(*db, o).withId(QStringLiteral("unconsumed"));
        QCOMPARE(found.first().evidence.count, qint64(3));
        processed(*db, {e[0], e[4], e[5]}, QStringLiteral("inventory"));
        QVERIFY(diagnose(*db, o).withId(QStringLiteral("unconsumed")).isEmpty());
        QCOMPARE(metrics.sample()->unconsumed.value(QStringLiteral("inventory")), qint64(0));
    }

    void unconsumedEventsBeforeTheWindowStayInTheFinding_data() { TestDatabases::addKinds(); }
    void unconsumedEventsBeforeTheWindowStayInTheFinding()
    {
        QFETCH(QString, kind);
        auto db = TestDatabases::fresh(kind, QStringLiteral("doctor_unconsumed_window"));
        // #0 long ago and far below the others' ids; #1, #2 hours before the 15 minute window; #3, #4
        // in it, processed.
        auto e = insertEvents(*db, 5);
        exec(*db, QStringLiteral("UPDATE {events} SET id = id + 6000 WHERE id > :first"),
             {{QStringLiteral(":first"), e[0]}});
        for (int i = 1; i < 5; ++i)
            e[i] += 6000;
        markSent(*db, e.mid(0, 3), 3 * 3600 * 1000);
        markSent(*db, e.mid(3, 2), 10 * 60 * 1000);
        processed(*db, e.mid(3, 2), QStringLiteral("inventory"));
        DiagnosisOptions o;
        o.consumers = QStringList{QStringLiteral("inventory")};
        o.onlyChecks = QStringList{QStringLiteral("unconsumed")};
        QVector<Finding> found = diagnose(*db, o).withId(QStringLiteral("unconsumed"));
        QCOMPARE(found.size(), 1);
        QCOMPARE(found.first().evidence.count, qint64(2));
        QCOMPARE(found.first().evidence.details.value(QStringLiteral("in_window")).toInteger(), qint64(0));
        QCOMPARE(found.first().evidence.details.value(QStringLiteral("before_window")).toInteger(),
                 qint64(2));
        QVERIFY2(found.first().title.contains(QLatin1String("2 of them created before the 15 min window")),
                 qPrintable(found.first().title));
        QCOMPARE(found.first().evidence.sampleIds, e.mid(1, 2));
        // #0 was not checked, and the finding says so instead of dropping it silently.
        found = diagnose(*db, o).withId(QStringLiteral("unconsumed"));
        QCOMPARE(found.size(), 1);
        QVERIFY2(found.first().title.contains(QLatin1String("not checked")), qPrintable(found.first().title));
        QCOMPARE(found.first().evidence.details.value(QStringLiteral("older_not_checked")).toBool(), true);
    }

    void retentionNotKeepingUp_data() { TestDatabases::addKinds(); }
    void retentionNotKeepingUp()
    {
        QFETCH(QString, kind);
        auto db = TestDatabases::fresh(kind, QStringLiteral("doctor_retention"));
        addRelay(*db, QStringLiteral("relay-a"), QStringLiteral("RUNNING"), 0);
        const auto events = insertEvents(*db, 3);
        markSent(*db, events, 10LL * 24 * 3600 * 1000);
        const QVector<Finding> found = diagnose(*db).withId(QStringLiteral("table-health"));
        QCOMPARE(found.size(), 1);
        QCOMPARE(found.first().key, QStringLiteral("table-health/retention"));
        QCOMPARE(found.first().evidence.count, qint64(3));
        DiagnosisOptions keepAll;
        keepAll.retentionMs = 0;
        QVERIFY(diagnose(*db, keepAll).findings.isEmpty());
    }

    void deadTuplesOnPostgres()
    {
        if (!TestDatabases::available(QStringLiteral("postgresql")))
            QSKIP("no PostgreSQL");
        auto db = TestDatabases::fresh(QStringLiteral("postgresql"), QStringLiteral("doctor_bloat"));
        addRelay(*db, QStringLiteral("relay-a"), QStringLiteral("RUNNING"), 0);
        exec(*db, QStringLiteral("ALTER TABLE {events} SET (autovacuum_enabled = false)"));
        const auto events = insertEvents(*db, 1000);
        markSent(*db, events, 60 * 1000);
        exec(*db, QStringLiteral("DELETE FROM {events} WHERE id % 5 <> 0"));
        exec(*db, QStringLiteral("SELECT pg_stat_force_next_flush()"));
        QTest::qWait(100);
        DiagnosisOptions o;
        o.deadTupleMinimum = 100;
        QVector<Finding> found = diagnose(*db, o).withId(QStringLiteral("table-health"));
        QCOMPARE(found.size(), 1);
        QCOMPARE(found.first().key, QStringLiteral("table-health/dead-tuples"));
        QVERIFY(found.first().evidence.count >= 800);
        QVERIFY(found.first().causes.join(QLatin1Char(' ')).contains(QLatin1String("Autovacuum is off")));
        // After a vacuum the dead tuples are gone; autovacuum is still off.
        exec(*db, QStringLiteral("VACUUM {events}"));
        exec(*db, QStringLiteral("SELECT pg_stat_force_next_flush()"));
        found = diagnose(*db, o).withId(QStringLiteral("table-health"));
        QCOMPARE(found.size(), 1);
        QCOMPARE(found.first().key, QStringLiteral("table-health/autovacuum-off"));
        exec(*db, QStringLiteral("ALTER TABLE {events} RESET (autovacuum_enabled)"));
        QVERIFY(diagnose(*db, o).findings.isEmpty());
    }

    // Rows a writer put in against docs/contract.md: inserted as SENT (never published) or SENDING
    // (never reaped), no topic the template can make, and (text columns) headers that are no object.
    void contractViolations_data() { TestDatabases::addKinds(); }
    void contractViolations()
    {
        QFETCH(QString, kind);
        auto db = TestDatabases::fresh(kind, QStringLiteral("doctor_contract"));
        const auto events = insertEvents(*db, 5);
        DiagnosisOptions only;
        only.onlyChecks = QStringList{QStringLiteral("contract-violations")};
        QVERIFY(diagnose(*db, only).findings.isEmpty());
        exec(*db, QStringLiteral("UPDATE {events} SET status = 'SENT' WHERE id = :id"),
             {{QStringLiteral(":id"), events[0]}});
        exec(*db, QStringLiteral("UPDATE {events} SET status = 'SENDING' WHERE id = :id"),
             {{QStringLiteral(":id"), events[1]}});
        exec(*db,
             QStringLiteral("UPDATE {events} SET aggregate_type = 'Order Line', topic = NULL WHERE id = :id"),
             {{QStringLiteral(":id"), events[2]}});
        const bool textColumns = db->dialect().jsonValue(QStringLiteral(":v")) == QLatin1String(":v");
        if (textColumns) // MariaDB and SQLite store JSON as text; PostgreSQL's jsonb has no such row
            exec(*db, QStringLiteral("UPDATE {events} SET headers = '[1, 2]' WHERE id = :id"),
                 {{QStringLiteral(":id"), events[3]}});
        DiagnosisReport report = diagnose(*db, only);
        QStringList keys;
        for (const Finding& f : report.findings)
            keys << f.key;
        QStringList expected{QStringLiteral("contract-violations/created-sent"),
                             QStringLiteral("contract-violations/created-sending"),
                             QStringLiteral("contract-violations/no-topic")};
        if (textColumns)
            expected << QStringLiteral("contract-violations/not-json");
        QCOMPARE(keys, expected);
        const Finding& sent = report.findings.at(0);
        QCOMPARE(sent.id, QStringLiteral("contract-violations"));
        QCOMPARE(sent.severity, Severity::Critical);
        QCOMPARE(sent.evidence.sampleIds, QVector<qint64>{events[0]});
        QCOMPARE(bare(sent.actions.first()),
                 QStringLiteral("outboxctl requeue --resend -- %1").arg(events[0]));
        QCOMPARE(bare(report.findings.at(1).actions.first()),
                 QStringLiteral("outboxctl requeue --force -- %1").arg(events[1]));
        QCOMPARE(report.findings.at(2).evidence.count, qint64(1));
        QVERIFY(report.findings.at(2)
                    .evidence.details.value(QStringLiteral("types"))
                    .toString()
                    .contains(QLatin1String("Order Line/OrderCreated")));
        // A template that makes a valid name of the type routes it: no finding.
        DiagnosisOptions routed = only;
        routed.topicTemplate = QStringLiteral("orders.{event_type}");
        QVERIFY(diagnose(*db, routed).withId(QStringLiteral("contract-violations")).size() ==
                expected.size() - 1);
        // The prepared resend publishes the never-sent event: it goes back to PENDING.
        ActionRequest r;
        r.ids = sent.actions.first().ids;
        r.resend = true;
        r.reason = QStringLiteral("contract-violations: test");
        r.actor = QStringLiteral("test");
        auto done = OperatorActions(*db).requeue(r);
        QVERIFY2(done.ok(), qPrintable(done.message()));
        QCOMPARE(statusOf(*db, events[0]), QStringLiteral("PENDING"));
        QCOMPARE(diagnose(*db, only).findings.first().key,
                 QStringLiteral("contract-violations/created-sending"));
    }

    // The traps of issue 37 that used to pass in silence: a writer's header named like the relay's
    // own (event_id), headers that are a JSON array, a bare scalar payload (PostgreSQL refuses both
    // from schema 18 on; text columns cannot), and a MariaDB writer whose session is at +05:00
    // writing available_at = NOW(6): its event waits 5 hours while it looks PENDING and fine.
    void contractTraps_data() { TestDatabases::addKinds(); }
    void contractTraps()
    {
        QFETCH(QString, kind);
        auto db = TestDatabases::fresh(kind, QStringLiteral("doctor_traps"));
        const Dialect& d = db->dialect();
        const auto events = insertEvents(*db, 4);
        DiagnosisOptions only;
        only.onlyChecks = QStringList{QStringLiteral("contract-violations")};
        QVERIFY(diagnose(*db, only).findings.isEmpty());
        exec(*db,
             QStringLiteral("UPDATE {events} SET headers = %1 WHERE id = :id")
                 .arg(d.jsonValue(QStringLiteral(":h"))),
             {{QStringLiteral(":h"),
               QStringLiteral("{\"event_id\":\"writer-value\",\"traceparent\":\"00-4bf92f3577b34"
                              "da6a3ce929d0e0e4736-00f067aa0ba902b7-01\"}")},
              {QStringLiteral(":id"), events[0]}});
        const bool postgres = kind == QLatin1String("postgresql");
        auto arrayHeaders = db->exec(QStringLiteral("UPDATE {events} SET headers = %1 WHERE id = :id")
                                         .arg(d.jsonValue(QStringLiteral(":h"))),
                                     {{QStringLiteral(":h"), QStringLiteral("[\"traceparent\", \"00-1\"]")},
                                      {QStringLiteral(":id"), events[1]}});
        auto scalarPayload =
            db->exec(QStringLiteral("UPDATE {events} SET payload = %1 WHERE id = :id")
                         .arg(d.jsonValue(QStringLiteral(":p"))),
                     {{QStringLiteral(":p"), QStringLiteral("42")}, {QStringLiteral(":id"), events[2]}});
        if (postgres) { // refused by migration 18's constraints
            QVERIFY(!arrayHeaders.ok());
            QVERIFY2(arrayHeaders.message().contains(QLatin1String("headers_object")),
                     qPrintable(arrayHeaders.message()));
            QVERIFY(!scalarPayload.ok());
            QVERIFY2(scalarPayload.message().contains(QLatin1String("payload_document")),
                     qPrintable(scalarPayload.message()));
        } else {
            QVERIFY2(arrayHeaders.ok(), qPrintable(arrayHeaders.message()));
            QVERIFY2(scalarPayload.ok(), qPrintable(scalarPayload.message()));
        }
        if (kind == QLatin1String("mysql")) {
            // The writer's session: NOW(6) is +05:00 local time in a DATETIME column that holds UTC.
            exec(*db, QStringLiteral("SET time_zone = '+05:00'"));
            exec(*db,
                 QStringLiteral(
                     "INSERT INTO {events} (event_id, event_type, aggregate_type, aggregate_id, payload, "
                     "available_at) VALUES ('tz-writer', 'OrderCreated', 'Order', 'o-tz', '{}', NOW(6))"));
            exec(*db, QStringLiteral("SET time_zone = '+00:00'"));
        } else { // the same mistake elsewhere: a local time 5 hours ahead of UTC, written with the row
            exec(*db,
                 QStringLiteral("UPDATE {events} SET available_at = %1 WHERE id = :id")
                     .arg(d.nowPlusMillis(QStringLiteral(":ms"))),
                 {{QStringLiteral(":ms"), 5 * 3600 * 1000}, {QStringLiteral(":id"), events[3]}});
        }
        DiagnosisReport report = diagnose(*db, only);
        QStringList keys;
        for (const Finding& f : report.findings)
            keys << f.key;
        QStringList expected;
        if (!postgres)
            expected << QStringLiteral("contract-violations/not-json");
        expected << QStringLiteral("contract-violations/reserved-header")
                 << QStringLiteral("contract-violations/future-time");
        QCOMPARE(keys, expected);
        if (!postgres)
            QCOMPARE(report.findings.first().evidence.count,
                     qint64(2)); // the array headers, the scalar payload
        const Finding reserved = report.findings.at(postgres ? 0 : 1);
        QCOMPARE(reserved.evidence.sampleIds, QVector<qint64>{events[0]});
        const Finding future = report.findings.last();
        QCOMPARE(future.severity, Severity::Warning);
        QCOMPARE(future.evidence.count, qint64(1));
        QCOMPARE(future.evidence.details.value(QStringLiteral("time_zone_like")).toInteger(), qint64(1));
        QVERIFY2(future.title.contains(QLatin1String("5.0 h")), qPrintable(future.title));
        QVERIFY(!future.runbook.isEmpty());
        QVERIFY(future.runbook.join(QLatin1Char(' ')).contains(QLatin1String("UTC_TIMESTAMP(6)")));
        // A delay of an hour or less is no finding; one of days that is no whole quarter hour is info.
        exec(*db, QStringLiteral("DELETE FROM {events} WHERE available_at > %1").arg(d.now()));
        const qint64 later =
            insertEvents(*db, 1, QStringLiteral("OrderCreated"), QStringLiteral("later-")).first();
        exec(*db,
             QStringLiteral("UPDATE {events} SET available_at = %1 WHERE id = :id")
                 .arg(d.nowPlusMillis(QStringLiteral(":ms"))),
             {{QStringLiteral(":ms"), 30 * 60 * 1000 + 7000}, {QStringLiteral(":id"), later}});
        QVERIFY(diagnose(*db, only).withId(QStringLiteral("contract-violations")).size() ==
                expected.size() - 1);
        exec(*db,
             QStringLiteral("UPDATE {events} SET available_at = %1 WHERE id = :id")
                 .arg(d.nowPlusMillis(QStringLiteral(":ms"))),
             {{QStringLiteral(":ms"), qint64(3) * 24 * 3600 * 1000 + 7 * 60 * 1000 + 7000},
              {QStringLiteral(":id"), later}});
        report = diagnose(*db, only);
        QCOMPARE(report.findings.last().key, QStringLiteral("contract-violations/future-time"));
        QCOMPARE(report.findings.last().severity, Severity::Info);
    }

    // A 20 MB FAILED and a 20 MB DEAD event (issue 37 item 9): doctor shows their payload size but
    // reads it from what PostgreSQL stores; rendering the jsonb as text took 5 s per run.
    void largePayloadsDoNotSlowTheDoctor()
    {
        auto db = TestDatabases::fresh(QStringLiteral("postgresql"), QStringLiteral("doctor_large"));
        QByteArray blob(20 * 1000 * 1000, 'x');
        for (qsizetype i = 0; i < blob.size(); i += 7)
            blob[i] = char('a' + (i * 31 + i / 13) % 26); // not one repeated byte: stored uncompressed-ish
        const QString payload = QStringLiteral("{\"blob\":\"%1\"}").arg(QString::fromLatin1(blob));
        for (const QString& status : QStringList{QStringLiteral("FAILED"), QStringLiteral("DEAD")})
            exec(*db,
                 QStringLiteral(
                     "INSERT INTO {events} (event_id, event_type, aggregate_type, aggregate_id, topic, "
                     "payload, status, last_error, last_error_class) VALUES (:e, 'OrderCreated', 'Order', "
                     "'o-big', 'order', CAST(:p AS jsonb), :s, 'Broker: Message size too large', "
                     "'deterministic')"),
                 QVariantMap{{QStringLiteral(":e"), QString(QStringLiteral("big-") + status)},
                             {QStringLiteral(":p"), payload},
                             {QStringLiteral(":s"), status}});
        DiagnosisOptions o;
        o.onlyChecks = QStringList{QStringLiteral("failed-events"), QStringLiteral("dead-events")};
        (void)diagnose(*db, o); // warm: the connection, the catalogue
        QElapsedTimer t;
        t.start();
        DiagnosisReport report = diagnose(*db, o);
        const qint64 ms = t.elapsed();
        QCOMPARE(report.findings.size(), 2);
        for (const Finding& f : report.findings)
            QVERIFY2(f.evidence.details.value(QStringLiteral("payload_bytes_max")).toInteger() >=
                         10 * 1000 * 1000,
                     qPrintable(QString::fromUtf8(QJsonDocument(f.evidence.details).toJson())));
        QVERIFY2(ms < 2000, qPrintable(QStringLiteral("doctor took %1 ms").arg(ms)));
    }

    void schemaOutdated_data() { TestDatabases::addKinds(); }
    void schemaOutdated()
    {
        QFETCH(QString, kind);
        const DatabaseUrl url =
            TestDatabases::create(kind, TestDatabases::uniqueName(QStringLiteral("schema")));
        auto db = TestDatabases::open(url);
        // No schema at all: only schema-outdated runs.
        DiagnosisReport report = diagnose(*db);
        QCOMPARE(ids(report), names({"schema-outdated"}));
        QCOMPARE(report.findings.first().severity, Severity::Critical);
        QCOMPARE(bare(report.findings.first().actions.first()), QStringLiteral("outboxctl migrate"));
        for (const CheckRun& c : report.checks)
            QCOMPARE(c.outcome, c.id == QLatin1String("schema-outdated") ? CheckRun::Outcome::Ran
                                                                         : CheckRun::Outcome::Skipped);
        QVERIFY(Migrator(*db).migrate().ok());
        QVERIFY(diagnose(*db).findings.isEmpty());
        // One migration behind.
        exec(*db, QStringLiteral("DELETE FROM {migrations} WHERE version = :v"),
             {{QStringLiteral(":v"), Migrator(*db).latestVersion()}});
        report = diagnose(*db);
        QCOMPARE(ids(report), names({"schema-outdated"}));
        QVERIFY(report.findings.first().title.contains(QLatin1String("version")));
    }

    void commandsCarryTheConnectionAndQuoteSafely()
    {
        auto db = TestDatabases::fresh(QStringLiteral("sqlite"), QStringLiteral("doctor_quote"));
        const auto events = insertEvents(*db, 12); // more than the samples: the group is the target
        addRelay(*db, QStringLiteral("relay-a"), QStringLiteral("RUNNING"), 0);
        forceStatus(*db, events, QStringLiteral("FAILED"), QStringLiteral("it's -broken; rm -rf / `x`"));
        DiagnosisOptions o;
        o.connectionArguments =
            QStringList{QStringLiteral("--config"), QStringLiteral("/etc/outbox/my orders.ini")};
        const Finding f = diagnose(*db, o).withId(QStringLiteral("failed-events")).first();
        QCOMPARE(bare(f.actions.first()),
                 QStringLiteral("outboxctl requeue --status=FAILED '--group=it'\\''s -broken; rm -rf / `x`' "
                                "--config '/etc/outbox/my orders.ini'"));
    }

    void jsonShape()
    {
        auto db = TestDatabases::fresh(QStringLiteral("sqlite"), QStringLiteral("doctor_json"));
        insertEvents(*db, 1);
        DiagnosisOptions o;
        o.brokerArguments = QStringList{QStringLiteral("--kafka-bootstrap=127.0.0.1:9092")};
        const QJsonObject json = diagnose(*db, o).toJson();
        const QJsonObject f = json.value(QStringLiteral("findings")).toArray().first().toObject();
        for (const char* key : {"id", "key", "severity", "title", "evidence", "causes", "runbook", "actions"})
            QVERIFY2(f.contains(QLatin1String(key)), key);
        QCOMPARE(f.value(QStringLiteral("id")).toString(), QStringLiteral("no-relay"));
        QCOMPARE(f.value(QStringLiteral("severity")).toString(), QStringLiteral("critical"));
        const QJsonObject evidence = f.value(QStringLiteral("evidence")).toObject();
        for (const char* key : {"count", "oldest", "newest", "samples"})
            QVERIFY2(evidence.contains(QLatin1String(key)), key);
        const QJsonObject action = f.value(QStringLiteral("actions")).toArray().first().toObject();
        QVERIFY(action.contains(QStringLiteral("label")));
        QVERIFY(action.value(QStringLiteral("command")).toString().startsWith(QLatin1String("outboxctl ")));
        QCOMPARE(json.value(QStringLiteral("checks")).toArray().size(), Doctor::checkIds().size());
    }
};

QTEST_GUILESS_MAIN(TestDoctor)
#include "tst_doctor.moc"
