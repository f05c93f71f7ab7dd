// The web admin console (/console/) in a real headless Firefox ESR, driven over WebDriver BiDi with
// real pointer clicks and key presses: sign-in by fragment, the events list's second page and a
// filter, one event, and a failure group requeued through preview, reason, typed confirmation and a
// job of two chunks (progress from /ws, read with GET only once) that leaves the rows PENDING.
#include "tests/support/BulkEvents.h"
#include "tests/support/HeldRow.h"
#include "tests/support/TestDatabases.h"
#include "tests/web/ConsoleView.h"
#include "tests/web/FirefoxPage.h"
#include "tests/web/HttpTestClient.h"
#include "ui/web/WebServer.h"
#include "ui/web/http/AccessControl.h"

#include <QElapsedTimer>
#include <QJsonArray>
#include <QJsonDocument>
#include <QTest>
#include <cstdio>

using namespace outbox;
using namespace outbox::test;
using namespace outbox::web;

namespace {

const QByteArray OperatorSecret = "firefox-operator-secret";
constexpr int Events = 6000;
constexpr int FailedEvery = 5; // 1,200 FAILED events in one failure group: two chunks

} // namespace

class TestWebConsoleFirefox : public QObject
{
    Q_OBJECT

    std::unique_ptr<Database> m_db;
    std::unique_ptr<WebServer> m_server;
    std::unique_ptr<FirefoxPage> m_page;
    QString m_base;
    QElapsedTimer m_clock;

    // What the page shows, read the same way in every browser (tests/web/ConsoleView.h).
    ConsoleView view() { return ConsoleView(*m_page); }
    QString text(const QString& selector) { return view().text(selector); }
    int count(const QString& selector) { return view().count(selector); }
    bool viewReady(const QString& v) { return view().ready(v); }
    QStringList rowIds(const QString& table) { return view().rowIds(table); }

private slots:
    void initTestCase()
    {
        m_clock.start();
        if (FirefoxPage::executable().isEmpty())
            QSKIP("firefox-esr is not installed (installer/install-deps.sh installs it; CI runs this test)");
        m_db = TestDatabases::fresh(QStringLiteral("postgresql"),
                                    TestDatabases::uniqueName(QStringLiteral("webfirefox")));
        insertGeneratedEvents(*m_db, Events, FailedEvery);
        WebConfig config;
        config.port = 0;
        config.sampleIntervalMs = 500;
        config.findingsIntervalMs = 60000;
        config.tokens = {ApiToken{QStringLiteral("fiona-firefox"), Role::Operator,
                                  AccessControl::hashToken(OperatorSecret)}};
        m_server = std::make_unique<WebServer>(config, DatabaseTarget(m_db->url(), QString()));
        QVERIFY(m_server->start().ok());
        m_base = m_server->baseUrl().toString();
        m_base.chop(1);
    }

    void signInByFragment()
    {
        m_page = std::make_unique<FirefoxPage>();
        QString error;
        QVERIFY2(m_page->open(m_base + QStringLiteral("/console/#token=") + QString::fromUtf8(OperatorSecret),
                              &error),
                 qPrintable(error));
        std::printf("Firefox %s\n", qPrintable(m_page->version()));
        QVERIFY(viewReady(QStringLiteral("events")));
        QCOMPARE(count(QStringLiteral("#events tbody tr")), 50);
        QCOMPARE(m_page->evaluate(QStringLiteral("location.hash")), QStringLiteral("#/events"));
        QCOMPARE(m_page->evaluate(QStringLiteral("sessionStorage.getItem('outbox-console-token')")),
                 QString::fromUtf8(OperatorSecret));
        QVERIFY(text(QStringLiteral("#who-name")).contains(QLatin1String("fiona-firefox")));
        // The live counts come over /ws.
        QVERIFY(m_page->waitFor(QStringLiteral("document.querySelector('#counts [data-count=FAILED] .n')"),
                                15000));
        QCOMPARE(text(QStringLiteral("#counts [data-count=FAILED] .n")).remove(QLatin1Char(',')),
                 QString::number(Events / FailedEvery));
    }

    void eventsSecondPageAndAFilter()
    {
        const QStringList first = rowIds(QStringLiteral("events"));
        QCOMPARE(first.size(), 50);
        QCOMPARE(first.first(), QString::number(Events));
        QVERIFY(m_page->click(QStringLiteral("#events-pager-next")));
        QVERIFY(m_page->waitFor(QStringLiteral("location.hash.includes('after=')")));
        QVERIFY(viewReady(QStringLiteral("events")));
        const QStringList second = rowIds(QStringLiteral("events"));
        QCOMPARE(second.size(), 50);
        QCOMPARE(second.first().toLongLong(), first.last().toLongLong() - 1);

        QVERIFY(m_page->type(QStringLiteral("#event-filter-aggregate"), QStringLiteral("order-7")));
        QVERIFY(m_page->click(QStringLiteral("#event-filter-apply")));
        QVERIFY(m_page->waitFor(QStringLiteral("location.hash === '#/events?aggregate=order-7'")));
        QVERIFY(viewReady(QStringLiteral("events")));
        QCOMPARE(qint64(count(QStringLiteral("#events tbody tr"))),
                 countRows(*m_db, QStringLiteral("{events}"), QStringLiteral("aggregate_id = 'order-7'")));
        QCOMPARE(m_page->evaluate(QStringLiteral(
                     "String([...document.querySelectorAll('#events tbody tr td:nth-child(5)')]"
                     ".every(td => td.textContent === 'Order/order-7'))")),
                 QStringLiteral("true"));
    }

    void openEvent()
    {
        const QString id = rowIds(QStringLiteral("events")).first();
        QVERIFY(m_page->click(QStringLiteral("#events tbody tr a")));
        QVERIFY(m_page->waitFor(QStringLiteral("location.hash === '#/event/%1'").arg(id)));
        QVERIFY(viewReady(QStringLiteral("event")));
        QCOMPARE(text(QStringLiteral("#event-fields [data-field=event_id]")), QStringLiteral("gen-") + id);
        QCOMPARE(text(QStringLiteral("#event-fields [data-field=aggregate_id]")), QStringLiteral("order-7"));
        QVERIFY(text(QStringLiteral("#payload-tree")).contains(QStringLiteral("n: %1").arg(id)));
        QVERIFY(m_page->click(QStringLiteral("#payload-tree summary"))); // folds
        QCOMPARE(
            m_page->evaluate(QStringLiteral("String(document.querySelector('#payload-tree details').open)")),
            QStringLiteral("false"));
    }

    void requeueFailureGroupThroughAJob()
    {
        const qint64 failed = Events / FailedEvery;
        QVERIFY(m_page->click(QStringLiteral("#nav a[data-view=groups]")));
        QVERIFY(viewReady(QStringLiteral("groups")));
        QCOMPARE(count(QStringLiteral("#groups tbody tr")), 1);
        QVERIFY(m_page->click(QStringLiteral("#groups .act-requeue-group")));
        QVERIFY(m_page->waitFor(QStringLiteral("document.getElementById('action-count')")));
        QCOMPARE(text(QStringLiteral("#action-count")),
                 QStringLiteral("%1 row(s) will be changed.").arg(failed));
        QCOMPARE(count(QStringLiteral("#action-sample tbody tr")), 10);
        auto runEnabled = [this] {
            return m_page->evaluate(QStringLiteral(
                       "String(!document.getElementById('action-run').disabled)")) == QLatin1String("true");
        };
        QVERIFY(m_page->type(QStringLiteral("#action-reason"), QStringLiteral("fixed in firefox")));
        QVERIFY(!runEnabled());
        QVERIFY(m_page->type(QStringLiteral("#action-confirm"), QStringLiteral("requeue 12")));
        QVERIFY(!runEnabled());
        QVERIFY(m_page->type(QStringLiteral("#action-confirm"), QStringLiteral("00"))); // "requeue 1200"
        QVERIFY(m_page->waitFor(QStringLiteral("!document.getElementById('action-run').disabled")));
        QCOMPARE(countRows(*m_db, QStringLiteral("{events}"), QStringLiteral("status = 'FAILED'")), failed);

        // A row of the second chunk is held, so the first chunk's progress must come over /ws.
        HeldRow held(*m_db, QStringLiteral("{events}"), Events);
        QVERIFY(held.ok());
        m_page->evaluate(QStringLiteral("performance.setResourceTimingBufferSize(10000), "
                                        "performance.clearResourceTimings(), ''"));
        const QString jobReads = QStringLiteral("String(performance.getEntriesByType('resource')"
                                                ".filter(e => e.name.includes('/api/v1/jobs/')).length)");
        QVERIFY(m_page->click(QStringLiteral("#action-run")));
        QVERIFY2(m_page->waitFor(QStringLiteral("document.getElementById('job-progress') && "
                                                "document.getElementById('job-progress').value === 1000"),
                                 15000),
                 qPrintable(text(QStringLiteral("#action-body"))));
        QTest::qWait(1000);
        QCOMPARE(m_page->evaluate(QStringLiteral("document.getElementById('action-body').dataset.jobState")),
                 QStringLiteral("running"));
        held.release();
        QVERIFY(m_page->waitFor(
            QStringLiteral("document.getElementById('action-body').dataset.jobState === 'done'"), 30000));
        QCOMPARE(m_page->evaluate(QStringLiteral("String(document.getElementById('job-progress').value)")),
                 QString::number(failed));
        QCOMPARE(text(QStringLiteral("#action-affected")), QStringLiteral("%1 row(s) changed").arg(failed));
        QCOMPARE(m_page->evaluate(jobReads), QStringLiteral("1")); // once on open, the rest pushed
        QCOMPARE(countRows(*m_db, QStringLiteral("{events}"), QStringLiteral("status = 'FAILED'")),
                 qint64(0));
        QCOMPARE(countRows(*m_db, QStringLiteral("{events}"), QStringLiteral("status = 'PENDING'")), failed);
        QCOMPARE(
            countRows(*m_db, QStringLiteral("{audit}"),
                      QStringLiteral("action = 'events.requeue' AND actor = 'fiona-firefox' AND reason = "
                                     "'fixed in firefox'")),
            qint64(2));
        QVERIFY(m_page->click(QStringLiteral("#action-close")));
        QVERIFY(viewReady(QStringLiteral("groups")));
        QCOMPARE(count(QStringLiteral("#groups tbody tr")), 0);
    }

    void cleanupTestCase()
    {
        m_page.reset();
        m_server.reset();
        std::printf("Firefox console test: %.1f s\n", m_clock.elapsed() / 1000.0);
    }
};

QTEST_MAIN(TestWebConsoleFirefox)
#include "tst_webconsolefirefox.moc"
