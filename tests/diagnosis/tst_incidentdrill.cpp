// Issue 25, "Done when": an incident like the two on-call trials, scripted on PostgreSQL with the
// embedded Kafka broker and real processes. A relay is SIGKILLed mid-drain (leases left, backlog
// aged past the threshold), events FAILED on a topic ACL block their aggregates, oversized payloads
// FAILED "Message size too large", one consumer dead-lettered two groups whose errors share a
// substring. The operator then only follows `outboxctl doctor --json`: each round it takes the
// prepared actions of the critical and warning findings, runs audited ones exactly as printed
// (plus --yes, the typed confirmation of a script) and starts a prepared relay as printed, in the
// background. After every audited action no row outside the action's group has changed. At the end
// nothing critical or warning is left, every event is SENT (and on the topic) or DEAD by decision,
// the dead letters are REPLAYED or DISCARDED as chosen, and a real Prometheus scraping a real
// `outboxctl serve` with the shipped alert rules has no alert firing or pending.
#include "core/broker/kafka/EmbeddedBroker.h"
#include "core/db/DeadLetterStore.h"
#include "tests/support/OutboxctlProcess.h"
#include "tests/support/RelayChecks.h"
#include "tests/support/TestDatabases.h"
#include "tests/support/TopicReader.h"

#include <QCryptographicHash>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QMap>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QProcess>
#include <QScopeGuard>
#include <QSet>
#include <QTemporaryDir>
#include <QTest>
#include <QUrlQuery>
#include <functional>
#include <memory>
#include <signal.h>

using namespace outbox;
using namespace outbox::test;

namespace {

const QString kAclError = QStringLiteral("Broker: Topic authorization failed");
const QString kTooLarge = QStringLiteral("Broker: Message size too large");
const QString kSku1 = QStringLiteral("unknown SKU SKU-1");
const QString kSku27 = QStringLiteral("unknown SKU sku-27");

using Run = OutboxctlRun;

OutboxctlOptions environment(const DatabaseUrl& url)
{
    OutboxctlOptions options;
    options.extraEnv.insert(QStringLiteral("OUTBOX_DB_PASSWORD"), url.password);
    options.timeoutMs = 60000;
    return options;
}

// A prepared command line started as an operator pastes it into a second terminal and leaves it
// running: through /bin/sh, `outboxctl` being $OUTBOXCTL, the database and brokers only from the line.
std::unique_ptr<QProcess> startPrinted(const QString& line, const DatabaseUrl& url, const QString& logFile)
{
    if (!line.startsWith(QLatin1String("outboxctl ")))
        qFatal("not an outboxctl command: %s", qPrintable(line));
    auto p = std::make_unique<QProcess>();
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.remove(QStringLiteral("OUTBOX_DB_URL"));
    env.remove(QStringLiteral("OUTBOX_KAFKA_BOOTSTRAP"));
    env.insert(QStringLiteral("OUTBOXCTL"), outboxctlProgram());
    env.insert(QStringLiteral("OUTBOX_DB_PASSWORD"), url.password);
    p->setProcessEnvironment(env);
    p->setStandardInputFile(QProcess::nullDevice());
    p->setStandardOutputFile(logFile);
    p->setProcessChannelMode(QProcess::MergedChannels);
    p->start(QStringLiteral("/bin/sh"),
             {QStringLiteral("-c"), QStringLiteral("exec \"$OUTBOXCTL\" ") + line.mid(10)});
    if (!p->waitForStarted(10000))
        qFatal("cannot start %s", qPrintable(line));
    return p;
}

// (status, last_error) of every event and (status, error) of every dead letter, by id.
struct Row
{
    QString status;
    QString error;
    bool operator==(const Row& o) const { return status == o.status && error == o.error; }
    bool operator!=(const Row& o) const { return !(*this == o); }
};
struct Snapshot
{
    QMap<qint64, Row> events;
    QMap<qint64, Row> letters;
    QSet<QString> relays; // registered worker ids
};

Snapshot snapshot(Database& db)
{
    Snapshot s;
    auto e = db.exec(QStringLiteral("SELECT id, status, last_error FROM {events}"));
    if (!e)
        qFatal("%s", qPrintable(e.message()));
    while (e->next())
        s.events.insert(e->value(0).toLongLong(), {e->value(1).toString(), e->value(2).toString()});
    auto d = db.exec(QStringLiteral("SELECT id, status, error FROM {dead_letters}"));
    if (!d)
        qFatal("%s", qPrintable(d.message()));
    while (d->next())
        s.letters.insert(d->value(0).toLongLong(), {d->value(1).toString(), d->value(2).toString()});
    auto r = db.exec(QStringLiteral("SELECT worker_id FROM {relays}"));
    if (!r)
        qFatal("%s", qPrintable(r.message()));
    while (r->next())
        s.relays.insert(r->value(0).toString());
    return s;
}

// Ids whose row differs between the two snapshots (rows that appeared count as changed).
QSet<qint64> changed(const QMap<qint64, Row>& before, const QMap<qint64, Row>& after)
{
    QSet<qint64> out;
    for (auto it = after.cbegin(); it != after.cend(); ++it)
        if (!before.contains(it.key()) || before.value(it.key()) != it.value())
            out.insert(it.key());
    return out;
}

// What a running relay does on its own, whatever an operator runs: sends PENDING events, reaps
// SENDING ones, delivers REPLAYING dead letters. Only such moves are allowed outside a group while a
// relay runs; an operator's move (FAILED→PENDING, →DEAD, NEW→REPLAYING/DISCARDED) never is.
bool relayMove(const Row& before, const Row& after, bool letter)
{
    if (letter)
        return before.status == QLatin1String("REPLAYING") && after.status == QLatin1String("REPLAYED");
    static const QSet<QString> flow{QStringLiteral("PENDING"), QStringLiteral("SENDING"),
                                    QStringLiteral("SENT")};
    return flow.contains(before.status) && flow.contains(after.status) &&
           before.status != QLatin1String("SENT");
}

QString fixtureFile(const QString& name)
{
    QFile f(qEnvironmentVariable("OUTBOX_TEST_PROMETHEUS_DIR") + QLatin1Char('/') + name);
    if (!f.open(QIODevice::ReadOnly))
        qFatal("the Prometheus fixture has no %s (is OUTBOX_TEST_PROMETHEUS_DIR set?)", qPrintable(name));
    return QString::fromUtf8(f.readAll().trimmed());
}

QJsonObject prometheusGet(const QString& path, const QUrlQuery& query = {})
{
    QNetworkAccessManager nam;
    QUrl url(
        QStringLiteral("http://127.0.0.1:%1%2").arg(fixtureFile(QStringLiteral("prometheus.port")), path));
    url.setQuery(query);
    std::unique_ptr<QNetworkReply> reply(nam.get(QNetworkRequest(url)));
    QElapsedTimer t;
    t.start();
    while (!reply->isFinished() && t.elapsed() < 10000)
        QTest::qWait(20);
    return QJsonDocument::fromJson(reply->readAll()).object();
}

// Every alert Prometheus holds (pending or firing), as "name{id} state".
QStringList activeAlerts()
{
    QStringList out;
    const QJsonArray all = prometheusGet(QStringLiteral("/api/v1/alerts"))
                               .value(QStringLiteral("data"))
                               .toObject()
                               .value(QStringLiteral("alerts"))
                               .toArray();
    for (const QJsonValue& v : all) {
        const QJsonObject a = v.toObject();
        const QJsonObject labels = a.value(QStringLiteral("labels")).toObject();
        out << QStringLiteral("%1{%2} %3")
                   .arg(labels.value(QStringLiteral("alertname")).toString(),
                        labels.value(QStringLiteral("id")).toString(),
                        a.value(QStringLiteral("state")).toString());
    }
    return out;
}

QString promQuery(const QString& expr)
{
    QUrlQuery q;
    q.addQueryItem(QStringLiteral("query"), expr);
    const QJsonArray result = prometheusGet(QStringLiteral("/api/v1/query"), q)
                                  .value(QStringLiteral("data"))
                                  .toObject()
                                  .value(QStringLiteral("result"))
                                  .toArray();
    return result.isEmpty()
               ? QString()
               : result.first().toObject().value(QStringLiteral("value")).toArray().at(1).toString();
}

} // namespace

class TestIncidentDrill : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QVERIFY2(!qEnvironmentVariable("OUTBOXCTL").isEmpty(), "OUTBOXCTL must point at the binary");
        if (!TestDatabases::available(QStringLiteral("postgresql")))
            QSKIP("no PostgreSQL test server");
    }

    void incidentClearsWithPreparedActionsOnly()
    {
        QElapsedTimer clock;
        clock.start();
        auto broker = startOrderBroker();
        auto db = TestDatabases::fresh(QStringLiteral("postgresql"), QStringLiteral("incident_drill"));
        const QString url = TestDatabases::urlText(db->url());
        const OutboxctlOptions env = environment(db->url());

        // --- The incident. 2,000 events over 400 aggregates (5 each, in order).
        QVector<qint64> all;
        for (int round = 0; round < 5; ++round)
            all += insertEvents(*db, 400, QStringLiteral("OrderCreated"), QStringLiteral("order-"));
        // The first event of 30 aggregates FAILED on a topic ACL: their 4 later events wait behind it.
        QVector<qint64> acl, tooLarge;
        for (int i = 0; i < 30; ++i)
            acl << all.at(i);
        for (int i = 30; i < 33; ++i)
            tooLarge << all.at(i);
        forceStatus(*db, acl, QStringLiteral("FAILED"), kAclError);
        forceStatus(*db, tooLarge, QStringLiteral("FAILED"), kTooLarge);
        exec(*db, QStringLiteral("UPDATE {events} SET attempts = 1, last_error_class = 'deterministic' "
                                 "WHERE status = 'FAILED'"));
        // The oversized payloads are oversized (1.2 MB, over Kafka's default 1 MB).
        exec(*db,
             QStringLiteral("UPDATE {events} SET payload = jsonb_build_object('blob', repeat('x', 1200000)) "
                            "WHERE last_error = :e"),
             {{QStringLiteral(":e"), kTooLarge}});

        // A real relay drains part of the backlog and is SIGKILLed mid-batch: leases stay behind.
        QTemporaryDir dir;
        auto killed = startOutboxctl({QStringLiteral("relay"), QStringLiteral("--db"), url,
                                      QStringLiteral("--kafka-bootstrap"), broker->bootstrap(),
                                      QStringLiteral("--worker-id"), QStringLiteral("relay-night-shift"),
                                      QStringLiteral("--ordering"), QStringLiteral("aggregate"),
                                      QStringLiteral("--poll-ms"), QStringLiteral("100")},
                                     QStringLiteral("relay.after_produce=sleep(300)"));
        QElapsedTimer draining;
        draining.start();
        while (!(countStatus(*db, "SENT") >= 100 && countStatus(*db, "SENDING") > 0) &&
               draining.elapsed() < 30000 && killed->state() == QProcess::Running)
            QTest::qWait(50);
        QVERIFY2(killed->state() == QProcess::Running, killed->readAll().constData());
        QVERIFY2(countStatus(*db, "SENT") >= 100 && countStatus(*db, "SENDING") > 0,
                 qPrintable(QStringLiteral("SENT %1 SENDING %2: ")
                                .arg(countStatus(*db, "SENT"))
                                .arg(countStatus(*db, "SENDING")) +
                            QString::fromUtf8(killed->readAll().right(2000))));
        ::kill(pid_t(killed->processId()), SIGKILL);
        QVERIFY(killed->waitForFinished(10000));
        const qint64 sentBefore = countStatus(*db, "SENT");
        QVERIFY(countStatus(*db, "SENDING") > 0);
        QVERIFY(countStatus(*db, "PENDING") > 1000);
        qInfo("incident: relay killed with %lld SENT, %lld SENDING, %lld PENDING", sentBefore,
              countStatus(*db, "SENDING"), countStatus(*db, "PENDING"));
        // Ten minutes pass (the night): the backlog ages, the dead relay's heartbeat and leases age.
        exec(*db, QStringLiteral("UPDATE {events} SET created_at = created_at - INTERVAL '10 minutes', "
                                 "available_at = available_at - INTERVAL '10 minutes'"));
        exec(*db, QStringLiteral("UPDATE {events} SET lease_until = lease_until - INTERVAL '10 minutes' "
                                 "WHERE status = 'SENDING'"));
        exec(*db, QStringLiteral("UPDATE {relays} SET heartbeat_at = heartbeat_at - INTERVAL '10 minutes'"));

        // The consumer `inventory` dead-lettered four messages: three need the fix and a replay,
        // sku-27 was a test order to discard. Both errors contain "unknown SKU SKU-".
        for (int i = 0; i < 4; ++i) {
            DeadLetter letter;
            letter.consumerName = QStringLiteral("inventory");
            letter.eventId = QStringLiteral("dl-ev-%1").arg(i);
            letter.topic = QStringLiteral("order");
            letter.messageKey = QStringLiteral("order-dl-%1").arg(i);
            letter.payload = QStringLiteral("{\"sku\":\"%1\"}")
                                 .arg(i < 3 ? QStringLiteral("SKU-1") : QStringLiteral("sku-27"))
                                 .toUtf8();
            letter.error = i < 3 ? kSku1 : kSku27;
            QVERIFY(DeadLetterStore(*db).insert(letter).ok());
        }

        // The operator's configuration: the broker is known (the prepared relay uses it).
        const QString ini = dir.filePath(QStringLiteral("outbox.ini"));
        {
            QFile f(ini);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write("[kafka]\nbootstrap = " + broker->bootstrap().toUtf8() + "\n");
        }

        // The NOC: `outboxctl serve` scraped by the Prometheus fixture with the shipped rules.
        const QByteArray token = fixtureFile(QStringLiteral("token")).toUtf8();
        const QString serveIni = dir.filePath(QStringLiteral("serve.ini"));
        {
            QFile f(serveIni);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(QStringLiteral("[web]\nlisten = 127.0.0.1:%1\nsample_interval_ms = 500\n"
                                   "findings_interval_ms = 500\n[tokens]\nprometheus = viewer:%2\n")
                        .arg(fixtureFile(QStringLiteral("target.port")),
                             QString::fromLatin1(
                                 QCryptographicHash::hash(token, QCryptographicHash::Sha256).toHex()))
                        .toUtf8());
        }
        OutboxctlStart serveStart;
        serveStart.extraEnv.insert(QStringLiteral("OUTBOX_DB_PASSWORD"), db->url().password);
        auto serve = startOutboxctl(
            {QStringLiteral("serve"), QStringLiteral("--config"), serveIni, QStringLiteral("--db"), url},
            serveStart);
        auto stopServe = qScopeGuard([&] { terminateAndWait(*serve); });
        QTRY_COMPARE_WITH_TIMEOUT(promQuery(QStringLiteral("up{job=\"outbox\"}")), QStringLiteral("1"),
                                  30000);
        // The alarm: the incident pages (rules with `for:` shortened to 2s by the fixture).
        QTRY_VERIFY_WITH_TIMEOUT(
            activeAlerts().contains(QStringLiteral("OutboxFailedEvents{failed-events} firing")), 30000);
        qInfo("alarm: %s", qPrintable(activeAlerts().join(QStringLiteral(", "))));

        // --- The recovery: only the doctor's prepared actions.
        std::vector<std::unique_ptr<QProcess>> relays;
        auto stopRelays = qScopeGuard([&] {
            for (auto& r : relays)
                terminateAndWait(*r);
        });
        QStringList ran;
        QStringList findingsLeft;
        const QStringList doctor{QStringLiteral("doctor"),   QStringLiteral("--json"),
                                 QStringLiteral("--db"),     url,
                                 QStringLiteral("--config"), ini};
        for (int round = 0; round < 12; ++round) {
            const Run report = runOutboxctl(doctor, env);
            QVERIFY2(report.exitCode == 0 || report.exitCode == 3, report.err.constData());
            findingsLeft.clear();
            bool acted = false;
            bool failedGroups = false; // root causes first: their actions unblock the aggregates
            for (const QJsonValue& fv : report.json().value(QStringLiteral("findings")).toArray())
                failedGroups |=
                    fv.toObject().value(QStringLiteral("id")).toString() == QLatin1String("failed-events");
            if (round == 0) {
                // The incident is the incident: every symptom of the trials is reported.
                QStringList keys;
                for (const QJsonValue& fv : report.json().value(QStringLiteral("findings")).toArray())
                    keys << fv.toObject().value(QStringLiteral("severity")).toString() + QLatin1Char(' ') +
                                fv.toObject().value(QStringLiteral("key")).toString();
                qInfo("findings at the start: %s", qPrintable(keys.join(QStringLiteral("; "))));
                for (const QString& expected :
                     {QStringLiteral("no-relay"), QStringLiteral("backlog-age"),
                      QStringLiteral("expired-leases"), QStringLiteral("relay-stale"),
                      QStringLiteral("blocked-aggregates"), kAclError, kTooLarge,
                      QStringLiteral("unknown SKU SKU-"), QStringLiteral("unknown SKU sku-")})
                    QVERIFY2(
                        keys.join(QLatin1Char('\n')).contains(expected),
                        qPrintable(expected + QStringLiteral(" not in: ") + keys.join(QStringLiteral("; "))));
                QCOMPARE(report.exitCode, 3);
            }
            for (const QJsonValue& fv : report.json().value(QStringLiteral("findings")).toArray()) {
                const QJsonObject finding = fv.toObject();
                const QString id = finding.value(QStringLiteral("id")).toString();
                const QString severity = finding.value(QStringLiteral("severity")).toString();
                const QString key = finding.value(QStringLiteral("key")).toString();
                if (severity != QLatin1String("critical") && severity != QLatin1String("warning"))
                    continue;
                findingsLeft << key;
                if (acted)
                    continue; // one action per round, then look again
                const QJsonArray actions = finding.value(QStringLiteral("actions")).toArray();
                QJsonObject chosen;
                const auto pick = [&](const QString& operation) {
                    for (const QJsonValue& a : actions)
                        if (a.toObject().value(QStringLiteral("operation")).toString() == operation)
                            chosen = a.toObject();
                };
                // Which group this finding is, from its key; the test knows which rows form it.
                std::function<bool(qint64, const Row&, bool)> inGroup;
                if (id == QLatin1String("failed-events") && key.contains(kAclError)) {
                    pick(QStringLiteral("events.requeue"));
                    inGroup = [](qint64, const Row& r, bool letter) {
                        return !letter && r.status == QLatin1String("FAILED") && r.error == kAclError;
                    };
                } else if (id == QLatin1String("failed-events") && key.contains(kTooLarge)) {
                    pick(QStringLiteral("events.dead"));
                    inGroup = [](qint64, const Row& r, bool letter) {
                        return !letter && r.status == QLatin1String("FAILED") && r.error == kTooLarge;
                    };
                } else if (id == QLatin1String("dead-letters") && key.contains(QStringLiteral("SKU-"))) {
                    pick(QStringLiteral("dlq.replay"));
                    inGroup = [](qint64, const Row& r, bool letter) {
                        return letter && r.status == QLatin1String("NEW") && r.error == kSku1;
                    };
                } else if (id == QLatin1String("dead-letters") && key.contains(QStringLiteral("sku-"))) {
                    pick(QStringLiteral("dlq.discard"));
                    inGroup = [](qint64, const Row& r, bool letter) {
                        return letter && r.status == QLatin1String("NEW") && r.error == kSku27;
                    };
                } else if (id == QLatin1String("relay-stale")) {
                    pick(QStringLiteral("relay.forget"));
                    inGroup = [](qint64, const Row&, bool) { return false; }; // no event, no letter
                } else if (id == QLatin1String("blocked-aggregates") && !failedGroups) {
                    pick(QStringLiteral("events.requeue"));
                    QSet<qint64> ids;
                    for (const QJsonValue& v : chosen.value(QStringLiteral("target"))
                                                   .toObject()
                                                   .value(QStringLiteral("ids"))
                                                   .toArray())
                        ids.insert(v.toInteger());
                    inGroup = [ids](qint64 rowId, const Row& r, bool letter) {
                        return !letter && r.status == QLatin1String("FAILED") && ids.contains(rowId);
                    };
                } else if ((id == QLatin1String("no-relay") || id == QLatin1String("backlog-age") ||
                            id == QLatin1String("expired-leases")) &&
                           relays.empty()) {
                    for (const QJsonValue& a : actions)
                        if (a.toObject()
                                .value(QStringLiteral("command"))
                                .toString()
                                .startsWith(QLatin1String("outboxctl relay ")))
                            chosen = a.toObject();
                } else {
                    continue; // the relay runs: backlog, leases and the rest clear as it drains
                }
                const QString command = chosen.value(QStringLiteral("command")).toString();
                QVERIFY2(!command.isEmpty(),
                         qPrintable(QStringLiteral("%1: no prepared action fits: %2")
                                        .arg(key, QString::fromUtf8(QJsonDocument(finding).toJson()))));
                acted = true;
                ran << key + QStringLiteral(" -> ") + command.section(QLatin1Char(' '), 0, 2);
                if (command.startsWith(QLatin1String("outboxctl relay "))) {
                    qInfo("round %d: %s: start `%s`", round, qPrintable(key), qPrintable(command));
                    relays.push_back(startPrinted(command, db->url(),
                                                  dir.filePath(QStringLiteral("relay-%1.log").arg(round))));
                    QTest::qWait(1500);
                    QVERIFY2(relays.back()->state() == QProcess::Running,
                             qPrintable(QStringLiteral("the prepared relay ended: ") + command));
                    continue;
                }
                QVERIFY2(command.contains(QLatin1String("--reason")), qPrintable(command));
                const Snapshot before = snapshot(*db);
                // --yes among the options (before a `--` ending them), as the operator confirms.
                QString line = command;
                const qsizetype end = line.indexOf(QLatin1String(" -- "));
                if (end < 0)
                    line += QStringLiteral(" --yes");
                else
                    line.insert(end, QStringLiteral(" --yes"));
                qInfo("round %d: %s: run `%s`", round, qPrintable(key), qPrintable(line));
                const Run result = runPrintedCommand(line, env);
                QVERIFY2(result.exitCode == 0,
                         qPrintable(line + QLatin1Char('\n') + QString::fromUtf8(result.err)));
                const Snapshot after = snapshot(*db);
                // Nothing outside its group changed; every row of the group did (or the relay moved it on).
                int groupChanged = 0;
                for (const bool letter : {false, true}) {
                    const auto& b = letter ? before.letters : before.events;
                    const auto& a = letter ? after.letters : after.events;
                    for (qint64 rowId : changed(b, a)) {
                        const Row was = b.value(rowId);
                        const Row now = a.value(rowId);
                        if (inGroup(rowId, was, letter)) {
                            ++groupChanged;
                            continue;
                        }
                        QVERIFY2(
                            !relays.empty() && relayMove(was, now, letter),
                            qPrintable(QStringLiteral("%1 changed %2 %3 outside its group: %4/%5 -> %6/%7")
                                           .arg(command, QLatin1String(letter ? "dead letter" : "event"))
                                           .arg(rowId)
                                           .arg(was.status, was.error, now.status, now.error)));
                    }
                    for (auto it = b.cbegin(); it != b.cend(); ++it)
                        if (inGroup(it.key(), it.value(), letter))
                            QVERIFY2(a.value(it.key()) != it.value(),
                                     qPrintable(QStringLiteral("%1 left %2 of its group as it was")
                                                    .arg(command)
                                                    .arg(it.key())));
                }
                // Relay registrations: only a forget removes one, and only the stale ones it names.
                const QSet<QString> removed = before.relays - after.relays;
                if (id == QLatin1String("relay-stale")) {
                    QCOMPARE(removed, QSet<QString>{QStringLiteral("relay-night-shift")});
                    QVERIFY(!after.relays.isEmpty()); // the running relay stays registered
                } else {
                    QVERIFY2(removed.isEmpty(), qPrintable(command));
                }
                qInfo("  changed %d row(s) of its group", groupChanged);
            }
            if (findingsLeft.isEmpty())
                break;
            if (!acted)
                QTest::qWait(1500); // the relay drains; look again
        }
        qInfo("actions: %s", qPrintable(ran.join(QStringLiteral("; "))));
        {
            const Run last = runOutboxctl(doctor, env);
            QStringList keys;
            for (const QJsonValue& fv : last.json().value(QStringLiteral("findings")).toArray())
                keys << fv.toObject().value(QStringLiteral("severity")).toString() + QLatin1Char(' ') +
                            fv.toObject().value(QStringLiteral("key")).toString();
            qInfo("findings at the end: %s", qPrintable(keys.join(QStringLiteral("; "))));
            QCOMPARE(last.exitCode, 0);
        }
        QVERIFY2(findingsLeft.isEmpty(),
                 qPrintable(QStringLiteral("findings left: ") + findingsLeft.join(QStringLiteral(", "))));

        // --- All clear, and it is true.
        QTRY_COMPARE_WITH_TIMEOUT(countStatus(*db, "SENT"), qint64(all.size() - tooLarge.size()), 30000);
        QCOMPARE(countStatus(*db, "DEAD"), qint64(tooLarge.size()));
        QCOMPARE(countRows(*db, QStringLiteral("{events}"), QStringLiteral("status NOT IN ('SENT', 'DEAD')")),
                 qint64(0));
        QTRY_COMPARE_WITH_TIMEOUT(
            countRows(*db, QStringLiteral("{dead_letters}"),
                      QStringLiteral("status = 'REPLAYED' AND error = 'unknown SKU SKU-1'")),
            qint64(3), 30000);
        QCOMPARE(countRows(*db, QStringLiteral("{dead_letters}"),
                           QStringLiteral("status = 'DISCARDED' AND error = 'unknown SKU sku-27'")),
                 qint64(1));
        for (const char* action :
             {"events.requeue", "events.dead", "dlq.replay", "dlq.discard", "relay.forget"})
            QVERIFY2(countRows(*db, QStringLiteral("{audit}"),
                               QStringLiteral("action = '%1'").arg(QLatin1String(action))) >= 1,
                     action);

        // Every SENT event is on the topic at least once (and the replayed letters too).
        const auto messages = readTopic(broker->bootstrap(), QStringLiteral("order"), -1, 4000, 60000);
        QSet<QByteArray> onTopic;
        for (const ConsumedMessage& m : messages)
            onTopic.insert(m.headers.value("event_id"));
        auto sent = db->exec(QStringLiteral("SELECT event_id FROM {events} WHERE status = 'SENT'"));
        QVERIFY(sent.ok());
        int missing = 0;
        while (sent->next())
            missing += onTopic.contains(sent->value(0).toString().toUtf8()) ? 0 : 1;
        QCOMPARE(missing, 0);
        for (int i = 0; i < 3; ++i)
            QVERIFY2(onTopic.contains(QStringLiteral("dl-ev-%1").arg(i).toUtf8()),
                     "a replayed letter is missing");
        QVERIFY(!onTopic.contains("dl-ev-3")); // discarded, never sent again

        // The prepared relay kept each unblocked aggregate's order: its requeued first event reached
        // the topic before its four later ones (same partition, increasing offsets).
        QMap<QByteArray, QPair<int, qint64>> firstSeen; // event_id -> (partition, offset)
        for (const ConsumedMessage& m : messages)
            if (!firstSeen.contains(m.headers.value("event_id")))
                firstSeen.insert(m.headers.value("event_id"), {m.partition, m.offset});
        for (qint64 blocking : acl) {
            auto q =
                db->exec(QStringLiteral("SELECT e.event_id FROM {events} e JOIN {events} b ON "
                                        "b.aggregate_id = e.aggregate_id WHERE b.id = :id ORDER BY e.id"),
                         {{QStringLiteral(":id"), blocking}});
            QVERIFY(q.ok());
            QPair<int, qint64> previous{-1, -1};
            int n = 0;
            while (q->next()) {
                const QPair<int, qint64> at = firstSeen.value(q->value(0).toString().toUtf8(), {-2, -2});
                QVERIFY2(at.first >= 0, "an event of an unblocked aggregate is not on the topic");
                if (n++ > 0) {
                    QCOMPARE(at.first, previous.first);
                    QVERIFY2(at.second > previous.second, "an aggregate was delivered out of order");
                }
                previous = at;
            }
            QCOMPARE(n, 5);
        }
        qInfo("%lld message(s) on the topic for %lld SENT event(s)", qint64(messages.size()),
              countStatus(*db, "SENT"));

        // No alert left firing: Prometheus, evaluating the shipped rules on serve's metrics, holds none.
        QTRY_VERIFY_WITH_TIMEOUT(activeAlerts().isEmpty(), 30000);
        QTest::qWait(4000); // well past every shortened `for:`
        QVERIFY2(activeAlerts().isEmpty(), qPrintable(activeAlerts().join(QStringLiteral(", "))));
        QCOMPARE(promQuery(QStringLiteral("max(outbox_diagnosis_up)")), QStringLiteral("1"));
        QCOMPARE(promQuery(QStringLiteral("sum(outbox_findings{severity=~\"warning|critical\"})")),
                 QStringLiteral("0"));
        qInfo("incident drill: all clear in %.1f s", double(clock.elapsed()) / 1000.0);
    }
};

QTEST_GUILESS_MAIN(TestIncidentDrill)
#include "tst_incidentdrill.moc"
