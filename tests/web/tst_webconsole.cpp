// The web admin console (/console/) in a real headless Chromium driven over the DevTools
// protocol, with real mouse clicks and keyboard input: sign-in by fragment and by form, the events
// list paged and filtered over 10,000 events, one event, a failure group requeued through preview,
// reason, typed confirmation and a job, a viewer without actions (and a forged action refused), and
// a dead letter replayed to another topic. Prints how long /console/ and its first page take.
#include "core/db/DeadLetterStore.h"
#include "core/db/RelayStore.h"
#include "core/ops/AuditLog.h"
#include "tests/support/BulkEvents.h"
#include "tests/support/HeldRow.h"
#include "tests/support/TestDatabases.h"
#include "tests/web/ChromiumPage.h"
#include "tests/web/ConsoleView.h"
#include "tests/web/HttpTestClient.h"
#include "ui/web/WebServer.h"
#include "ui/web/http/AccessControl.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <algorithm>
#include <cstdio>

using namespace outbox;
using namespace outbox::test;
using namespace outbox::web;

namespace {

const QByteArray OperatorSecret = "console-operator-secret";
const QByteArray ViewerSecret = "console-viewer-secret";
constexpr int Events = 10000;
constexpr int FailedEvery = 5; // 2,000 FAILED events in one failure group: more than one chunk

qint64 scalar(Database& db, const QString& sql)
{
    auto q = db.exec(sql);
    if (!q || !q->next())
        qFatal("%s failed", qPrintable(sql));
    return q->value(0).toLongLong();
}

} // namespace

class TestWebConsole : public QObject
{
    Q_OBJECT

    std::unique_ptr<Database> m_db;
    std::unique_ptr<WebServer> m_server;
    std::unique_ptr<ChromiumPage> m_page;
    QString m_base;

    // What the page shows, read the same way in every browser (tests/web/ConsoleView.h).
    ConsoleView view() { return ConsoleView(*m_page); }
    QString text(const QString& selector) { return view().text(selector); }
    int count(const QString& selector) { return view().count(selector); }
    bool viewReady(const QString& v) { return view().ready(v); }
    QString hash() { return m_page->evaluate(QStringLiteral("location.hash")); }
    QStringList rowIds(const QString& table) { return view().rowIds(table); }

private slots:
    void initTestCase()
    {
        QVERIFY2(!QStandardPaths::findExecutable(QStringLiteral("chromium")).isEmpty(),
                 "chromium is not installed (installer/install-deps.sh installs it)");
        m_db = TestDatabases::fresh(QStringLiteral("postgresql"),
                                    TestDatabases::uniqueName(QStringLiteral("webconsole")));
        insertGeneratedEvents(*m_db, Events, FailedEvery);
        QCOMPARE(countRows(*m_db, QStringLiteral("{events}")), qint64(Events));
        WebConfig config;
        config.port = 0;
        config.sampleIntervalMs = 500;
        config.findingsIntervalMs = 2000;
        config.tokens = {
            ApiToken{QStringLiteral("alice-oncall"), Role::Operator,
                     AccessControl::hashToken(OperatorSecret)},
            ApiToken{QStringLiteral("victor-viewer"), Role::Viewer, AccessControl::hashToken(ViewerSecret)}};
        m_server = std::make_unique<WebServer>(config, DatabaseTarget(m_db->url(), QString()));
        QVERIFY(m_server->start().ok());
        m_base = m_server->baseUrl().toString();
        m_base.chop(1); // no trailing slash
        // Warm the server's database threads, so the load figure below is the page's, not the pool's.
        HttpTestClient warm(m_server->baseUrl());
        QCOMPARE(warm.get(QStringLiteral("/api/v1/events?limit=1"), OperatorSecret).status, 200);
    }

    void apiAndFilesForTheConsole()
    {
        HttpTestClient http(m_server->baseUrl());
        // Only the console's own files, from the binary's resources.
        QVERIFY(http.get(QStringLiteral("/console/")).body.contains("/console/console.js"));
        QVERIFY(http.get(QStringLiteral("/console")).body.contains("/console/console.js")); // redirected
        QCOMPARE(http.get(QStringLiteral("/console/lib.js")).contentType,
                 QByteArray("text/javascript; charset=utf-8"));
        QCOMPARE(http.get(QStringLiteral("/console/zh_CN.json")).status, 200);
        for (const char* path : {"/console/missing.js", "/console/../index.html", "/console/%2e%2e/x.js",
                                 "/console/sub/lib.js", "/console/lib.js.map"})
            QCOMPARE(http.get(QString::fromLatin1(path)).status, 404);
        // Who the token is.
        QCOMPARE(http.get(QStringLiteral("/api/v1/me"), ViewerSecret)
                     .json()
                     .value(QStringLiteral("role"))
                     .toString(),
                 QStringLiteral("viewer"));
        QCOMPARE(
            http.get(QStringLiteral("/api/v1/me"), OperatorSecret).json().value(QStringLiteral("may_change")),
            QJsonValue(true));
        QCOMPARE(http.get(QStringLiteral("/api/v1/me")).status, 401);
        // Failure groups and one target's audit history; bad input is one clear error.
        const auto groups = http.get(QStringLiteral("/api/v1/failure-groups?status=FAILED"), ViewerSecret);
        QCOMPARE(groups.status, 200);
        QCOMPARE(groups.json().value(QStringLiteral("groups")).toArray().size(), 1);
        QCOMPARE(groups.json()
                     .value(QStringLiteral("groups"))
                     .toArray()
                     .at(0)
                     .toObject()
                     .value(QStringLiteral("count"))
                     .toInt(),
                 Events / FailedEvery);
        QCOMPARE(http.get(QStringLiteral("/api/v1/failure-groups?status=LOST"), ViewerSecret).status, 400);
        QCOMPARE(http.get(QStringLiteral("/api/v1/failure-groups?sort=x"), ViewerSecret).status, 400);
        QCOMPARE(http.get(QStringLiteral("/api/v1/audit?target_id=5"), ViewerSecret).status, 400);
        QCOMPARE(http.get(QStringLiteral("/api/v1/audit?target_kind=event&target_id=x"), ViewerSecret).status,
                 400);
        QCOMPARE(http.get(QStringLiteral("/api/v1/audit?target_kind=event&target_id=5"), ViewerSecret).status,
                 200);
        // Relay control: refused for viewers before the body is read, and malformed bodies change nothing.
        QCOMPARE(http.post(QStringLiteral("/api/v1/relays/pause"), R"({"workers":["r"],"reason":"x"})",
                           ViewerSecret)
                     .status,
                 403);
        for (const QByteArray& body :
             {QByteArray("{}"), QByteArray("[]"), QByteArray(R"({"workers":"r","reason":"x"})"),
              QByteArray(R"({"workers":[],"reason":"x"})"), QByteArray(R"({"workers":[1],"reason":"x"})"),
              QByteArray(R"({"workers":["r"]})"), QByteArray(R"({"workers":["r"],"reason":"  "})"),
              QByteArray(R"({"workers":["r"],"reason":"x","force":true})")}) {
            const auto r = http.post(QStringLiteral("/api/v1/relays/drain"), body, OperatorSecret);
            QCOMPARE(r.status, 400);
            QVERIFY(!r.json().value(QStringLiteral("error")).toString().isEmpty());
        }
        QCOMPARE(http.post(QStringLiteral("/api/v1/relays/stop"), R"({"workers":["r"],"reason":"x"})",
                           OperatorSecret)
                     .status,
                 404);
        QCOMPARE(countRows(*m_db, QStringLiteral("{audit}"), QStringLiteral("action LIKE 'relay.%'")),
                 qint64(0));
    }

    void signInByFragment()
    {
        m_page = std::make_unique<ChromiumPage>();
        QString error;
        QVERIFY2(m_page->open(m_base + QStringLiteral("/console/#token=") + QString::fromUtf8(OperatorSecret),
                              &error),
                 qPrintable(error));
        QVERIFY(viewReady(QStringLiteral("events")));
        QCOMPARE(count(QStringLiteral("#events tbody tr")), 50);
        // The token left the address bar and the history (issue 26): Chromium's entry for the
        // tab holds neither the address nor the address as typed with it (replaceState alone
        // leaves the typed one); it lives in sessionStorage only.
        QCOMPARE(m_page->evaluate(QStringLiteral("location.pathname + location.search + location.hash")),
                 QStringLiteral("/console/#/events"));
        const QJsonObject history = m_page->call(QStringLiteral("Page.getNavigationHistory"));
        const QJsonArray entries = history.value(QStringLiteral("entries")).toArray();
        QVERIFY(!entries.isEmpty());
        for (const QJsonValue& entry : entries) {
            const QString json =
                QString::fromUtf8(QJsonDocument(entry.toObject()).toJson(QJsonDocument::Compact));
            QVERIFY2(!json.contains(QString::fromUtf8(OperatorSecret)) &&
                         !json.contains(QLatin1String("token=")),
                     qPrintable(json));
        }
        QCOMPARE(m_page->evaluate(QStringLiteral("sessionStorage.getItem('outbox-console-token')")),
                 QString::fromUtf8(OperatorSecret));
        QCOMPARE(m_page->evaluate(QStringLiteral("String(localStorage.length)")), QStringLiteral("0"));
        QVERIFY(text(QStringLiteral("#who-name")).contains(QLatin1String("alice-oncall")));
        QVERIFY(text(QStringLiteral("#who-name")).contains(QLatin1String("operator")));
        // The live counts come over /ws.
        QVERIFY(m_page->waitFor(QStringLiteral("document.querySelector('#counts [data-count=FAILED] .n')"),
                                15000));
        QCOMPARE(text(QStringLiteral("#counts [data-count=FAILED] .n")).remove(QLatin1Char(',')),
                 QString::number(Events / FailedEvery));

        // Loading /console/ and its first events page (a fresh document, the token from
        // sessionStorage), from navigation start to the rendered table. The first load above also
        // paid for starting Chromium; docs/benchmarks.md has the figure on 10M rows.
        QVector<double> loads;
        for (int i = 0; i < 3; ++i) {
            m_page->navigate(QStringLiteral("about:blank"));
            QVERIFY(m_page->waitFor(QStringLiteral("location.href === 'about:blank'")));
            m_page->navigate(m_base + QStringLiteral("/console/#/events"));
            QVERIFY(viewReady(QStringLiteral("events")));
            QCOMPARE(count(QStringLiteral("#events tbody tr")), 50);
            loads << m_page->evaluate(QStringLiteral("String(window.outboxConsoleReadyMs)")).toDouble();
        }
        std::sort(loads.begin(), loads.end());
        std::printf("web console: /console/ and the first events page (50 of %d rows): median %.0f ms, max "
                    "%.0f ms (target < 500 ms)\n",
                    Events, loads.at(1), loads.last());
        QVERIFY2(loads.at(1) > 0 && loads.at(1) < 5000, qPrintable(QString::number(loads.at(1))));
    }

    void signInByForm()
    {
        QVERIFY(m_page->click(QStringLiteral("#signout")));
        QVERIFY(viewReady(QStringLiteral("signin")));
        QCOMPARE(m_page->evaluate(QStringLiteral("String(sessionStorage.getItem('outbox-console-token'))")),
                 QStringLiteral("null"));
        // A wrong token is refused with a message and no view.
        QVERIFY(m_page->type(QStringLiteral("#token"), QStringLiteral("not-a-token")));
        QVERIFY(m_page->click(QStringLiteral("#signin-submit")));
        QVERIFY(m_page->waitFor(QStringLiteral("document.querySelector('#signin .error')")));
        QVERIFY(text(QStringLiteral("#signin .error")).contains(QLatin1String("refused")));
        QVERIFY(m_page->type(QStringLiteral("#token"), QString::fromUtf8(OperatorSecret)));
        QVERIFY(m_page->click(QStringLiteral("#signin-submit")));
        QVERIFY(viewReady(QStringLiteral("events")));
        QVERIFY(text(QStringLiteral("#who-name")).contains(QLatin1String("alice-oncall")));
    }

    void eventsPagingAndFiltering()
    {
        QVERIFY(viewReady(QStringLiteral("events")));
        const QStringList first = rowIds(QStringLiteral("events"));
        QCOMPARE(first.size(), 50);
        QCOMPARE(first.first(), QString::number(Events)); // newest first
        QVERIFY(m_page->click(QStringLiteral("#events-pager-next")));
        QVERIFY(m_page->waitFor(QStringLiteral("location.hash.includes('after=')")));
        QVERIFY(viewReady(QStringLiteral("events")));
        const QStringList second = rowIds(QStringLiteral("events"));
        QVERIFY2(second.size() == 50, qPrintable(QStringLiteral("%1 rows on %2: %3")
                                                     .arg(second.size())
                                                     .arg(hash(), text(QStringLiteral("#view")).left(600))));
        QCOMPARE(second.first().toLongLong(), first.last().toLongLong() - 1);
        QVERIFY(m_page->click(QStringLiteral("#events-pager-next")));
        QVERIFY(m_page->waitFor(QStringLiteral("location.hash.includes('trail=')")));
        QVERIFY(viewReady(QStringLiteral("events")));
        QCOMPARE(rowIds(QStringLiteral("events")).first().toLongLong(), second.last().toLongLong() - 1);
        QVERIFY(m_page->click(QStringLiteral("#events-pager-prev")));
        QVERIFY(m_page->waitFor(QStringLiteral("!location.hash.includes('trail=')")));
        QVERIFY(viewReady(QStringLiteral("events")));
        QCOMPARE(rowIds(QStringLiteral("events")), second);
        QVERIFY(m_page->click(QStringLiteral("#events-pager-first")));
        QVERIFY(m_page->waitFor(QStringLiteral("!location.hash.includes('after=')")));
        QVERIFY(viewReady(QStringLiteral("events")));
        QCOMPARE(rowIds(QStringLiteral("events")), first);

        // Filter by aggregate (typed, Apply clicked): the rows of order-7 only, in the URL.
        QVERIFY(m_page->type(QStringLiteral("#event-filter-aggregate"), QStringLiteral("order-7")));
        QVERIFY(m_page->click(QStringLiteral("#event-filter-apply")));
        QVERIFY(m_page->waitFor(QStringLiteral("location.hash === '#/events?aggregate=order-7'")));
        QVERIFY(viewReady(QStringLiteral("events")));
        const qint64 expected =
            scalar(*m_db, QStringLiteral("SELECT COUNT(*) FROM {events} WHERE aggregate_id = 'order-7'"));
        QCOMPARE(qint64(count(QStringLiteral("#events tbody tr"))), expected);
        QCOMPARE(m_page->evaluate(QStringLiteral(
                     "String([...document.querySelectorAll('#events tbody tr td:nth-child(5)')]"
                     ".every(td => td.textContent === 'Order/order-7'))")),
                 QStringLiteral("true"));
        // The FAILED count in the header is a link to the FAILED events.
        QVERIFY(m_page->click(QStringLiteral("#counts [data-count=FAILED]")));
        QVERIFY(m_page->waitFor(QStringLiteral("location.hash === '#/events?status=FAILED'")));
        QVERIFY(viewReady(QStringLiteral("events")));
        QCOMPARE(count(QStringLiteral("#events tbody tr")), 50);
        QCOMPARE(count(QStringLiteral("#events tbody td.status-FAILED")), 50);
        QCOMPARE(m_page->evaluate(QStringLiteral("document.getElementById('event-filter-status').value")),
                 QStringLiteral("FAILED"));
        // A bad time is one clear error from the API.
        QVERIFY(m_page->type(QStringLiteral("#event-filter-created_from"), QStringLiteral("yesterday")));
        QVERIFY(m_page->click(QStringLiteral("#event-filter-apply")));
        QVERIFY(m_page->waitFor(QStringLiteral("document.querySelector('#view .error')")));
        QVERIFY(text(QStringLiteral("#view .error")).contains(QLatin1String("created_from")));
    }

    void openEvent()
    {
        m_page->navigate(m_base + QStringLiteral("/console/#/events?status=SENT"));
        QVERIFY(viewReady(QStringLiteral("events")));
        const QString id = rowIds(QStringLiteral("events")).first();
        QVERIFY(m_page->click(QStringLiteral("#events tbody tr a")));
        QVERIFY(m_page->waitFor(QStringLiteral("location.hash === '#/event/%1'").arg(id)));
        QVERIFY(viewReady(QStringLiteral("event")));
        QCOMPARE(text(QStringLiteral("#event-fields [data-field=event_id]")), QStringLiteral("gen-") + id);
        QCOMPARE(text(QStringLiteral("#event-fields [data-field=status]")), QStringLiteral("SENT"));
        QCOMPARE(text(QStringLiteral("#event-fields [data-field=aggregate_id]")),
                 QStringLiteral("order-%1").arg(id.toInt() % 1000));
        // The payload as a tree ({"n": id}) and raw.
        QVERIFY(text(QStringLiteral("#payload-tree")).contains(QStringLiteral("n: %1").arg(id)));
        QVERIFY(m_page->click(QStringLiteral("#payload-tree summary"))); // folds
        QCOMPARE(
            m_page->evaluate(QStringLiteral("String(document.querySelector('#payload-tree details').open)")),
            QStringLiteral("false"));
        QVERIFY(
            text(QStringLiteral("#event-raw")).contains(QStringLiteral("\"event_id\": \"gen-%1\"").arg(id)));
        QVERIFY(count(QStringLiteral("#act-requeue-one")) == 1);
    }

    void requeueFailureGroupThroughAJob()
    {
        const qint64 failed = Events / FailedEvery;
        QCOMPARE(countRows(*m_db, QStringLiteral("{events}"), QStringLiteral("status = 'FAILED'")), failed);
        QVERIFY(m_page->click(QStringLiteral("#nav a[data-view=groups]")));
        QVERIFY(viewReady(QStringLiteral("groups")));
        QCOMPARE(count(QStringLiteral("#groups tbody tr")), 1);
        QCOMPARE(text(QStringLiteral("#groups tbody tr td.num")).remove(QLatin1Char(',')),
                 QString::number(failed));
        QVERIFY(m_page->click(QStringLiteral("#groups .act-requeue-group")));
        // Preview: a dry run with the count and a sample; nothing changes yet.
        QVERIFY(m_page->waitFor(QStringLiteral("document.getElementById('action-count')")));
        QCOMPARE(text(QStringLiteral("#action-count")),
                 QStringLiteral("%1 row(s) will be changed.").arg(failed));
        QCOMPARE(count(QStringLiteral("#action-sample tbody tr")), 10);
        QCOMPARE(countRows(*m_db, QStringLiteral("{events}"), QStringLiteral("status = 'FAILED'")), failed);
        auto runEnabled = [this] {
            return m_page->evaluate(QStringLiteral(
                       "String(!document.getElementById('action-run').disabled)")) == QLatin1String("true");
        };
        QVERIFY(!runEnabled());
        QVERIFY(m_page->type(QStringLiteral("#action-reason"), QStringLiteral("schema registry fixed")));
        QVERIFY(!runEnabled()); // bulk work needs the typed confirmation
        QVERIFY(m_page->type(QStringLiteral("#action-confirm"), QStringLiteral("requeue 1")));
        QVERIFY(!runEnabled());
        QVERIFY(m_page->type(QStringLiteral("#action-confirm"), QStringLiteral("999"))); // "requeue 1999"
        QVERIFY(!runEnabled());
        m_page->evaluate(QStringLiteral("document.getElementById('action-confirm').select()"));
        m_page->call(QStringLiteral("Input.insertText"),
                     {{QStringLiteral("text"), QStringLiteral("requeue %1").arg(failed)}});
        QVERIFY(m_page->waitFor(QStringLiteral("!document.getElementById('action-run').disabled")));
        // The README's screenshot: OUTBOX_WEB_SCREENSHOT=docs/screenshots/web-console.png.
        if (const QString shot = qEnvironmentVariable("OUTBOX_WEB_SCREENSHOT"); !shot.isEmpty()) {
            QFile f(shot);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(m_page->screenshotPng());
        }
        // The test holds a row of the second chunk, so the job stops after the first for as long as it
        // likes; the page must show that chunk's progress from /ws, without asking for the job again.
        HeldRow held(*m_db, QStringLiteral("{events}"), Events);
        QVERIFY(held.ok());
        m_page->evaluate(QStringLiteral("performance.setResourceTimingBufferSize(10000), "
                                        "performance.clearResourceTimings(), ''"));
        const QString jobReads = QStringLiteral("String(performance.getEntriesByType('resource')"
                                                ".filter(e => e.name.includes('/api/v1/jobs/')).length)");
        QVERIFY(m_page->click(QStringLiteral("#action-run")));
        // More than one chunk: a job with progress, then its result.
        QVERIFY(m_page->waitFor(QStringLiteral("document.getElementById('job-progress')"), 15000));
        QVERIFY2(
            m_page->waitFor(QStringLiteral("document.getElementById('job-progress').value === 1000"), 15000),
            qPrintable(text(QStringLiteral("#action-body"))));
        QVERIFY(
            text(QStringLiteral("#job-text")).contains(QStringLiteral("1000 of %1 processed").arg(failed)));
        QTest::qWait(1500); // a page that polls would ask several times here
        QCOMPARE(m_page->evaluate(QStringLiteral("document.getElementById('action-body').dataset.jobState")),
                 QStringLiteral("running"));
        QCOMPARE(m_page->evaluate(jobReads), QStringLiteral("1")); // the one read when the dialog opened
        held.release();
        QVERIFY(m_page->waitFor(
            QStringLiteral("document.getElementById('action-body').dataset.jobState === 'done'"), 30000));
        QCOMPARE(m_page->evaluate(jobReads), QStringLiteral("1"));
        QCOMPARE(m_page->evaluate(QStringLiteral("String(document.getElementById('job-progress').value)")),
                 QString::number(failed));
        QVERIFY(text(QStringLiteral("#job-text")).contains(QStringLiteral("%1 of %1 processed").arg(failed)));
        QCOMPARE(text(QStringLiteral("#action-affected")), QStringLiteral("%1 row(s) changed").arg(failed));
        QCOMPARE(countRows(*m_db, QStringLiteral("{events}"), QStringLiteral("status = 'FAILED'")),
                 qint64(0));
        QCOMPARE(countRows(*m_db, QStringLiteral("{events}"), QStringLiteral("status = 'PENDING'")), failed);
        // Every chunk's audit row names the token's owner and the reason.
        QCOMPARE(countRows(*m_db, QStringLiteral("{audit}"),
                           QStringLiteral("action = 'events.requeue' AND actor = 'alice-oncall' AND reason = "
                                          "'schema registry fixed'")),
                 qint64(2));
        QCOMPARE(
            scalar(*m_db,
                   QStringLiteral("SELECT SUM(affected_count) FROM {audit} WHERE action = 'events.requeue'")),
            failed);
        // The page behind the result already shows the groups as they are now (issue 36: it showed
        // the old ones until its next refresh), with the dialog still open.
        QVERIFY2(m_page->waitFor(QStringLiteral("document.getElementById('action-dialog').open && "
                                                "document.querySelectorAll('#groups tbody tr').length === 0"),
                                 3000),
                 qPrintable(text(QStringLiteral("#groups"))));
        QVERIFY(m_page->click(QStringLiteral("#action-close")));
        QVERIFY(viewReady(QStringLiteral("groups")));
        QCOMPARE(count(QStringLiteral("#groups tbody tr")), 0);

        // The audit view shows the rows under the operator's name; the event's history too.
        QVERIFY(m_page->click(QStringLiteral("#nav a[data-view=audit]")));
        QVERIFY(viewReady(QStringLiteral("audit")));
        QCOMPARE(text(QStringLiteral("#audit tbody tr td.actor")), QStringLiteral("alice-oncall"));
        QCOMPARE(text(QStringLiteral("#audit tbody tr td.action")), QStringLiteral("events.requeue"));
        // Export: every row of the filter as CSV, downloaded by the browser.
        QTemporaryDir downloads;
        m_page->call(QStringLiteral("Page.setDownloadBehavior"),
                     {{QStringLiteral("behavior"), QStringLiteral("allow")},
                      {QStringLiteral("downloadPath"), downloads.path()}});
        // (issue 26) One more row whose actor and reason are spreadsheet formulas.
        AuditEntry formula;
        formula.actor = QStringLiteral("+cmd|' /C calc'!A0");
        formula.host = QStringLiteral("@host");
        formula.action = QStringLiteral("events.requeue");
        formula.targetKind = QStringLiteral("event");
        formula.reason = QStringLiteral("=HYPERLINK(\"http://evil.example/\",\"click\")");
        formula.outcome = QStringLiteral("none");
        QVERIFY(AuditLog(*m_db).append(formula).ok());
        QVERIFY(m_page->click(QStringLiteral("#audit-csv")));
        const QString csvPath = downloads.filePath(QStringLiteral("outbox-audit.csv"));
        QTRY_VERIFY_WITH_TIMEOUT(QFileInfo(csvPath).size() > 0, 10000);
        QFile csv(csvPath);
        QVERIFY(csv.open(QIODevice::ReadOnly));
        const QByteArray all = csv.readAll();
        const QList<QByteArray> lines = all.trimmed().split('\n');
        QVERIFY(lines.first().startsWith("id,at,actor,host,action,"));
        QCOMPARE(lines.size(), 4); // the header, the two chunks' rows and the formula row
        QVERIFY(all.contains(",alice-oncall,") && all.contains(",events.requeue,"));
        // The formulas arrive as text (core's AuditCsv, the same as the desktop's export).
        QVERIFY2(all.contains(",'+cmd|' /C calc'!A0,'@host,"), all.constData());
        QVERIFY2(all.contains(",\"'=HYPERLINK(\"\"http://evil.example/\"\",\"\"click\"\")\","),
                 all.constData());
        for (const char* start : {",=", ",+", ",@", ",\"=", ",\"+", ",\"@"})
            QVERIFY2(!all.contains(start), start);
        QCOMPARE(HttpTestClient(m_server->baseUrl())
                     .get(QStringLiteral("/api/v1/audit?format=xml"), OperatorSecret)
                     .status,
                 400);
        m_page->navigate(m_base + QStringLiteral("/console/#/event/%1").arg(FailedEvery));
        QVERIFY(viewReady(QStringLiteral("event")));
        QCOMPARE(text(QStringLiteral("#event-audit tbody tr td.actor")), QStringLiteral("alice-oncall"));
    }

    void searchFormsAndTheEventTrail()
    {
        // Three events carry one trace header (a fourth another value, with a space and a plus); one was sent
        // to partition 2 at offset 4242 (its neighbour at 4243).
        for (const QString& sql :
             {QStringLiteral(
                  "UPDATE {events} SET headers = '{\"trace_id\":\"t-web\"}' WHERE id IN (101, 202, "
                  "303)"),
              QStringLiteral("UPDATE {events} SET headers = '{\"trace_id\":\"t web+2\"}' WHERE id = 404"),
              QStringLiteral(
                  "UPDATE {events} SET sent_topic = 'orders', broker_partition = 2, broker_offset = "
                  "4242, sent_at = created_at WHERE id = 777"),
              QStringLiteral(
                  "UPDATE {events} SET broker_partition = 2, broker_offset = 4243 WHERE id = 778")})
            QVERIFY2(m_db->exec(sql).ok(), qPrintable(sql));
        m_page->navigate(m_base + QStringLiteral("/console/#/events"));
        QVERIFY(viewReady(QStringLiteral("events")));
        // Clear, type into the fields, Apply: true once the filtered view is shown.
        auto search = [this](const QList<std::pair<QString, QString>>& typed) {
            if (!m_page->click(QStringLiteral("#event-filter-clear")) ||
                !m_page->waitFor(QStringLiteral("location.hash === '#/events'")) ||
                !viewReady(QStringLiteral("events")))
                return false;
            for (const auto& [field, value] : typed)
                if (!m_page->type(QStringLiteral("#event-filter-") + field, value))
                    return false;
            return m_page->click(QStringLiteral("#event-filter-apply")) &&
                   m_page->waitFor(QStringLiteral("location.hash.includes(%1)")
                                       .arg(js(typed.first().first + QLatin1Char('=')))) &&
                   viewReady(QStringLiteral("events"));
        };
        // A header: exactly the three events, newest first.
        QVERIFY(search({{QStringLiteral("header"), QStringLiteral("trace_id=t-web")}}));
        QCOMPARE(rowIds(QStringLiteral("events")),
                 (QStringList{QStringLiteral("303"), QStringLiteral("202"), QStringLiteral("101")}));
        // A value with a space and a plus goes to the API as typed.
        QVERIFY(search({{QStringLiteral("header"), QStringLiteral("trace_id=t web+2")}}));
        QCOMPARE(rowIds(QStringLiteral("events")), QStringList{QStringLiteral("404")});
        // A payload path: exactly the one event.
        QVERIFY(search({{QStringLiteral("payload"), QStringLiteral("n=1234")}}));
        QCOMPARE(rowIds(QStringLiteral("events")), QStringList{QStringLiteral("1234")});
        // Where the broker put it.
        QVERIFY(search({{QStringLiteral("partition"), QStringLiteral("2")},
                        {QStringLiteral("offset"), QStringLiteral("4242")}}));
        QCOMPARE(rowIds(QStringLiteral("events")), QStringList{QStringLiteral("777")});
        // A bad header key or payload path: the API's 400 message in the page, the form kept.
        QVERIFY(search({{QStringLiteral("header"), QStringLiteral("trace id=x")}}));
        QVERIFY(m_page->waitFor(QStringLiteral("document.querySelector('#view .error')")));
        QVERIFY2(
            text(QStringLiteral("#view .error")).contains(QLatin1String("invalid header key \"trace id\"")),
            qPrintable(text(QStringLiteral("#view .error"))));
        QCOMPARE(m_page->evaluate(QStringLiteral("document.getElementById('event-filter-header').value")),
                 QStringLiteral("trace id=x"));
        QCOMPARE(count(QStringLiteral("#events tbody tr")), 0);
        QVERIFY(search({{QStringLiteral("payload"), QStringLiteral("a..b=1")}}));
        QVERIFY(m_page->waitFor(QStringLiteral("document.querySelector('#view .error')")));
        QVERIFY2(text(QStringLiteral("#view .error")).contains(QLatin1String("invalid payload path")),
                 qPrintable(text(QStringLiteral("#view .error"))));

        // By event_id, then opened: the trail of an event requeued above, in time order: created,
        // then the operator's requeue.
        QVERIFY(search({{QStringLiteral("event_id"), QStringLiteral("gen-%1").arg(FailedEvery)}}));
        QCOMPARE(rowIds(QStringLiteral("events")), QStringList{QString::number(FailedEvery)});
        QVERIFY(m_page->click(QStringLiteral("#events tbody tr a")));
        QVERIFY(m_page->waitFor(QStringLiteral("location.hash === '#/event/%1'").arg(FailedEvery)));
        QVERIFY(viewReady(QStringLiteral("event")));
        const QStringList kinds =
            m_page
                ->evaluate(QStringLiteral("[...document.querySelectorAll('#event-trail > li')].map(li => "
                                          "li.dataset.kind).join(',')"))
                .split(QLatin1Char(','), Qt::SkipEmptyParts);
        QVERIFY2(kinds.size() >= 2 && kinds.first() == QLatin1String("created") &&
                     kinds.last() == QLatin1String("audit"),
                 qPrintable(kinds.join(QLatin1Char(','))));
        const QString times =
            m_page->evaluate(QStringLiteral("[...document.querySelectorAll('#event-trail > li')].map(li => "
                                            "li.dataset.kind + '@' + li.dataset.at).join(' ')"));
        QVERIFY2(m_page->evaluate(QStringLiteral("String([...document.querySelectorAll('#event-trail > li')]"
                                                 ".map(li => Date.parse(li.dataset.at))"
                                                 ".every((at, i, all) => i === 0 || all[i - 1] <= at))")) ==
                     QLatin1String("true"),
                 qPrintable(times));
        QCOMPARE(text(QStringLiteral("#event-trail li[data-kind=created] .kind")),
                 QStringLiteral("Event created"));
        const QString audit = text(QStringLiteral("#event-trail li[data-kind=audit] .summary"));
        QVERIFY2(audit.contains(QLatin1String("events.requeue by alice-oncall")) &&
                     audit.contains(QLatin1String("schema registry fixed")),
                 qPrintable(audit));
        // A sent event's trail names its topic, partition and offset.
        QVERIFY(m_page->click(QStringLiteral("#nav a[data-view=events]")));
        QVERIFY(viewReady(QStringLiteral("events")));
        QVERIFY(search({{QStringLiteral("offset"), QStringLiteral("4242")}}));
        QVERIFY(m_page->click(QStringLiteral("#events tbody tr a")));
        QVERIFY(m_page->waitFor(QStringLiteral("location.hash === '#/event/777'")));
        QVERIFY(viewReady(QStringLiteral("event")));
        QCOMPARE(text(QStringLiteral("#event-trail li[data-kind=sent] .where")),
                 QStringLiteral("topic orders, partition 2, offset 4242"));
        // Each fact once (issue 25 item 8): no line of the trail says its place or kind twice.
        const auto line = [&](const QString& kind) { // the step's line, without its folded details
            return m_page->evaluate(
                QStringLiteral("[...document.querySelector('#event-trail li[data-kind=%1]').childNodes]"
                               ".filter(n => n.nodeName !== 'DETAILS').map(n => n.textContent).join('')")
                    .arg(kind));
        };
        const QString sentLine = line(QStringLiteral("sent"));
        QVERIFY2(sentLine.count(QLatin1String("4242")) == 1, qPrintable(sentLine));
        const QString createdLine = line(QStringLiteral("created"));
        QVERIFY2(!createdLine.contains(QLatin1String("created:")), qPrintable(createdLine));
    }

    void findsTheJavaExamplesTraceId()
    {
        // A row written exactly as docs/examples/java/OrderService.java appendEvent() writes it (its
        // INSERT, every value bound, headers as the JSON text createOrder() builds).
        const QString traceId = QStringLiteral("5c6e8a0d2f4b4a7e9c1d3b5f7a9e0c2d");
        const QString traceparent = QStringLiteral("00-%1-a1b2c3d4e5f60718-01").arg(traceId);
        auto insert = m_db->execPositional(
            QStringLiteral(
                "INSERT INTO outbox_events (event_id, event_type, aggregate_type, aggregate_id, "
                "topic, payload, headers) VALUES (?, ?, ?, ?, ?, CAST(? AS jsonb), CAST(? AS jsonb))"),
            {QStringLiteral("0b3f6a52-1c7d-4e8f-9a0b-2c4d6e8f0a1b"), QStringLiteral("OrderCreated"),
             QStringLiteral("Order"), QStringLiteral("o-java-1"), QStringLiteral("orders"),
             QStringLiteral(R"({"order_id":"o-java-1","sku":"SKU-1","quantity":2,"total_cents":3998})"),
             QStringLiteral(
                 R"({"traceparent":"%1","content-type":"application/json","idempotency-key":"req-java-1"})")
                 .arg(traceparent)});
        QVERIFY2(insert.ok(), qPrintable(insert.message()));
        const QString id = QString::number(scalar(*m_db, QStringLiteral("SELECT max(id) FROM {events}")));

        m_page->navigate(m_base + QStringLiteral("/console/#/events"));
        QVERIFY(viewReady(QStringLiteral("events")));
        QVERIFY(m_page->click(QStringLiteral("#event-filter-clear")));
        QVERIFY(m_page->waitFor(QStringLiteral("location.hash === '#/events'")));
        QVERIFY(viewReady(QStringLiteral("events")));
        QVERIFY(m_page->type(QStringLiteral("#event-filter-trace_id"), traceId));
        QVERIFY(m_page->click(QStringLiteral("#event-filter-apply")));
        QVERIFY(m_page->waitFor(QStringLiteral("location.hash.includes('trace_id=%1')").arg(traceId)));
        QVERIFY(viewReady(QStringLiteral("events")));
        QCOMPARE(rowIds(QStringLiteral("events")), QStringList{id});

        // The event page links to the other events of its trace.
        QVERIFY(m_page->click(QStringLiteral("#events tbody tr a")));
        QVERIFY(m_page->waitFor(QStringLiteral("location.hash === '#/event/%1'").arg(id)));
        QVERIFY(viewReady(QStringLiteral("event")));
        QVERIFY(text(QStringLiteral("#headers-tree")).contains(traceparent));
        QVERIFY(m_page->click(QStringLiteral("#event-same-trace")));
        QVERIFY(m_page->waitFor(QStringLiteral("location.hash.startsWith('#/events') && "
                                               "location.hash.includes('trace_id=%1')")
                                    .arg(traceId)));
        QVERIFY(viewReady(QStringLiteral("events")));
        QCOMPARE(rowIds(QStringLiteral("events")), QStringList{id});

        // Not a trace id: the API's message in the page, the field kept as typed.
        QVERIFY(m_page->click(QStringLiteral("#event-filter-clear")));
        QVERIFY(m_page->waitFor(QStringLiteral("location.hash === '#/events'")));
        QVERIFY(viewReady(QStringLiteral("events")));
        QVERIFY(m_page->type(QStringLiteral("#event-filter-trace_id"), traceId.toUpper()));
        QVERIFY(m_page->click(QStringLiteral("#event-filter-apply")));
        QVERIFY(m_page->waitFor(QStringLiteral("document.querySelector('#view .error')")));
        QVERIFY2(text(QStringLiteral("#view .error")).contains(QLatin1String("invalid trace id")),
                 qPrintable(text(QStringLiteral("#view .error"))));
        QCOMPARE(m_page->evaluate(QStringLiteral("document.getElementById('event-filter-trace_id').value")),
                 traceId.toUpper());
        QCOMPARE(count(QStringLiteral("#events tbody tr")), 0);
    }

    void deadLetterReplayWithRedirect()
    {
        DeadLetter letter;
        letter.consumerName = QStringLiteral("inventory");
        letter.topic = QStringLiteral("orders");
        letter.eventId = QStringLiteral("gen-42");
        letter.payload = QByteArrayLiteral("{\"order\":\"O-42\",\"qty\":3}");
        letter.headers = QByteArrayLiteral("{\"trace_id\":\"t-42\"}");
        letter.error = QStringLiteral("cannot reserve stock");
        auto id = DeadLetterStore(*m_db).insert(letter);
        QVERIFY(id.ok());
        QVERIFY(m_page->click(QStringLiteral("#nav a[data-view=dead-letters]")));
        QVERIFY(viewReady(QStringLiteral("dead-letters")));
        QCOMPARE(rowIds(QStringLiteral("letters")), QStringList{QString::number(*id)});
        // Inspect it, back to the list, pick it and replay it to another topic.
        QVERIFY(m_page->click(QStringLiteral("#letters tbody tr a")));
        QVERIFY(viewReady(QStringLiteral("dead-letter")));
        QVERIFY(text(QStringLiteral("#payload-tree")).contains(QLatin1String("\"O-42\"")));
        QVERIFY(text(QStringLiteral("#headers-tree")).contains(QLatin1String("\"t-42\"")));
        QVERIFY(m_page->click(QStringLiteral("#nav a[data-view=dead-letters]")));
        QVERIFY(viewReady(QStringLiteral("dead-letters")));
        QVERIFY(m_page->click(QStringLiteral("#letters tbody input.pick")));
        QVERIFY(m_page->click(QStringLiteral("#act-replay-selected")));
        QVERIFY(m_page->waitFor(QStringLiteral("document.getElementById('action-count')")));
        QCOMPARE(text(QStringLiteral("#action-count")), QStringLiteral("1 row(s) will be changed."));
        QCOMPARE(count(QStringLiteral("#action-confirm")), 0); // one row: no typed confirmation
        QVERIFY(m_page->type(QStringLiteral("#action-topic"), QStringLiteral("orders.repaired")));
        QVERIFY(m_page->type(QStringLiteral("#action-reason"), QStringLiteral("stock service fixed")));
        QVERIFY(m_page->click(QStringLiteral("#action-run")));
        QVERIFY(m_page->waitFor(QStringLiteral("document.getElementById('action-result')")));
        QCOMPARE(text(QStringLiteral("#action-affected")), QStringLiteral("1 row(s) changed"));
        QCOMPARE(countRows(*m_db, QStringLiteral("{dead_letters}"),
                           QStringLiteral("status = 'REPLAYING' AND replay_topic = 'orders.repaired'")),
                 qint64(1));
        QCOMPARE(
            countRows(*m_db, QStringLiteral("{audit}"),
                      QStringLiteral("action = 'dlq.replay' AND actor = 'alice-oncall' AND reason = 'stock "
                                     "service fixed'")),
            qint64(1));
        QVERIFY(m_page->click(QStringLiteral("#action-close")));
    }

    void relaysPauseAndRecoveryActions()
    {
        RelayRecord relay;
        relay.workerId = QStringLiteral("relay-a");
        relay.host = QStringLiteral("relay-host");
        relay.state = QStringLiteral("RUNNING");
        relay.brokerKind = QStringLiteral("amqp");
        relay.brokerAddress = QStringLiteral("mq.internal:5672 vhost /");
        QVERIFY(RelayStore(*m_db).heartbeat(relay).ok());
        // The relay comes with the next pushed snapshot; pause it with a reason and the typed phrase.
        QVERIFY(m_page->click(QStringLiteral("#nav a[data-view=relays]")));
        QVERIFY(viewReady(QStringLiteral("relays")));
        QVERIFY2(m_page->waitFor(QStringLiteral("document.querySelector('#relays tr[data-worker=relay-a]')"),
                                 15000),
                 qPrintable(m_page->evaluate(
                     QStringLiteral("'draws ' + document.getElementById('relays-box').dataset.draws + ': ' + "
                                    "document.getElementById('relays-box').innerText"))));
        QCOMPARE(text(QStringLiteral("#relays tr[data-worker=relay-a] td.relay-state")),
                 QStringLiteral("RUNNING"));
        QCOMPARE(text(QStringLiteral("#relays tr[data-worker=relay-a] td.relay-broker")),
                 QStringLiteral("RabbitMQ mq.internal:5672 vhost /"));
        // Snapshots update the rows in place: a click whose press and release have a push between them
        // still lands (a row rebuilt under the pointer swallowed such a click).
        const QString kept = QStringLiteral("#relays tr[data-worker=relay-a]");
        m_page->evaluate(QStringLiteral("window.keptRelayRow = document.querySelector('%1'), "
                                        "window.relayDraws = Number(document.getElementById('relays-box')"
                                        ".dataset.draws), 'kept'")
                             .arg(kept));
        const QStringList centre =
            m_page
                ->evaluate(QStringLiteral(
                               "(() => { const b = document.querySelector('%1 input.pick'); "
                               "b.scrollIntoView({block: 'center'}); const r = b.getBoundingClientRect(); "
                               "return (r.left + r.width / 2) + ',' + (r.top + r.height / 2); })()")
                               .arg(kept))
                .split(QLatin1Char(','));
        QCOMPARE(centre.size(), 2);
        const auto mouse = [&](const char* type) {
            m_page->call(QStringLiteral("Input.dispatchMouseEvent"),
                         {{QStringLiteral("type"), QLatin1String(type)},
                          {QStringLiteral("x"), centre.at(0).toDouble()},
                          {QStringLiteral("y"), centre.at(1).toDouble()},
                          {QStringLiteral("button"), QStringLiteral("left")},
                          {QStringLiteral("clickCount"), 1}});
        };
        mouse("mousePressed");
        QVERIFY(m_page->waitFor(
            QStringLiteral("Number(document.getElementById('relays-box').dataset.draws) > window.relayDraws"),
            15000));
        mouse("mouseReleased");
        QCOMPARE(
            m_page->evaluate(QStringLiteral("String(document.querySelector('%1') === window.keptRelayRow && "
                                            "document.querySelector('%1 input.pick').checked)")
                                 .arg(kept)),
            QStringLiteral("true"));
        QVERIFY(m_page->click(QStringLiteral("#relay-pause")));
        // The phrase is the server's (core's): pausing a relay is always typed.
        QVERIFY(m_page->waitFor(QStringLiteral("document.getElementById('action-confirm')")));
        QCOMPARE(m_page->evaluate(QStringLiteral("document.getElementById('action-confirm').placeholder")),
                 QStringLiteral("pause 1"));
        QVERIFY(m_page->type(QStringLiteral("#action-reason"), QStringLiteral("broker maintenance")));
        QVERIFY(m_page->type(QStringLiteral("#action-confirm"), QStringLiteral("pause 1")));
        QVERIFY(m_page->click(QStringLiteral("#action-run")));
        QVERIFY(m_page->waitFor(QStringLiteral("document.getElementById('action-result')")));
        QVERIFY(text(QStringLiteral("#action-result")).contains(QLatin1String("relay-a")));
        QCOMPARE(countRows(*m_db, QStringLiteral("{relays}"),
                           QStringLiteral("worker_id = 'relay-a' AND desired_state = 'PAUSE'")),
                 qint64(1));
        QCOMPARE(
            countRows(*m_db, QStringLiteral("{audit}"),
                      QStringLiteral("action = 'relay.pause' AND actor = 'alice-oncall' AND reason = 'broker "
                                     "maintenance'")),
            qint64(1));
        QVERIFY(m_page->click(QStringLiteral("#action-close")));

        // Recovery: the doctor's finding for new FAILED events, its runbook, and its prepared
        // requeue opening the same preview.
        forceStatus(*m_db, {1, 2, 3}, QStringLiteral("FAILED"),
                    QStringLiteral("broker timeout after 30000 ms"));
        QVERIFY(m_page->click(QStringLiteral("#nav a[data-view=recovery]")));
        QVERIFY(viewReady(QStringLiteral("recovery")));
        QVERIFY(m_page->waitFor(
            QStringLiteral("document.querySelector('#findings .card[data-id=failed-events] .act-prepared')"),
            20000));
        QVERIFY(count(QStringLiteral("#findings .card[data-id=failed-events] ol li")) > 0);
        // The button posts the finding's action (id, key, index) to the server, which previews and
        // runs it through core's PreparedActionRunner; the dialog is the console's usual one.
        QVERIFY(m_page->click(QStringLiteral("#findings .card[data-id=failed-events] .act-prepared")));
        QVERIFY(m_page->waitFor(QStringLiteral("document.getElementById('action-count')")));
        QVERIFY2(text(QStringLiteral("#action-title")).startsWith(QLatin1String("Requeue")),
                 qPrintable(text(QStringLiteral("#action-title"))));
        QCOMPARE(text(QStringLiteral("#action-count")), QStringLiteral("3 row(s) will be changed."));
        const qint64 auditBefore = countRows(*m_db, QStringLiteral("{audit}"));
        QVERIFY(m_page->type(QStringLiteral("#action-reason"), QStringLiteral("broker back")));
        QVERIFY(m_page->evaluate(QStringLiteral("String(document.getElementById('action-run').disabled)")) ==
                QLatin1String("true")); // three rows: the typed confirmation
        QVERIFY(m_page->type(QStringLiteral("#action-confirm"), QStringLiteral("requeue 3")));
        QVERIFY(m_page->waitFor(QStringLiteral("!document.getElementById('action-run').disabled")));
        QVERIFY(m_page->click(QStringLiteral("#action-run")));
        QVERIFY(m_page->waitFor(QStringLiteral("document.getElementById('action-affected')"), 15000));
        QCOMPARE(text(QStringLiteral("#action-affected")), QStringLiteral("3 row(s) changed"));
        QVERIFY(m_page->click(QStringLiteral("#action-close")));
        QCOMPARE(countRows(*m_db, QStringLiteral("{events}"), QStringLiteral("status = 'FAILED'")),
                 qint64(0));
        QCOMPARE(countRows(*m_db, QStringLiteral("{audit}"),
                           QStringLiteral("actor = 'alice-oncall' AND reason = 'broker back'")),
                 qint64(1));
        QCOMPARE(countRows(*m_db, QStringLiteral("{audit}")), auditBefore + 1);
    }

    void viewerSeesNoActionsAndIsRefused()
    {
        QVERIFY(m_page->click(QStringLiteral("#signout")));
        QVERIFY(viewReady(QStringLiteral("signin")));
        QVERIFY(m_page->type(QStringLiteral("#token"), QString::fromUtf8(ViewerSecret)));
        QVERIFY(m_page->click(QStringLiteral("#signin-submit")));
        QVERIFY(viewReady(QStringLiteral("events")));
        QVERIFY(text(QStringLiteral("#who-name")).contains(QLatin1String("viewer")));
        QCOMPARE(count(QStringLiteral("#events tbody tr")), 50);
        QCOMPARE(count(QStringLiteral("#events input.pick, #event-actions, button[id^=act-]")), 0);
        m_page->navigate(m_base + QStringLiteral("/console/#/event/1"));
        QVERIFY(viewReady(QStringLiteral("event")));
        QCOMPARE(count(QStringLiteral("button[id^=act-]")), 0);
        m_page->navigate(m_base + QStringLiteral("/console/#/dead-letters"));
        QVERIFY(viewReady(QStringLiteral("dead-letters")));
        QCOMPARE(count(QStringLiteral("#letters tbody tr")), 1);
        QCOMPARE(count(QStringLiteral("input.pick, button[id^=act-]")), 0);
        m_page->navigate(m_base + QStringLiteral("/console/#/relays"));
        QVERIFY(viewReady(QStringLiteral("relays")));
        QCOMPARE(count(QStringLiteral("button[id^=relay-]")), 0);

        // A forged action from the page with the viewer's token: 403, nothing changes.
        const qint64 pending =
            countRows(*m_db, QStringLiteral("{events}"), QStringLiteral("status = 'PENDING'"));
        const QString status = m_page->evaluate(QStringLiteral(
            "fetch('/api/v1/events/dead', {method: 'POST', headers: {'Authorization': 'Bearer ' + "
            "sessionStorage.getItem('outbox-console-token'), 'Content-Type': 'application/json'}, body: "
            "JSON.stringify({filter: {status: ['PENDING']}, reason: 'forged'})}).then(r => "
            "String(r.status))"));
        QCOMPARE(status, QStringLiteral("403"));
        const QString relay = m_page->evaluate(QStringLiteral(
            "fetch('/api/v1/relays/pause', {method: 'POST', headers: {'Authorization': 'Bearer ' + "
            "sessionStorage.getItem('outbox-console-token'), 'Content-Type': 'application/json'}, body: "
            "JSON.stringify({workers: ['r1'], reason: 'forged'})}).then(r => String(r.status))"));
        QCOMPARE(relay, QStringLiteral("403"));
        QCOMPARE(countRows(*m_db, QStringLiteral("{events}"), QStringLiteral("status = 'PENDING'")), pending);
        QCOMPARE(countRows(*m_db, QStringLiteral("{audit}"), QStringLiteral("reason = 'forged'")), qint64(0));
    }

    void followsTheBrowserLanguage()
    {
        // A browser that prefers Simplified Chinese gets the zh_CN catalogue.
        m_page->call(QStringLiteral("Emulation.setUserAgentOverride"),
                     {{QStringLiteral("userAgent"), m_page->evaluate(QStringLiteral("navigator.userAgent"))},
                      {QStringLiteral("acceptLanguage"), QStringLiteral("zh-CN,zh")}});
        m_page->navigate(QStringLiteral("about:blank"));
        QVERIFY(m_page->waitFor(QStringLiteral("location.href === 'about:blank'")));
        m_page->navigate(m_base + QStringLiteral("/console/#/events"));
        QVERIFY(viewReady(QStringLiteral("events")));
        QCOMPARE(text(QStringLiteral("#nav a[data-view=events]")), QStringLiteral("事件"));
        QCOMPARE(text(QStringLiteral("#view h1")), QStringLiteral("事件"));
        QCOMPARE(text(QStringLiteral("#events-pager-next")), QStringLiteral("下一页"));
        // The search form is built from GET /api/v1/filters; its labels come from core's catalogue.
        QCOMPARE(text(QStringLiteral("label[for=event-filter-type]")), QStringLiteral("事件类型"));
        QCOMPARE(text(QStringLiteral("label[for=event-filter-payload]")), QStringLiteral("载荷 路径=值"));
    }

    void cleanupTestCase()
    {
        m_page.reset();
        m_server.reset();
    }
};

QTEST_MAIN(TestWebConsole)
#include "tst_webconsole.moc"
