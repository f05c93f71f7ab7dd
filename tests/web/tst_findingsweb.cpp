// The doctor's findings on the web: GET /api/v1/findings, outbox_findings on /metrics, the
// "findings" push over /ws and the dashboard's "Needs attention" panel in a real Chromium.
#include "core/db/RelayStore.h"
#include "tests/support/TestDatabases.h"
#include "tests/web/ChromiumPage.h"
#include "tests/web/HttpTestClient.h"
#include "ui/web/WebServer.h"
#include "ui/web/http/AccessControl.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QTest>
#include <QWebSocket>

using namespace outbox;
using namespace outbox::test;
using namespace outbox::web;

namespace {

const QByteArray ViewerSecret = "findings-viewer-secret";
const QByteArray OperatorSecret = "findings-operator-secret";

WebConfig testConfig()
{
    WebConfig c;
    c.port = 0;
    c.sampleIntervalMs = 300;
    c.findingsIntervalMs = 300;
    c.doctor.brokerArguments =
        QStringList{QStringLiteral("--kafka-bootstrap=127.0.0.1:9092")}; // [kafka] bootstrap
    c.tokens = {
        ApiToken{QStringLiteral("wallboard"), Role::Viewer, AccessControl::hashToken(ViewerSecret)},
        ApiToken{QStringLiteral("olga-ops"), Role::Operator, AccessControl::hashToken(OperatorSecret)}};
    return c;
}

void ageCreated(Database& db, qint64 ms)
{
    exec(db,
         QStringLiteral("UPDATE {events} SET created_at = %1")
             .arg(db.dialect().nowPlusMillis(QStringLiteral(":ms"))),
         {{QStringLiteral(":ms"), -ms}});
}

QStringList ids(const QJsonArray& findings)
{
    QStringList out;
    for (const QJsonValue& v : findings)
        out << v.toObject().value(QStringLiteral("id")).toString();
    return out;
}

} // namespace

class TestFindingsWeb : public QObject
{
    Q_OBJECT

private slots:
    void findingsApiAndMetrics_data() { TestDatabases::addKinds(); }
    void findingsApiAndMetrics()
    {
        QFETCH(QString, kind);
        auto db = TestDatabases::fresh(kind, TestDatabases::uniqueName(QStringLiteral("findings")));
        insertEvents(*db, 5);
        ageCreated(*db, 10 * 60 * 1000);
        WebServer server(testConfig(), DatabaseTarget(db->url(), QString()));
        QVERIFY(server.start().ok());
        HttpTestClient http(server.baseUrl());

        QCOMPARE(http.get(QStringLiteral("/api/v1/findings")).status, 401);
        HttpTestClient::Reply r;
        QTRY_VERIFY_WITH_TIMEOUT(
            (r = http.get(QStringLiteral("/api/v1/findings"), ViewerSecret)).status == 200, 15000);
        const QJsonObject json = r.json();
        const QJsonArray findings = json.value(QStringLiteral("findings")).toArray();
        QCOMPARE(ids(findings), (QStringList{QStringLiteral("no-relay"), QStringLiteral("backlog-age")}));
        QCOMPARE(json.value(QStringLiteral("stale")).toBool(), false);
        const QJsonObject noRelay = findings.first().toObject();
        QCOMPARE(noRelay.value(QStringLiteral("severity")).toString(), QStringLiteral("critical"));
        QVERIFY(!noRelay.value(QStringLiteral("runbook")).toArray().isEmpty());
        const QString command = noRelay.value(QStringLiteral("actions"))
                                    .toArray()
                                    .first()
                                    .toObject()
                                    .value(QStringLiteral("command"))
                                    .toString();
        QVERIFY2(command.contains(QLatin1String("--db ")), qPrintable(command));
        if (!db->url().password.isEmpty())
            QVERIFY2(!command.contains(QLatin1Char(':') + db->url().password + QLatin1Char('@')),
                     "a password in a command line");

        // /metrics answers 503 until the sampler's first snapshot, which may come after the
        // doctor's first run on a loaded machine.
        HttpTestClient::Reply m;
        QTRY_VERIFY_WITH_TIMEOUT((m = http.get(QStringLiteral("/metrics"), ViewerSecret)).status == 200,
                                 15000);
        const QByteArray metrics = m.body;
        QVERIFY2(metrics.contains("outbox_findings{id=\"no-relay\",severity=\"critical\"} 1\n"),
                 metrics.constData());
        QVERIFY(metrics.contains("outbox_findings{id=\"backlog-age\",severity=\"warning\"} 1\n"));
        QVERIFY(metrics.contains("outbox_findings{id=\"failed-events\",severity=\"critical\"} 0\n"));
        QVERIFY(metrics.contains("outbox_diagnosis_up 1\n"));
        QVERIFY(metrics.contains("# TYPE outbox_findings gauge\n"));

        // A relay appears and the backlog is young again: the next run finds nothing.
        registerRelay(*db, QStringLiteral("relay-a"), 0);
        ageCreated(*db, 0);
        QTRY_VERIFY_WITH_TIMEOUT(http.get(QStringLiteral("/api/v1/findings"), ViewerSecret)
                                     .json()
                                     .value(QStringLiteral("findings"))
                                     .toArray()
                                     .isEmpty(),
                                 15000);
        QVERIFY(http.get(QStringLiteral("/metrics"), ViewerSecret)
                    .body.contains("outbox_findings{id=\"no-relay\",severity=\"critical\"} 0\n"));
    }

    // A finding's prepared action, taken by (finding id, key, index) and previewed and run by core's
    // PreparedActionRunner: reason and the previewed count required, viewers refused, a command
    // line (not an audited action) a 400, a count that moved a 409 with nothing changed.
    void preparedActionsRunThroughCore()
    {
        auto db = TestDatabases::fresh(QStringLiteral("sqlite"),
                                       TestDatabases::uniqueName(QStringLiteral("prepared")));
        const auto events = insertEvents(*db, 4);
        forceStatus(*db, events.mid(0, 3), QStringLiteral("FAILED"),
                    QStringLiteral("Broker: Topic authorization failed"));
        WebServer server(testConfig(), DatabaseTarget(db->url(), QString()));
        QVERIFY(server.start().ok());
        HttpTestClient http(server.baseUrl());
        QJsonObject failed;
        QJsonObject noRelay;
        QTRY_VERIFY_WITH_TIMEOUT(
            [&] {
                for (const QJsonValue& v : http.get(QStringLiteral("/api/v1/findings"), ViewerSecret)
                                               .json()
                                               .value(QStringLiteral("findings"))
                                               .toArray()) {
                    if (v.toObject().value(QStringLiteral("id")) == QLatin1String("failed-events"))
                        failed = v.toObject();
                    if (v.toObject().value(QStringLiteral("id")) == QLatin1String("no-relay"))
                        noRelay = v.toObject();
                }
                return !failed.isEmpty() && !noRelay.isEmpty();
            }(),
            20000);
        const QJsonArray actions = failed.value(QStringLiteral("actions")).toArray();
        int requeue = -1;
        for (int i = 0; i < actions.size(); ++i)
            if (actions.at(i).toObject().value(QStringLiteral("operation")) ==
                QLatin1String("events.requeue"))
                requeue = i;
        QVERIFY2(requeue >= 0, QJsonDocument(failed).toJson().constData());
        const QString key = failed.value(QStringLiteral("key")).toString();
        const QString path = QStringLiteral("/api/v1/findings/failed-events/actions/%1").arg(requeue);
        auto body = [&](QJsonObject o) {
            o[QStringLiteral("key")] = key;
            return QJsonDocument(o).toJson(QJsonDocument::Compact);
        };
        const QByteArray dryRun = body({{QStringLiteral("dry_run"), true}});

        QCOMPARE(http.post(path, dryRun, ViewerSecret).status, 403);
        QCOMPARE(http.post(path, dryRun).status, 401);
        const auto preview = http.post(path, dryRun, OperatorSecret);
        QVERIFY2(preview.status == 200, preview.body.constData());
        QCOMPARE(preview.json().value(QStringLiteral("matched")).toInteger(), 3);
        QCOMPARE(preview.json().value(QStringLiteral("dry_run")).toBool(), true);
        QCOMPARE(preview.json()
                     .value(QStringLiteral("prepared_action"))
                     .toObject()
                     .value(QStringLiteral("operation"))
                     .toString(),
                 QStringLiteral("events.requeue"));

        // Refused, nothing changed: no reason, no count, a count other than the preview's, an
        // action past the end, a key of no finding, a command line.
        QCOMPARE(http.post(path, body({{QStringLiteral("expected"), 3}}), OperatorSecret).status, 400);
        QCOMPARE(
            http.post(path, body({{QStringLiteral("reason"), QStringLiteral("r")}}), OperatorSecret).status,
            400);
        const auto moved = http.post(
            path, body({{QStringLiteral("reason"), QStringLiteral("r")}, {QStringLiteral("expected"), 2}}),
            OperatorSecret);
        QVERIFY2(moved.status == 409, moved.body.constData());
        QCOMPARE(
            http.post(QStringLiteral("/api/v1/findings/failed-events/actions/99"), dryRun, OperatorSecret)
                .status,
            404);
        QCOMPARE(http.post(path,
                           QJsonDocument(QJsonObject{{QStringLiteral("key"), QStringLiteral("no-such-key")},
                                                     {QStringLiteral("dry_run"), true}})
                               .toJson(),
                           OperatorSecret)
                     .status,
                 404);
        const QJsonArray relayActions = noRelay.value(QStringLiteral("actions")).toArray();
        for (int i = 0; i < relayActions.size(); ++i) {
            if (relayActions.at(i).toObject().value(QStringLiteral("operation")) != QLatin1String("command"))
                continue;
            const auto command = http.post(
                QStringLiteral("/api/v1/findings/no-relay/actions/%1").arg(i),
                QJsonDocument(QJsonObject{{QStringLiteral("key"), noRelay.value(QStringLiteral("key"))},
                                          {QStringLiteral("reason"), QStringLiteral("r")},
                                          {QStringLiteral("expected"), 0}})
                    .toJson(),
                OperatorSecret);
            QVERIFY2(command.status == 400, command.body.constData());
        }
        for (qint64 id : events.mid(0, 3))
            QCOMPARE(statusOf(*db, id), QStringLiteral("FAILED"));
        QCOMPARE(countRows(*db, QStringLiteral("{audit}")), qint64(0));

        // The run: core's runner, audited under the token's name.
        const auto run = http.post(path,
                                   body({{QStringLiteral("reason"), QStringLiteral("topic ACL fixed")},
                                         {QStringLiteral("expected"), 3}}),
                                   OperatorSecret);
        QVERIFY2(run.status == 200, run.body.constData());
        QCOMPARE(run.json().value(QStringLiteral("affected")).toInteger(), 3);
        for (qint64 id : events.mid(0, 3))
            QCOMPARE(statusOf(*db, id), QStringLiteral("PENDING"));
        QCOMPARE(countRows(*db, QStringLiteral("{audit}"), QStringLiteral("actor = 'olga-ops'")), qint64(1));
    }

    // More rows than one chunk: the run is a job (202, Location), as every bulk action of the API,
    // and it ends with every row of the group changed and audited.
    void preparedActionOverManyRowsRunsAsAJob()
    {
        auto db = TestDatabases::fresh(QStringLiteral("sqlite"),
                                       TestDatabases::uniqueName(QStringLiteral("preparedjob")));
        const auto events = insertEvents(*db, 1500);
        forceStatus(*db, events, QStringLiteral("FAILED"),
                    QStringLiteral("Broker: Topic authorization failed"));
        WebServer server(testConfig(), DatabaseTarget(db->url(), QString()));
        QVERIFY(server.start().ok());
        HttpTestClient http(server.baseUrl());
        QJsonObject failed;
        QTRY_VERIFY_WITH_TIMEOUT(
            [&] {
                for (const QJsonValue& v : http.get(QStringLiteral("/api/v1/findings"), ViewerSecret)
                                               .json()
                                               .value(QStringLiteral("findings"))
                                               .toArray())
                    if (v.toObject().value(QStringLiteral("id")) == QLatin1String("failed-events"))
                        failed = v.toObject();
                return !failed.isEmpty();
            }(),
            20000);
        const QJsonArray actions = failed.value(QStringLiteral("actions")).toArray();
        int requeue = -1;
        for (int i = 0; i < actions.size(); ++i)
            if (actions.at(i).toObject().value(QStringLiteral("operation")) ==
                QLatin1String("events.requeue"))
                requeue = i;
        QVERIFY2(requeue >= 0, QJsonDocument(failed).toJson().constData());
        const QString path = QStringLiteral("/api/v1/findings/failed-events/actions/%1").arg(requeue);
        const QString key = failed.value(QStringLiteral("key")).toString();
        auto body = [&](QJsonObject o) {
            o[QStringLiteral("key")] = key;
            return QJsonDocument(o).toJson(QJsonDocument::Compact);
        };
        const auto preview = http.post(path, body({{QStringLiteral("dry_run"), true}}), OperatorSecret);
        QVERIFY2(preview.status == 200, preview.body.constData());
        QCOMPARE(preview.json().value(QStringLiteral("matched")).toInteger(), 1500);

        const auto run = http.post(path,
                                   body({{QStringLiteral("reason"), QStringLiteral("topic ACL fixed")},
                                         {QStringLiteral("expected"), 1500}}),
                                   OperatorSecret);
        QVERIFY2(run.status == 202, run.body.constData());
        const QString href = run.json().value(QStringLiteral("href")).toString();
        QVERIFY2(href.startsWith(QLatin1String("/api/v1/jobs/")), run.body.constData());
        QJsonObject job;
        QTRY_VERIFY_WITH_TIMEOUT((job = http.get(href, ViewerSecret).json()).value(QStringLiteral("state")) !=
                                     QLatin1String("running"),
                                 30000);
        QCOMPARE(job.value(QStringLiteral("state")).toString(), QStringLiteral("done"));
        QCOMPARE(countRows(*db, QStringLiteral("{events}"), QStringLiteral("status = 'PENDING'")),
                 qint64(1500));
        // One audit row per chunk, under the token's name, with the operator's reason.
        QCOMPARE(countRows(*db, QStringLiteral("{audit}"),
                           QStringLiteral("action = 'events.requeue' AND actor = 'olga-ops' AND reason = "
                                          "'topic ACL fixed'")),
                 qint64(2));
    }

    void pushedOverWebSocketWorstFirst()
    {
        auto db =
            TestDatabases::fresh(QStringLiteral("sqlite"), TestDatabases::uniqueName(QStringLiteral("push")));
        const auto events = insertEvents(*db, 3);
        registerRelay(*db, QStringLiteral("relay-gone"), 10 * 60 * 1000); // relay-stale: warning
        forceStatus(*db, events, QStringLiteral("FAILED"),
                    QStringLiteral("Broker: Topic authorization failed"));
        WebServer server(testConfig(), DatabaseTarget(db->url(), QString()));
        QVERIFY(server.start().ok());
        QUrl ws = server.baseUrl();
        ws.setScheme(QStringLiteral("ws"));
        ws.setPath(QStringLiteral("/ws"));
        QWebSocket socket;
        QVector<QJsonObject> pushes;
        connect(&socket, &QWebSocket::connected, this, [&] {
            socket.sendTextMessage(
                QStringLiteral("{\"type\":\"auth\",\"token\":\"%1\"}").arg(QString::fromUtf8(ViewerSecret)));
        });
        connect(&socket, &QWebSocket::textMessageReceived, this, [&](const QString& text) {
            const QJsonObject o = QJsonDocument::fromJson(text.toUtf8()).object();
            if (o.value(QStringLiteral("type")).toString() == QLatin1String("findings"))
                pushes << o;
        });
        socket.open(ws);
        QTRY_VERIFY_WITH_TIMEOUT(
            !pushes.isEmpty() && !pushes.last().value(QStringLiteral("findings")).toArray().isEmpty(), 15000);
        const QJsonArray findings = pushes.last().value(QStringLiteral("findings")).toArray();
        QCOMPARE(ids(findings),
                 (QStringList{QStringLiteral("failed-events"), QStringLiteral("relay-stale")}));
        QCOMPARE(findings.at(0).toObject().value(QStringLiteral("severity")).toString(),
                 QStringLiteral("critical"));
        QCOMPARE(findings.at(0).toObject().value(QStringLiteral("count")).toInteger(), qint64(3));
        QCOMPARE(findings.at(1).toObject().value(QStringLiteral("severity")).toString(),
                 QStringLiteral("warning"));

        // The state changes: a later push no longer carries the failure group.
        forceStatus(*db, events, QStringLiteral("SENT"));
        QTRY_VERIFY_WITH_TIMEOUT(ids(pushes.last().value(QStringLiteral("findings")).toArray()) ==
                                     QStringList{QStringLiteral("relay-stale")},
                                 15000);
        socket.close();
    }

    void needsAttentionPanelInChromium()
    {
        auto db = TestDatabases::fresh(QStringLiteral("postgresql"),
                                       TestDatabases::uniqueName(QStringLiteral("panel")));
        const auto events = insertEvents(*db, 2);
        registerRelay(*db, QStringLiteral("relay-gone"), 10 * 60 * 1000);
        // An error text with markup: shown as text, never parsed.
        forceStatus(*db, events, QStringLiteral("FAILED"),
                    QStringLiteral("<img src=x onerror=\"document.body.dataset.pwned=1\"> rejected"));
        WebServer server(testConfig(), DatabaseTarget(db->url(), QString()));
        QVERIFY(server.start().ok());

        ChromiumPage page;
        QString error;
        QVERIFY2(page.open(server.baseUrl().toString() + QStringLiteral("#token=") +
                               QString::fromUtf8(ViewerSecret),
                           &error),
                 qPrintable(error));
        const QString count = QStringLiteral("String(document.querySelectorAll('#findings-list li').length)");
        QTRY_COMPARE_WITH_TIMEOUT(page.evaluate(count), QStringLiteral("2"), 30000);
        QCOMPARE(page.evaluate(QStringLiteral("document.querySelector('#attention h2').textContent")),
                 QStringLiteral("Needs attention"));
        QCOMPARE(page.evaluate(QStringLiteral("document.querySelector('#findings-list li').className")),
                 QStringLiteral("critical"));
        const QString first =
            page.evaluate(QStringLiteral("document.querySelector('#findings-list li').textContent"));
        QVERIFY2(first.contains(QLatin1String("2 FAILED event(s)")), qPrintable(first));
        QVERIFY2(first.contains(QLatin1String("<img src=x")), qPrintable(first));
        QVERIFY(first.contains(QLatin1String("outboxctl doctor --check failed-events")));
        QCOMPARE(
            page.evaluate(QStringLiteral("document.querySelectorAll('#findings-list li')[1].dataset.id")),
            QStringLiteral("relay-stale"));
        QCOMPARE(
            page.evaluate(QStringLiteral("String(document.querySelectorAll('#findings-list img').length)")),
            QStringLiteral("0"));
        QCOMPARE(page.evaluate(QStringLiteral("String(document.body.dataset.pwned)")),
                 QStringLiteral("undefined"));

        const QByteArray png = page.screenshotPng();
        QVERIFY(png.startsWith("\x89PNG"));
        QFile out(QDir::current().filePath(QStringLiteral("dashboard-findings.png")));
        QVERIFY(out.open(QIODevice::WriteOnly));
        out.write(png);
        out.close();

        // Fixed: the panel says so.
        forceStatus(*db, events, QStringLiteral("SENT"));
        exec(*db, QStringLiteral("DELETE FROM {relays} WHERE worker_id = 'relay-gone'"));
        QTRY_COMPARE_WITH_TIMEOUT(page.evaluate(count), QStringLiteral("0"), 30000);
        QCOMPARE(page.evaluate(QStringLiteral("document.getElementById('findings-note').textContent")),
                 QStringLiteral("nothing needs attention"));
    }
};

QTEST_GUILESS_MAIN(TestFindingsWeb)
#include "tst_findingsweb.moc"
