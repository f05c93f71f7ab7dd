// The JSON API and /metrics over real HTTP against real PostgreSQL, MariaDB and SQLite.
#include "core/db/DeadLetterStore.h"
#include "core/db/EventWriter.h"
#include "core/metrics/MetricsSampler.h"
#include "core/support/Failpoints.h"
#include "tests/support/BulkEvents.h"
#include "tests/support/TestDatabases.h"
#include "tests/web/HttpTestClient.h"
#include "ui/web/WebServer.h"
#include "ui/web/api/ActionJobs.h"
#include "ui/web/http/AccessControl.h"
#include "ui/web/http/WebReply.h"

#include <QElapsedTimer>
#include <QJsonArray>
#include <QJsonDocument>
#include <QProcess>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace outbox;
using namespace outbox::test;
using namespace outbox::web;

namespace {

const QByteArray ViewerSecret = "viewer-secret-for-tests";
const QByteArray OperatorSecret = "operator-secret-for-tests";

WebConfig testConfig()
{
    WebConfig c;
    c.port = 0; // ephemeral
    c.sampleIntervalMs = 200;
    c.tokens = {
        ApiToken{QStringLiteral("wallboard"), Role::Viewer, AccessControl::hashToken(ViewerSecret)},
        ApiToken{QStringLiteral("alice-ops"), Role::Operator, AccessControl::hashToken(OperatorSecret)}};
    c.maskedFields = {QStringLiteral("card.number"), QStringLiteral("email")};
    return c;
}

// A server on an ephemeral port of 127.0.0.1 plus a client for it.
struct Fixture
{
    std::unique_ptr<Database> db;
    std::unique_ptr<WebServer> server;
    std::unique_ptr<HttpTestClient> http;

    Fixture(const QString& kind, const QString& name, WebConfig config = testConfig())
    {
        db = TestDatabases::fresh(kind, TestDatabases::uniqueName(name));
        server = std::make_unique<WebServer>(config, DatabaseTarget(db->url(), QString()));
        auto port = server->start();
        if (!port)
            qFatal("server did not start: %s", qPrintable(port.message()));
        http = std::make_unique<HttpTestClient>(server->baseUrl());
    }

    // Waits until the sampler has published a snapshot taken after this call.
    bool freshSample()
    {
        // A tick already under way may have read the tables before the caller's change; the
        // second one published after this call started after it.
        QSignalSpy spy(server.get(), &WebServer::snapshotPublished);
        server->sampler().sampleNow();
        QElapsedTimer t;
        t.start();
        while (spy.count() < 2 && t.elapsed() < 10000)
            spy.wait(200);
        return spy.count() >= 2;
    }
};

qint64 insertWithPayload(Database& db, const QByteArray& payload)
{
    NewEvent e;
    e.eventType = QStringLiteral("CardCharged");
    e.aggregateType = QStringLiteral("Payment");
    e.aggregateId = QStringLiteral("pay-1");
    e.payload = payload;
    if (!db.beginWrite())
        qFatal("begin failed");
    auto id = EventWriter(db).append(e);
    if (!id || !db.commit())
        qFatal("insert failed");
    return db.scalar(QStringLiteral("SELECT MAX(id) FROM {events}")).value().toLongLong();
}

// Polls GET /api/v1/jobs/{id} (as a viewer) until the job leaves "running".
QJsonObject waitForJob(HttpTestClient& http, const QString& id, int timeoutMs = 60000)
{
    QElapsedTimer t;
    t.start();
    QJsonObject job;
    while (t.elapsed() < timeoutMs) {
        const auto r = http.get(QStringLiteral("/api/v1/jobs/") + id, ViewerSecret);
        if (r.status != 200)
            return QJsonObject{{QStringLiteral("http_status"), r.status}};
        job = r.json();
        if (job.value(QStringLiteral("state")).toString() != QLatin1String("running"))
            return job;
        QTest::qWait(50);
    }
    return job;
}

} // namespace

class TestWebApi : public QObject
{
    Q_OBJECT

private slots:
    void cleanup() { QVERIFY(Failpoints::configure(QString()).ok()); }

    void authMatrix_data() { TestDatabases::addKinds(); }
    void authMatrix()
    {
        QFETCH(QString, kind);
        Fixture f(kind, QStringLiteral("auth"));
        const auto ids = insertEvents(*f.db, 3);
        forceStatus(*f.db, ids, QStringLiteral("FAILED"), QStringLiteral("boom"));
        const QByteArray dryRun =
            QByteArrayLiteral("{\"ids\":[") + QByteArray::number(ids.first()) + "],\"dry_run\":true}";

        struct Case
        {
            QByteArray token;
            int read;
            int mutate;
        };
        const QList<Case> cases = {
            {{}, 401, 401}, {"not-a-token", 401, 401}, {ViewerSecret, 200, 403}, {OperatorSecret, 200, 200}};
        for (const Case& c : cases) {
            const auto read = f.http->get(QStringLiteral("/api/v1/events"), c.token);
            QVERIFY2(read.status == c.read, qPrintable(QStringLiteral("read with '%1': %2 %3")
                                                           .arg(QString::fromUtf8(c.token))
                                                           .arg(read.status)
                                                           .arg(QString::fromUtf8(read.body))));
            const auto mutate = f.http->post(QStringLiteral("/api/v1/events/requeue"), dryRun, c.token);
            QVERIFY2(mutate.status == c.mutate, qPrintable(QStringLiteral("mutate with '%1': %2")
                                                               .arg(QString::fromUtf8(c.token))
                                                               .arg(mutate.status)));
            QVERIFY(!mutate.json().isEmpty()); // JSON bodies for errors too
            if (c.mutate >= 400)
                QVERIFY(!mutate.json().value(QStringLiteral("error")).toString().isEmpty());
        }
        QCOMPARE(f.http->get(QStringLiteral("/metrics")).status, 401);
        QVERIFY(f.freshSample());
        QCOMPARE(f.http->get(QStringLiteral("/metrics"), ViewerSecret).status, 200);
        // The page shell carries no data and loads without a token; its data needs one on /ws.
        QCOMPARE(f.http->get(QStringLiteral("/")).status, 200);
        QCOMPARE(f.http->get(QStringLiteral("/api/v1/nothing"), ViewerSecret).status, 404);
        QCOMPARE(f.http->get(QStringLiteral("/api/v1/events/requeue"), OperatorSecret).status, 405);
        // Nothing changed through all of that.
        for (qint64 id : ids)
            QCOMPARE(statusOf(*f.db, id), QStringLiteral("FAILED"));
        QCOMPARE(countRows(*f.db, QStringLiteral("{audit}")), qint64(0));
    }

    void publicDashboardKeepsTheApiClosed()
    {
        WebConfig config = testConfig();
        config.publicDashboard = true;
        Fixture f(QStringLiteral("sqlite"), QStringLiteral("public"), config);
        const auto ids = insertEvents(*f.db, 2);
        forceStatus(*f.db, ids, QStringLiteral("FAILED"), QStringLiteral("x"));
        QVERIFY(f.freshSample());
        QCOMPARE(f.http->get(QStringLiteral("/metrics")).status, 200); // read-only numbers are public
        QCOMPARE(f.http->get(QStringLiteral("/api/v1/events")).status, 401);
        QCOMPARE(
            f.http->post(QStringLiteral("/api/v1/events/requeue"), "{\"ids\":[1],\"reason\":\"r\"}").status,
            401);
        QCOMPARE(f.http
                     ->post(QStringLiteral("/api/v1/events/requeue"), "{\"ids\":[1],\"reason\":\"r\"}",
                            ViewerSecret)
                     .status,
                 403);
        QCOMPARE(statusOf(*f.db, ids.first()), QStringLiteral("FAILED"));
    }

    // The pages, files, /metrics, /ws and the runbooks come from the same route table as the API:
    // the same 404, and 405 with Allow for another method.
    void siteRoutesAnswerLikeTheApi()
    {
        Fixture f(QStringLiteral("sqlite"), QStringLiteral("site"));
        HttpTestClient& http = *f.http;
        const QList<std::pair<QString, int>> gets = {
            {QStringLiteral("/"), 200},
            {QStringLiteral("/static/dashboard.js"), 200},
            {QStringLiteral("/static/dashboard.css"), 200},
            {QStringLiteral("/static/chart.js"), 200},
            {QStringLiteral("/static/other.js"), 404},
            {QStringLiteral("/console"), 200}, // 301 to /console/, followed
            {QStringLiteral("/console/"), 200},
            {QStringLiteral("/console/console.js"), 200},
            {QStringLiteral("/console/zh_CN.json"), 200},
            {QStringLiteral("/console/missing.js"), 404},
            {QStringLiteral("/console/.hidden.js"), 404},
            {QStringLiteral("/docs/runbooks"), 200},
            {QStringLiteral("/docs/runbooks/"), 200},
            {QStringLiteral("/docs/runbooks/README.md"), 200},
            {QStringLiteral("/docs/runbooks/no-such-finding"), 404},
            {QStringLiteral("/docs/runbooks/Bad"), 404},
            {QStringLiteral("/ws"), 426},
            {QStringLiteral("/nothing"), 404},
            {QStringLiteral("/metrics"), 401},
        };
        for (const auto& [path, status] : gets) {
            const auto r = http.get(path);
            QVERIFY2(r.status == status, qPrintable(QStringLiteral("GET %1: %2 %3")
                                                        .arg(path)
                                                        .arg(r.status)
                                                        .arg(QString::fromUtf8(r.body.left(200)))));
            if (status >= 400)
                QVERIFY2(!r.json().value(QStringLiteral("error")).toString().isEmpty(), qPrintable(path));
        }
        QCOMPARE(http.get(QStringLiteral("/metrics")).header("WWW-Authenticate"),
                 QByteArray("Bearer realm=\"outbox\""));
        QVERIFY(http.get(QStringLiteral("/console/"))
                    .header("Content-Security-Policy")
                    .contains("frame-ancestors"));
        QVERIFY(http.get(QStringLiteral("/docs/runbooks/")).body.contains("#"));
        // Another method: 405 naming the one the path takes, for pages and API alike (HEAD too).
        const QList<std::tuple<QByteArray, QString, QByteArray>> others = {
            // Without [oidc], no POST / or POST /console/ (the identity provider's answer to a
            // sign-in; tst_oidcsignin checks them with it).
            {"DELETE", QStringLiteral("/"), "GET"},
            {"HEAD", QStringLiteral("/"), "GET"},
            {"POST", QStringLiteral("/"), "GET"},
            {"PUT", QStringLiteral("/console/"), "GET"},
            {"POST", QStringLiteral("/console/"), "GET"},
            {"DELETE", QStringLiteral("/metrics"), "GET"},
            {"DELETE", QStringLiteral("/docs/runbooks/README.md"), "GET"},
            {"DELETE", QStringLiteral("/api/v1/events"), "GET"},
            {"GET", QStringLiteral("/api/v1/events/requeue"), "POST"},
            {"PUT", QStringLiteral("/api/v1/dead-letters/1"), "GET, PATCH"},
        };
        for (const auto& [method, path, allow] : others) {
            const auto r = http.send(method, path, {}, OperatorSecret);
            QVERIFY2(r.status == 405 && r.header("Allow") == allow,
                     qPrintable(QStringLiteral("%1 %2: %3 Allow: %4")
                                    .arg(QString::fromLatin1(method), path)
                                    .arg(r.status)
                                    .arg(QString::fromLatin1(r.header("Allow")))));
        }
        // A body for a page: only the identity provider's sign-in answer (at most 16 KiB) is taken,
        // and without [oidc] there is none: 405 as for any method a path is not served for.
        QCOMPARE(http.post(QStringLiteral("/"), "{}", OperatorSecret).status, 405);
        QCOMPARE(http.post(QStringLiteral("/api/v1/nothing"), "{}", OperatorSecret).status, 404);
        // Without [oidc]: /api/v1/me as it always was, /api/v1/auth says so and has no token route.
        QCOMPARE(http.get(QStringLiteral("/api/v1/me"), OperatorSecret).json().keys(),
                 (QStringList{QStringLiteral("may_change"), QStringLiteral("name"), QStringLiteral("role")}));
        QCOMPARE(http.get(QStringLiteral("/api/v1/auth")).json(),
                 (QJsonObject{{QStringLiteral("oidc"), false}}));
        QCOMPARE(http.post(QStringLiteral("/api/v1/auth/token"), "{}").status, 404);
    }

    void listsPageAndFind_data() { TestDatabases::addKinds(); }
    void listsPageAndFind()
    {
        QFETCH(QString, kind);
        Fixture f(kind, QStringLiteral("pages"));
        const auto ids = insertEvents(*f.db, 25);
        forceStatus(*f.db, ids.mid(0, 5), QStringLiteral("FAILED"), QStringLiteral("broker said no"));
        QSet<qint64> seen;
        QString next = QStringLiteral("/api/v1/events?limit=10");
        int pages = 0;
        while (!next.isEmpty()) {
            const auto r = f.http->get(next, ViewerSecret);
            QCOMPARE(r.status, 200);
            for (const QJsonValue& v : r.json().value(QStringLiteral("events")).toArray())
                seen.insert(v.toObject().value(QStringLiteral("id")).toInteger());
            const QJsonValue cursor = r.json().value(QStringLiteral("next_after_id"));
            next = cursor.isNull()
                       ? QString()
                       : QStringLiteral("/api/v1/events?limit=10&after_id=%1").arg(cursor.toInteger());
            QVERIFY(++pages <= 4);
        }
        QCOMPARE(seen.size(), 25);
        // The error filter is an operator's: it searches text that is masked for viewers.
        const auto failed =
            f.http->get(QStringLiteral("/api/v1/events?status=failed&error=BROKER"), OperatorSecret);
        QCOMPARE(failed.json().value(QStringLiteral("events")).toArray().size(), 5);
        const auto one = f.http->get(QStringLiteral("/api/v1/events/%1").arg(ids.at(7)), ViewerSecret);
        QCOMPARE(one.status, 200);
        QCOMPARE(one.json().value(QStringLiteral("id")).toInteger(), ids.at(7));
        const QString eventId = one.json().value(QStringLiteral("event_id")).toString();
        QCOMPARE(f.http->get(QStringLiteral("/api/v1/events/") + eventId, ViewerSecret)
                     .json()
                     .value(QStringLiteral("id"))
                     .toInteger(),
                 ids.at(7));
        const auto missing = f.http->get(QStringLiteral("/api/v1/events/99999999"), ViewerSecret);
        QCOMPARE(missing.status, 404);
        QVERIFY(!missing.json().value(QStringLiteral("error")).toString().isEmpty());
        QCOMPARE(f.http->get(QStringLiteral("/api/v1/events?status=bogus"), ViewerSecret).status, 400);
        QCOMPARE(f.http->get(QStringLiteral("/api/v1/events?limit=0"), ViewerSecret).status, 400);
        QCOMPARE(f.http->get(QStringLiteral("/api/v1/events?sort=id;drop"), ViewerSecret).status, 400);
        QCOMPARE(f.http->get(QStringLiteral("/api/v1/dead-letters?status=NEW"), ViewerSecret).status, 200);
        QCOMPARE(f.http->get(QStringLiteral("/api/v1/audit"), ViewerSecret).status, 200);
        QVERIFY(f.freshSample());
        const auto summary = f.http->get(QStringLiteral("/api/v1/summary"), ViewerSecret);
        QCOMPARE(summary.status, 200);
        QCOMPARE(summary.json()
                     .value(QStringLiteral("events"))
                     .toObject()
                     .value(QStringLiteral("PENDING"))
                     .toInteger(),
                 20);
        QCOMPARE(summary.json().value(QStringLiteral("stale")).toBool(), false);
    }

    void dryRunThenRealIsAudited_data() { TestDatabases::addKinds(); }
    void dryRunThenRealIsAudited()
    {
        QFETCH(QString, kind);
        Fixture f(kind, QStringLiteral("dryrun"));
        const auto ids = insertEvents(*f.db, 6);
        forceStatus(*f.db, ids.mid(0, 4), QStringLiteral("FAILED"), QStringLiteral("schema mismatch"));
        const QByteArray body =
            "{\"filter\":{\"status\":\"FAILED\"},\"reason\":\"fixed the schema\",\"dry_run\":true}";
        const auto dry = f.http->post(QStringLiteral("/api/v1/events/requeue"), body, OperatorSecret);
        QCOMPARE(dry.status, 200);
        QCOMPARE(dry.json().value(QStringLiteral("dry_run")).toBool(), true);
        QCOMPARE(dry.json().value(QStringLiteral("matched")).toInteger(), 4);
        QCOMPARE(dry.json().value(QStringLiteral("affected")).toInteger(), 0);
        QCOMPARE(statusOf(*f.db, ids.first()), QStringLiteral("FAILED"));
        QCOMPARE(countRows(*f.db, QStringLiteral("{audit}")), qint64(0));

        QByteArray real = body;
        real.replace("\"dry_run\":true", "\"dry_run\":false");
        const auto done = f.http->post(QStringLiteral("/api/v1/events/requeue"), real, OperatorSecret);
        QCOMPARE(done.status, 200);
        QCOMPARE(done.json().value(QStringLiteral("affected")).toInteger(), 4);
        for (qint64 id : ids.mid(0, 4))
            QCOMPARE(statusOf(*f.db, id), QStringLiteral("PENDING"));
        QCOMPARE(countRows(*f.db, QStringLiteral("{audit}"),
                           QStringLiteral("actor = 'alice-ops' AND action = 'events.requeue'")),
                 qint64(1));
        const auto audit = f.http->get(QStringLiteral("/api/v1/audit?actor=alice-ops"), ViewerSecret);
        const QJsonArray entries = audit.json().value(QStringLiteral("entries")).toArray();
        QCOMPARE(entries.size(), 1);
        QCOMPARE(entries.first().toObject().value(QStringLiteral("reason")).toString(),
                 QStringLiteral("fixed the schema"));

        // Mark DEAD needs a reason; without one nothing changes.
        const QByteArray dead = "{\"ids\":[" + QByteArray::number(ids.at(5)) + "]}";
        const auto refused = f.http->post(QStringLiteral("/api/v1/events/dead"), dead, OperatorSecret);
        QCOMPARE(refused.status, 400);
        QCOMPARE(statusOf(*f.db, ids.at(5)), QStringLiteral("PENDING"));
        const QByteArray deadWithReason =
            "{\"ids\":[" + QByteArray::number(ids.at(5)) + "],\"reason\":\"poison\"}";
        QCOMPARE(f.http->post(QStringLiteral("/api/v1/events/dead"), deadWithReason, OperatorSecret).status,
                 200);
        QCOMPARE(statusOf(*f.db, ids.at(5)), QStringLiteral("DEAD"));
    }

    // A filter action on more than one chunk answers 202 with a job; the job runs in audited
    // chunks off the HTTP thread and GET shows its progress and outcome to any reader. A small
    // group stays synchronous.
    void filterActionOverAChunkRunsAsAJob_data() { TestDatabases::addKinds(); }
    void filterActionOverAChunkRunsAsAJob()
    {
        QFETCH(QString, kind);
        Fixture f(kind, QStringLiteral("job"));
        insertGeneratedEvents(*f.db, 2500, 1);
        const QByteArray body = "{\"filter\":{\"status\":\"FAILED\"},\"reason\":\"broker fixed\"}";
        const auto started = f.http->post(QStringLiteral("/api/v1/events/requeue"), body, OperatorSecret);
        QVERIFY2(started.status == 202, started.body.constData());
        const QString id = started.json().value(QStringLiteral("id")).toString();
        QVERIFY(!id.isEmpty());
        QCOMPARE(started.json().value(QStringLiteral("href")).toString(),
                 QStringLiteral("/api/v1/jobs/") + id);
        QCOMPARE(started.json().value(QStringLiteral("actor")).toString(), QStringLiteral("alice-ops"));
        QCOMPARE(f.http->del(QStringLiteral("/api/v1/jobs/") + id, ViewerSecret).status, 403);

        const QJsonObject job = waitForJob(*f.http, id);
        QCOMPARE(job.value(QStringLiteral("state")).toString(), QStringLiteral("done"));
        const QJsonObject progress = job.value(QStringLiteral("progress")).toObject();
        QCOMPARE(progress.value(QStringLiteral("processed")).toInteger(), qint64(2500));
        QCOMPARE(progress.value(QStringLiteral("chunks")).toInt(), 3);
        const QJsonObject result = job.value(QStringLiteral("result")).toObject();
        QCOMPARE(result.value(QStringLiteral("affected")).toInteger(), qint64(2500));
        QCOMPARE(result.value(QStringLiteral("audit_ids")).toArray().size(), 3);
        QVERIFY(!result.contains(QStringLiteral("sample")));
        QCOMPARE(countRows(*f.db, QStringLiteral("{audit}"),
                           QStringLiteral("reason = 'broker fixed' AND actor = 'alice-ops'")),
                 qint64(3));
        QCOMPARE(countRows(*f.db, QStringLiteral("{events}"), QStringLiteral("status = 'PENDING'")),
                 qint64(2500));
        const auto list = f.http->get(QStringLiteral("/api/v1/jobs"), ViewerSecret);
        QCOMPARE(list.status, 200);
        QCOMPARE(list.json().value(QStringLiteral("jobs")).toArray().size(), 1);
        QCOMPARE(f.http->get(QStringLiteral("/api/v1/jobs/0000-no-such-job"), ViewerSecret).status, 404);
        QCOMPARE(f.http->del(QStringLiteral("/api/v1/jobs/") + id, OperatorSecret).status, 409);
        QCOMPARE(f.http->del(QStringLiteral("/api/v1/events"), OperatorSecret).status, 405);

        // A failure group of one chunk's worth answers at once, as before.
        const auto others = insertEvents(*f.db, 5);
        forceStatus(*f.db, others, QStringLiteral("FAILED"),
                    QStringLiteral("Broker: Topic authorization failed"));
        const QByteArray group =
            "{\"group\":{\"error_class\":\"\",\"fingerprint\":\"Broker: Topic authorization "
            "failed\"},\"reason\":\"ACL fixed\"}";
        const auto small = f.http->post(QStringLiteral("/api/v1/events/requeue"), group, OperatorSecret);
        QVERIFY2(small.status == 200, small.body.constData());
        QCOMPARE(small.json().value(QStringLiteral("affected")).toInteger(), qint64(5));
        QCOMPARE(small.json().value(QStringLiteral("chunks")).toInt(), 1);
    }

    // DELETE cancels a job between chunks: the committed chunk stays, the rest is untouched.
    void deleteCancelsAJobBetweenChunks_data() { TestDatabases::addKinds(); }
    void deleteCancelsAJobBetweenChunks()
    {
        QFETCH(QString, kind);
        Fixture f(kind, QStringLiteral("jobcancel"));
        insertGeneratedEvents(*f.db, 2500, 1);
        // A pause after each chunk, so that the DELETE lands between chunks on any machine.
        QVERIFY(Failpoints::configure(QStringLiteral("ops.bulk.between_chunks=sleep(2000)")).ok());
        const auto started =
            f.http->post(QStringLiteral("/api/v1/events/dead"),
                         "{\"filter\":{\"status\":[\"FAILED\"]},\"reason\":\"poison\"}", OperatorSecret);
        QVERIFY2(started.status == 202, started.body.constData());
        const QString id = started.json().value(QStringLiteral("id")).toString();
        QElapsedTimer t;
        t.start();
        int chunks = 0;
        while (chunks < 1 && t.elapsed() < 30000) {
            QTest::qWait(50);
            chunks = f.http->get(QStringLiteral("/api/v1/jobs/") + id, ViewerSecret)
                         .json()
                         .value(QStringLiteral("progress"))
                         .toObject()
                         .value(QStringLiteral("chunks"))
                         .toInt();
        }
        QCOMPARE(chunks, 1);
        const auto cancel = f.http->del(QStringLiteral("/api/v1/jobs/") + id, OperatorSecret);
        QVERIFY2(cancel.status == 202, cancel.body.constData());
        QCOMPARE(cancel.json().value(QStringLiteral("cancel_requested")).toBool(), true);
        const QJsonObject job = waitForJob(*f.http, id);
        QVERIFY(Failpoints::configure(QString()).ok());
        QCOMPARE(job.value(QStringLiteral("state")).toString(), QStringLiteral("cancelled"));
        QCOMPARE(job.value(QStringLiteral("result")).toObject().value(QStringLiteral("affected")).toInteger(),
                 qint64(1000));
        QCOMPARE(countRows(*f.db, QStringLiteral("{events}"), QStringLiteral("status = 'DEAD'")),
                 qint64(1000));
        QCOMPARE(countRows(*f.db, QStringLiteral("{events}"), QStringLiteral("status = 'FAILED'")),
                 qint64(1500));
        QCOMPARE(countRows(*f.db, QStringLiteral("{audit}"), QStringLiteral("reason = 'poison'")), qint64(1));
    }

    // At most ActionJobs::MaxRunning jobs run at once; one more gets 429 and changes nothing.
    void jobsAreBounded()
    {
        Fixture f(QStringLiteral("sqlite"), QStringLiteral("jobcap"));
        insertGeneratedEvents(*f.db, 3000, 1);
        QVERIFY(Failpoints::configure(QStringLiteral("ops.bulk.between_chunks=sleep(3000)")).ok());
        QStringList ids;
        for (int i = 0; i < ActionJobs::MaxRunning; ++i) {
            const auto r =
                f.http->post(QStringLiteral("/api/v1/events/requeue"),
                             "{\"filter\":{\"status\":\"FAILED\"},\"reason\":\"r\"}", OperatorSecret);
            QVERIFY2(r.status == 202, r.body.constData());
            ids << r.json().value(QStringLiteral("id")).toString();
        }
        const auto third =
            f.http->post(QStringLiteral("/api/v1/events/requeue"),
                         "{\"filter\":{\"status\":\"FAILED\"},\"reason\":\"third\"}", OperatorSecret);
        QCOMPARE(third.status, 429);
        for (const QString& id : ids)
            QVERIFY(f.http->del(QStringLiteral("/api/v1/jobs/") + id, OperatorSecret).status == 202);
        for (const QString& id : ids)
            QCOMPARE(waitForJob(*f.http, id).value(QStringLiteral("state")).toString(),
                     QStringLiteral("cancelled"));
        QVERIFY(Failpoints::configure(QString()).ok());
        QCOMPARE(countRows(*f.db, QStringLiteral("{audit}"), QStringLiteral("reason = 'third'")), qint64(0));
    }

    void badBodiesChangeNothing_data() { TestDatabases::addKinds(); }
    void badBodiesChangeNothing()
    {
        QFETCH(QString, kind);
        Fixture f(kind, QStringLiteral("badbody"));
        const auto ids = insertEvents(*f.db, 3);
        forceStatus(*f.db, ids, QStringLiteral("FAILED"), QStringLiteral("x"));
        const QList<QByteArray> malformed = {
            "{\"ids\":[1,",
            "not json",
            "[1,2,3]",
            "\"text\"",
            "",
            "{\"ids\":\"1; DROP TABLE outbox_events\"}",
            "{\"ids\":[1.5]}",
            "{\"ids\":[-1]}",
            "{\"dry_run\":\"yes\",\"ids\":[1]}",
            "{\"unknown\":1}",
            "{\"filter\":{\"status\":\"FAILED\",\"sql\":\"1=1\"},\"reason\":\"r\"}"};
        for (const QByteArray& body : malformed) {
            const auto r = f.http->post(QStringLiteral("/api/v1/events/requeue"), body, OperatorSecret);
            QVERIFY2(r.status == 400,
                     qPrintable(QStringLiteral("%1 -> %2").arg(QString::fromUtf8(body)).arg(r.status)));
            const QString error = r.json().value(QStringLiteral("error")).toString();
            QVERIFY2(!error.isEmpty() && !error.contains(QLatin1Char('\n')), qPrintable(error));
        }
        QByteArray huge = "{\"reason\":\"";
        huge += QByteArray(2 * 1024 * 1024, 'a');
        huge += "\",\"filter\":{\"status\":\"FAILED\"}}";
        const auto tooBig = f.http->post(QStringLiteral("/api/v1/events/requeue"), huge, OperatorSecret);
        QCOMPARE(tooBig.status, 413);
        QVERIFY(!tooBig.json().value(QStringLiteral("error")).toString().isEmpty());
        for (qint64 id : ids)
            QCOMPARE(statusOf(*f.db, id), QStringLiteral("FAILED"));
        QCOMPARE(countRows(*f.db, QStringLiteral("{audit}")), qint64(0));
        // The server is still healthy afterwards.
        QCOMPARE(f.http->get(QStringLiteral("/api/v1/events"), ViewerSecret).status, 200);
    }

    // Filters and groups are read by core/db (EventFilter, DeadLetterFilter, FailureGroup,
    // DeadLetterGroup::fromJson): an unknown field or a value of the wrong type is one 400 that names
    // it, never a field read as empty (a filter that lost its "type" would requeue every FAILED
    // event), and nothing changes.
    void filtersAndGroupsOfTheWrongShapeAreRefused()
    {
        Fixture f(QStringLiteral("sqlite"), QStringLiteral("shapes"));
        const auto ids = insertEvents(*f.db, 3);
        forceStatus(*f.db, ids, QStringLiteral("FAILED"), QStringLiteral("boom"));
        DeadLetter letter;
        letter.consumerName = QStringLiteral("inventory");
        letter.topic = QStringLiteral("orders");
        letter.eventId = QStringLiteral("ev-1");
        letter.payload = QByteArrayLiteral("{}");
        letter.headers = QByteArrayLiteral("{}");
        letter.error = QStringLiteral("cannot reserve stock");
        QVERIFY(DeadLetterStore(*f.db).insert(letter).ok());

        struct Case
        {
            QString path;
            QByteArray body;
            QString says; // a part of the one-line error
        };
        const QList<Case> cases = {
            {QStringLiteral("/api/v1/events/requeue"), R"({"filter":{"status":"FAILED","type":5}})",
             QStringLiteral("filter field \"type\" must be a string")},
            {QStringLiteral("/api/v1/events/requeue"), R"({"filter":{"status":"FAILED","error":["boom"]}})",
             QStringLiteral("filter field \"error\" must be a string")},
            {QStringLiteral("/api/v1/events/requeue"), R"({"filter":{"status":["FAILED",3]}})",
             QStringLiteral("field \"status\" must be an array of strings")},
            {QStringLiteral("/api/v1/events/requeue"), R"({"filter":{"statuz":"FAILED"}})",
             QStringLiteral("unknown filter field \"statuz\" (expected status, type,")},
            {QStringLiteral("/api/v1/events/requeue"), R"({"group":"boom"})",
             QStringLiteral("group must be a JSON object")},
            {QStringLiteral("/api/v1/events/requeue"), R"({"group":{"error_class":1,"fingerprint":"boom"}})",
             QStringLiteral("group field \"error_class\" must be a string")},
            {QStringLiteral("/api/v1/events/requeue"),
             R"({"group":{"error_class":"x","fingerprint":"boom","count":3}})",
             QStringLiteral("unknown group field \"count\"")},
            {QStringLiteral("/api/v1/events/dead"),
             R"({"group":{"error_class":"x","fingerprint":"boom","statuses":["NOPE"]}})",
             QStringLiteral("unknown status \"NOPE\"")},
            {QStringLiteral("/api/v1/dead-letters/replay"), R"({"filter":{"consumer":5}})",
             QStringLiteral("filter field \"consumer\" must be a string")},
            {QStringLiteral("/api/v1/dead-letters/discard"),
             R"({"filter":{"consumer":"inventory","topics":"x"}})",
             QStringLiteral(
                 "unknown filter field \"topics\" (expected status, consumer, topic, event_id, error)")},
            {QStringLiteral("/api/v1/dead-letters/discard"), R"({"filter":{"status":{"NEW":true}}})",
             QStringLiteral("field \"status\" must be an array of strings")},
            {QStringLiteral("/api/v1/dead-letters/replay"),
             R"({"group":{"consumer":"inventory","error_class":"permanent","fingerprint":"f","statuses":"GONE"}})",
             QStringLiteral("unknown dead-letter status \"GONE\"")},
            {QStringLiteral("/api/v1/dead-letters/groups/edit/preview"),
             R"({"group":{"consumer":"inventory","error_class":"permanent","fingerprint":"f","example":"x"},)"
             R"("change":{"set":"sku","value":"A"}})",
             QStringLiteral("unknown group field \"example\"")},
            {QStringLiteral("/api/v1/dead-letters/groups/edit/preview"),
             R"({"group":{"consumer":"inventory","error_class":"permanent","fingerprint":"f",)"
             R"("statuses":["REPLAYED"]},"change":{"set":"sku","value":"A"}})",
             QStringLiteral("only NEW dead letters can be edited")},
        };
        for (const Case& c : cases) {
            QJsonObject body = QJsonDocument::fromJson(c.body).object();
            QVERIFY2(!body.isEmpty(), c.body.constData());
            if (!c.path.contains(QLatin1String("/edit/")))
                body[QStringLiteral("reason")] = QStringLiteral("shape test");
            const auto r = f.http->post(c.path, QJsonDocument(body).toJson(), OperatorSecret);
            const QString error = r.json().value(QStringLiteral("error")).toString();
            QVERIFY2(r.status == 400, qPrintable(QStringLiteral("%1 %2 -> %3 %4")
                                                     .arg(c.path, QString::fromUtf8(c.body))
                                                     .arg(r.status)
                                                     .arg(error)));
            QVERIFY2(error.contains(c.says) && !error.contains(QLatin1Char('\n')),
                     qPrintable(QStringLiteral("%1: %2").arg(QString::fromUtf8(c.body), error)));
        }
        // The lists read their query by the same names and rules.
        for (const QString& query : {QStringLiteral("/api/v1/dead-letters?status=NEW,GONE"),
                                     QStringLiteral("/api/v1/dead-letters?topics=orders"),
                                     QStringLiteral("/api/v1/events?status=FAILED,NOPE")})
            QVERIFY2(f.http->get(query, ViewerSecret).status == 400, qPrintable(query));
        const auto letters = f.http->get(
            QStringLiteral("/api/v1/dead-letters?status=NEW,REPLAYED&event_id=ev-1"), ViewerSecret);
        QCOMPARE(letters.status, 200);
        QCOMPARE(letters.json().value(QStringLiteral("dead_letters")).toArray().size(), 1);

        for (qint64 id : ids)
            QCOMPARE(statusOf(*f.db, id), QStringLiteral("FAILED"));
        QCOMPARE(countRows(*f.db, QStringLiteral("{dead_letters}"), QStringLiteral("status = 'NEW'")),
                 qint64(1));
        QCOMPARE(countRows(*f.db, QStringLiteral("{audit}")), qint64(0));
    }

    // GET /api/v1/filters names the fields the lists take (the web console builds its forms from
    // them): each is a query parameter its list accepts, with a label; another name is refused.
    void theFiltersTheListsTakeAreServed()
    {
        Fixture f(QStringLiteral("sqlite"), QStringLiteral("filters"));
        const auto r = f.http->get(QStringLiteral("/api/v1/filters"), ViewerSecret);
        QCOMPARE(r.status, 200);
        for (const auto& [list, path] :
             {std::pair{QStringLiteral("events"), QStringLiteral("/api/v1/events")},
              std::pair{QStringLiteral("dead_letters"), QStringLiteral("/api/v1/dead-letters")}}) {
            const QJsonArray fields = r.json().value(list).toArray();
            QVERIFY2(fields.size() >= 5, qPrintable(list));
            QStringList names;
            for (const QJsonValue& v : fields) {
                const QJsonObject field = v.toObject();
                const QString name = field.value(QStringLiteral("name")).toString();
                names << name;
                QVERIFY2(!field.value(QStringLiteral("label")).toString().isEmpty(), qPrintable(name));
                const QJsonArray choices = field.value(QStringLiteral("choices")).toArray();
                const QString example = field.value(QStringLiteral("example")).toString();
                const QString value = !choices.isEmpty()  ? choices.first().toString()
                                      : example.isEmpty() ? QStringLiteral("x")
                                                          : example;
                QUrlQuery q;
                q.addQueryItem(name, value);
                // Error texts are searched by operators only (tst_viewerleaks).
                const auto listed =
                    f.http->get(path + QLatin1Char('?') + q.toString(QUrl::FullyEncoded), OperatorSecret);
                QVERIFY2(listed.status == 200, qPrintable(QStringLiteral("%1?%2=%3 -> %4 %5")
                                                              .arg(path, name, value)
                                                              .arg(listed.status)
                                                              .arg(QString::fromUtf8(listed.body))));
            }
            QCOMPARE(names.size(), QSet<QString>(names.begin(), names.end()).size());
            QVERIFY(names.contains(QStringLiteral("status")));
            QCOMPARE(f.http->get(path + QStringLiteral("?not_a_field=1"), ViewerSecret).status, 400);
        }
    }

    void injectionInFiltersMatchesNothing_data() { TestDatabases::addKinds(); }
    void injectionInFiltersMatchesNothing()
    {
        QFETCH(QString, kind);
        Fixture f(kind, QStringLiteral("inject"));
        const auto ids = insertEvents(*f.db, 8);
        forceStatus(*f.db, ids.mid(0, 3), QStringLiteral("FAILED"), QStringLiteral("boom"));
        const QStringList attacks = {QStringLiteral("' OR '1'='1"),
                                     QStringLiteral("x'; DROP TABLE outbox_events; --"),
                                     QStringLiteral("%' OR 1=1 --"),
                                     QStringLiteral("\") OR (\"1\"=\"1"),
                                     QStringLiteral("1 UNION SELECT * FROM outbox_audit_log"),
                                     QStringLiteral("%"),
                                     QStringLiteral("_")};
        for (const QString& attack : attacks) {
            for (const QString& field : {QStringLiteral("type"), QStringLiteral("aggregate"),
                                         QStringLiteral("aggregate_type"), QStringLiteral("error")}) {
                QUrlQuery q;
                q.addQueryItem(field, attack);
                // The error filter is an operator's (viewers get 400 for it: tst_viewerleaks).
                const QByteArray& secret = field == QLatin1String("error") ? OperatorSecret : ViewerSecret;
                const auto r =
                    f.http->get(QStringLiteral("/api/v1/events?") + q.toString(QUrl::FullyEncoded), secret);
                QVERIFY2(r.status == 200, qPrintable(field + QLatin1Char(' ') + attack));
                QVERIFY2(r.json().value(QStringLiteral("events")).toArray().isEmpty(),
                         qPrintable(field + QLatin1Char(' ') + attack));
            }
            const QJsonObject body{{QStringLiteral("filter"), QJsonObject{{QStringLiteral("type"), attack}}},
                                   {QStringLiteral("reason"), attack}};
            const auto r = f.http->post(QStringLiteral("/api/v1/events/dead"), QJsonDocument(body).toJson(),
                                        OperatorSecret);
            QVERIFY2(r.status == 200, qPrintable(QString::fromUtf8(r.body)));
            QCOMPARE(r.json().value(QStringLiteral("affected")).toInteger(), 0);
            const auto status = f.http->get(QStringLiteral("/api/v1/events?status=") +
                                                QString::fromLatin1(QUrl::toPercentEncoding(attack)),
                                            ViewerSecret);
            QCOMPARE(status.status, 400);
        }
        QCOMPARE(countRows(*f.db, QStringLiteral("{events}")), qint64(8));
        QCOMPARE(countRows(*f.db, QStringLiteral("{events}"), QStringLiteral("status = 'FAILED'")),
                 qint64(3));
        QCOMPARE(countRows(*f.db, QStringLiteral("{events}"), QStringLiteral("status = 'PENDING'")),
                 qint64(5));
    }

    void payloadFieldsAreMaskedForViewers_data() { TestDatabases::addKinds(); }
    void payloadFieldsAreMaskedForViewers()
    {
        QFETCH(QString, kind);
        Fixture f(kind, QStringLiteral("mask"));
        const qint64 id = insertWithPayload(*f.db, "{\"amount\":12,\"email\":\"bob@example.com\",\"card\":{"
                                                   "\"number\":\"4111111111111111\",\"brand\":\"visa\"}}");
        const auto viewer = f.http->get(QStringLiteral("/api/v1/events/%1").arg(id), ViewerSecret);
        const QJsonObject vp = viewer.json().value(QStringLiteral("payload")).toObject();
        QCOMPARE(vp.value(QStringLiteral("email")).toString(), QStringLiteral("***"));
        QCOMPARE(vp.value(QStringLiteral("card")).toObject().value(QStringLiteral("number")).toString(),
                 QStringLiteral("***"));
        QCOMPARE(vp.value(QStringLiteral("card")).toObject().value(QStringLiteral("brand")).toString(),
                 QStringLiteral("visa"));
        QCOMPARE(vp.value(QStringLiteral("amount")).toInt(), 12);
        QVERIFY(!viewer.body.contains("4111111111111111"));
        QVERIFY(
            !f.http->get(QStringLiteral("/api/v1/events"), ViewerSecret).body.contains("bob@example.com"));
        const auto op = f.http->get(QStringLiteral("/api/v1/events/%1").arg(id), OperatorSecret);
        QCOMPARE(
            op.json().value(QStringLiteral("payload")).toObject().value(QStringLiteral("email")).toString(),
            QStringLiteral("bob@example.com"));
    }

    void unreachableDatabaseIs503()
    {
        WebConfig config = testConfig();
        auto url = DatabaseUrl::parse(QStringLiteral("postgresql://nobody@127.0.0.1:1/none"));
        QVERIFY(url.ok());
        WebServer server(config, DatabaseTarget(*url, QString()));
        QVERIFY(server.start().ok());
        HttpTestClient http(server.baseUrl());
        const auto r = http.get(QStringLiteral("/api/v1/events"), ViewerSecret);
        QCOMPARE(r.status, 503);
        QVERIFY(!r.json().value(QStringLiteral("error")).toString().isEmpty());
        QCOMPARE(http.get(QStringLiteral("/metrics"), ViewerSecret).status, 503);
    }

    // /metrics read back by the Prometheus project's own parser (python3-prometheus-client).
    void metricsParseWithPrometheusClient_data() { TestDatabases::addKinds(); }
    void metricsParseWithPrometheusClient()
    {
        QFETCH(QString, kind);
        WebConfig config = testConfig();
        config.unconsumedConsumers = {QStringLiteral("inventory")};
        Fixture f(kind, QStringLiteral("metrics"), config);
        const auto ids = insertEvents(*f.db, 11);
        forceStatus(*f.db, ids.mid(0, 2), QStringLiteral("FAILED"), QStringLiteral("x"));
        forceStatus(*f.db, ids.mid(2, 1), QStringLiteral("DEAD"));
        // Two events sent two minutes ago; the inventory consumer processed one of them.
        forceStatus(*f.db, ids.mid(9, 2), QStringLiteral("SENT"));
        QVERIFY(f.db->exec(QStringLiteral("UPDATE {events} SET sent_at = :t WHERE id IN (%1, %2)")
                               .arg(ids[9])
                               .arg(ids[10]),
                           {{QStringLiteral(":t"),
                             f.db->dialect().fromDateTime(QDateTime::currentDateTimeUtc().addSecs(-120))}})
                    .ok());
        QVERIFY(
            f.db->exec(
                    QStringLiteral(
                        "INSERT INTO {inbox} (event_id, consumer_name, status, attempts, processed_at) "
                        "SELECT event_id, 'inventory', 'PROCESSED', 1, sent_at FROM {events} WHERE id = %1")
                        .arg(ids[9]))
                .ok());
        QVERIFY(f.db->exec(QStringLiteral(
                               "INSERT INTO {relays} (worker_id, host, pid, sent_total, failed_total) VALUES "
                               "(:w, 'h1', 1, 40, 2), ('relay-b', 'h2', 2, 2, 1)"),
                           {{QStringLiteral(":w"), QStringLiteral("relay \"a\" \\ 1")}})
                    .ok());
        QVERIFY(
            f.db
                ->exec(QStringLiteral(
                    "UPDATE {relays} SET lease_expired_total = 5, latency_sum_ms = 1500, latency_count = 3, "
                    "latency_buckets = '[0,1,2,3,3,3,3,3,3,3,3,3]' WHERE worker_id = 'relay-b'"))
                .ok());
        QVERIFY(f.freshSample());
        const auto r = f.http->get(QStringLiteral("/metrics"), ViewerSecret);
        QCOMPARE(r.status, 200);
        QVERIFY(r.contentType.startsWith("text/plain; version=0.0.4"));

        QProcess python;
        python.start(QStringLiteral("/usr/bin/python3"), {QStringLiteral("-c"), QStringLiteral(R"(
import json, sys
from prometheus_client.parser import text_string_to_metric_families
out = {}
for family in text_string_to_metric_families(sys.stdin.read()):
    for s in family.samples:
        key = s.name + json.dumps(s.labels, sort_keys=True)
        out[key] = {"type": family.type, "value": s.value}
print(json.dumps(out))
)")});
        QVERIFY(python.waitForStarted());
        python.write(r.body);
        python.closeWriteChannel();
        QVERIFY(python.waitForFinished(30000));
        QVERIFY2(python.exitCode() == 0, python.readAllStandardError().constData());
        const QJsonObject m = QJsonDocument::fromJson(python.readAllStandardOutput()).object();
        auto value = [&](const QString& key) {
            return m.value(key).toObject().value(QStringLiteral("value")).toDouble(-1);
        };
        auto type = [&](const QString& key) {
            return m.value(key).toObject().value(QStringLiteral("type")).toString();
        };
        QCOMPARE(value(QStringLiteral("outbox_events{\"status\": \"PENDING\"}")), 6.0);
        QCOMPARE(value(QStringLiteral("outbox_events{\"status\": \"FAILED\"}")), 2.0);
        QCOMPARE(value(QStringLiteral("outbox_events{\"status\": \"DEAD\"}")), 1.0);
        QCOMPARE(type(QStringLiteral("outbox_events{\"status\": \"DEAD\"}")), QStringLiteral("gauge"));
        QCOMPARE(value(QStringLiteral("outbox_sent_total{}")), 42.0);
        QCOMPARE(type(QStringLiteral("outbox_sent_total{}")), QStringLiteral("counter"));
        QCOMPARE(value(QStringLiteral("outbox_failed_total{}")), 3.0);
        QVERIFY(value(QStringLiteral("outbox_oldest_pending_age_seconds{}")) >= 0);
        // The awkward worker id survives escaping and comes back intact.
        QCOMPARE(value(QStringLiteral("outbox_relay_up{\"worker\": \"relay \\\"a\\\" \\\\ 1\"}")), 1.0);
        QCOMPARE(value(QStringLiteral("outbox_relay_up{\"worker\": \"relay-b\"}")), 1.0);
        QCOMPARE(value(QStringLiteral("outbox_dead_letters{\"status\": \"NEW\"}")), 0.0);
        QCOMPARE(value(QStringLiteral("outbox_sampler_up{}")), 1.0);
        QCOMPARE(value(QStringLiteral("outbox_lease_expired_total{}")), 5.0);
        QCOMPARE(type(QStringLiteral("outbox_lease_expired_total{}")), QStringLiteral("counter"));
        QCOMPARE(value(QStringLiteral("outbox_send_latency_seconds_count{}")), 3.0);
        QCOMPARE(value(QStringLiteral("outbox_send_latency_seconds_sum{}")), 1.5);
        QCOMPARE(value(QStringLiteral("outbox_send_latency_seconds_bucket{\"le\": \"0.01\"}")), 1.0);
        QCOMPARE(value(QStringLiteral("outbox_send_latency_seconds_bucket{\"le\": \"+Inf\"}")), 3.0);
        QCOMPARE(type(QStringLiteral("outbox_send_latency_seconds_count{}")), QStringLiteral("histogram"));
        QCOMPARE(value(QStringLiteral("outbox_unconsumed_events{\"consumer\": \"inventory\"}")), 1.0);
    }

    void tlsServesHttps()
    {
        QTemporaryDir dir;
        const QString cert = dir.filePath(QStringLiteral("web.crt"));
        const QString key = dir.filePath(QStringLiteral("web.key"));
        QProcess openssl;
        openssl.start(QStringLiteral("openssl"),
                      {QStringLiteral("req"), QStringLiteral("-x509"), QStringLiteral("-newkey"),
                       QStringLiteral("rsa:2048"), QStringLiteral("-nodes"), QStringLiteral("-days"),
                       QStringLiteral("1"), QStringLiteral("-subj"), QStringLiteral("/CN=127.0.0.1"),
                       QStringLiteral("-keyout"), key, QStringLiteral("-out"), cert});
        QVERIFY(openssl.waitForFinished(60000) && openssl.exitCode() == 0);
        WebConfig config = testConfig();
        config.tlsCertificateFile = cert;
        config.tlsKeyFile = key;
        auto db = TestDatabases::fresh(QStringLiteral("sqlite"), QStringLiteral("tls"));
        WebServer server(config, DatabaseTarget(db->url(), QString()));
        QVERIFY(server.start().ok());
        QCOMPARE(server.baseUrl().scheme(), QStringLiteral("https"));
        HttpTestClient https(server.baseUrl());
        https.setIgnoreSslErrors(true);
        QCOMPARE(https.get(QStringLiteral("/api/v1/events"), ViewerSecret).status, 200);
        QCOMPARE(https.get(QStringLiteral("/api/v1/events")).status, 401);
        // Plain HTTP to the TLS port gets no answer.
        QUrl plain = server.baseUrl();
        plain.setScheme(QStringLiteral("http"));
        HttpTestClient http(plain);
        QCOMPARE(http.get(QStringLiteral("/api/v1/events"), ViewerSecret).status, 0);
    }

    void configFileIsParsedStrictly()
    {
        QTemporaryDir dir;
        auto write = [&](const QByteArray& text) {
            QFile f(dir.filePath(QStringLiteral("web.ini")));
            QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
            f.write(text);
        };
        const QByteArray hash = AccessControl::hashToken("s3cret");
        write("[web]\nlisten = 0.0.0.0:9090\nmask_fields = card.number, email\n[tokens]\nnoc = viewer:" +
              hash + "\n");
        auto config = WebConfig::fromFile(dir.filePath(QStringLiteral("web.ini")));
        QVERIFY2(config.ok(), qPrintable(config.message()));
        QCOMPARE(config->port, quint16(9090));
        QVERIFY(!config->isLoopbackOnly());
        QCOMPARE(config->maskedFields, (QStringList{QStringLiteral("card.number"), QStringLiteral("email")}));
        QCOMPARE(config->tokens.size(), 1);
        QVERIFY(AccessControl(config->tokens).authenticate("s3cret").has_value());
        QVERIFY(!AccessControl(config->tokens).authenticate("s3cret ").has_value());
        write("[tokens]\nnoc = admin:" + hash + "\n");
        auto bad = WebConfig::fromFile(dir.filePath(QStringLiteral("web.ini")));
        QVERIFY(!bad.ok());
        QCOMPARE(bad.error().kind, ErrorKind::Usage);
        QVERIFY(!bad.message().contains(QString::fromLatin1(hash))); // never echo secrets or hashes
        WebConfig c;
        QVERIFY(!c.setListen(QStringLiteral("127.0.0.1:99999")).ok());
        QVERIFY(c.setListen(QStringLiteral("[::1]:8081")).ok());
        QVERIFY(c.isLoopbackOnly());
    }

    void anErrorAboutARequestFieldNamesIt()
    {
        // Core names what an error is about; the API's hint is its own field name, never a flag.
        const WebReply field =
            WebReply::fromError(Error::usage(QStringLiteral("the page cursor must not be negative"))
                                    .about(QStringLiteral("after_id")));
        QCOMPARE(field.status, 400);
        QCOMPARE(QJsonDocument::fromJson(field.body).object().value(QStringLiteral("error")).toString(),
                 QStringLiteral("the page cursor must not be negative (field after_id)"));
        // A server setting is not the client's to fix: no hint.
        const WebReply setting =
            WebReply::fromError(Error::usage(QStringLiteral("no Kafka bootstrap servers given"))
                                    .about(QStringLiteral("kafka.bootstrap")));
        QCOMPARE(QJsonDocument::fromJson(setting.body).object().value(QStringLiteral("error")).toString(),
                 QStringLiteral("no Kafka bootstrap servers given"));
    }
};

QTEST_GUILESS_MAIN(TestWebApi)
#include "tst_webapi.moc"
