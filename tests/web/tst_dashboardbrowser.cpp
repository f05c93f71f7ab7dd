// The dashboard in a real headless Chromium (Debian's chromium), driven over the DevTools
// protocol: it connects, shows the numbers, follows inserts, and says when data is stale.
#include "core/metrics/MetricsSampler.h"
#include "tests/support/TestDatabases.h"
#include "tests/web/HttpTestClient.h"
#include "ui/web/WebServer.h"
#include "ui/web/http/AccessControl.h"

#include <QDir>
#include <QEventLoop>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>
#include <QWebSocket>

using namespace outbox;
using namespace outbox::test;
using namespace outbox::web;

namespace {

const QByteArray ViewerSecret = "browser-viewer-secret";

// A minimal Chrome DevTools Protocol client over Qt's own WebSocket.
class DevTools
{
public:
    bool connectTo(const QUrl& url)
    {
        QObject::connect(&m_socket, &QWebSocket::textMessageReceived, &m_socket, [this](const QString& text) {
            const QJsonObject o = QJsonDocument::fromJson(text.toUtf8()).object();
            if (o.contains(QStringLiteral("id")))
                m_replies.insert(o.value(QStringLiteral("id")).toInt(), o);
        });
        m_socket.open(url);
        QElapsedTimer t;
        t.start();
        while (m_socket.state() != QAbstractSocket::ConnectedState && t.elapsed() < 15000)
            QTest::qWait(50);
        return m_socket.state() == QAbstractSocket::ConnectedState;
    }

    QJsonObject call(const QString& method, const QJsonObject& params = {})
    {
        const int id = ++m_nextId;
        m_socket.sendTextMessage(
            QString::fromUtf8(QJsonDocument(QJsonObject{{QStringLiteral("id"), id},
                                                        {QStringLiteral("method"), method},
                                                        {QStringLiteral("params"), params}})
                                  .toJson(QJsonDocument::Compact)));
        QElapsedTimer t;
        t.start();
        while (!m_replies.contains(id) && t.elapsed() < 30000)
            QTest::qWait(20);
        return m_replies.take(id).value(QStringLiteral("result")).toObject();
    }

    QString evaluate(const QString& expression)
    {
        const QJsonObject r =
            call(QStringLiteral("Runtime.evaluate"),
                 {{QStringLiteral("expression"), expression}, {QStringLiteral("returnByValue"), true}});
        return r.value(QStringLiteral("result"))
            .toObject()
            .value(QStringLiteral("value"))
            .toVariant()
            .toString();
    }

private:
    QWebSocket m_socket;
    QHash<int, QJsonObject> m_replies;
    int m_nextId = 0;
};

QByteArray httpGet(const QUrl& url)
{
    HttpTestClient client(url);
    return client.get(url.path()).body;
}

} // namespace

class TestDashboardBrowser : public QObject
{
    Q_OBJECT

private slots:
    void dashboardFollowsTheDatabase()
    {
        const QString chromium = QStandardPaths::findExecutable(QStringLiteral("chromium"));
        QVERIFY2(!chromium.isEmpty(), "chromium is not installed (installer/install-deps.sh installs it)");

        auto db = TestDatabases::fresh(QStringLiteral("postgresql"),
                                       TestDatabases::uniqueName(QStringLiteral("browser")));
        insertEvents(*db, 5);
        WebConfig config;
        config.port = 0;
        config.sampleIntervalMs = 300;
        config.tokens = {
            ApiToken{QStringLiteral("wallboard"), Role::Viewer, AccessControl::hashToken(ViewerSecret)}};
        WebServer server(config, DatabaseTarget(db->url(), QString()));
        QVERIFY(server.start().ok());

        QTemporaryDir profile;
        QProcess browser;
        browser.setProcessChannelMode(QProcess::ForwardedErrorChannel);
        browser.setStandardOutputFile(QProcess::nullDevice());
        const QString pageUrl =
            server.baseUrl().toString() + QStringLiteral("#token=") + QString::fromUtf8(ViewerSecret);
        browser.start(chromium,
                      {QStringLiteral("--headless"), QStringLiteral("--no-sandbox"),
                       QStringLiteral("--disable-gpu"), QStringLiteral("--disable-quic"),
                       QStringLiteral("--no-first-run"), QStringLiteral("--disable-background-networking"),
                       QStringLiteral("--disable-component-update"), QStringLiteral("--disable-sync"),
                       QStringLiteral("--user-data-dir=") + profile.path(),
                       QStringLiteral("--remote-debugging-address=127.0.0.1"),
                       QStringLiteral("--remote-debugging-port=0"), QStringLiteral("--window-size=1600,1000"),
                       pageUrl});
        QVERIFY(browser.waitForStarted());
        auto cleanup = qScopeGuard([&] {
            browser.terminate();
            if (!browser.waitForFinished(10000))
                browser.kill();
            browser.waitForFinished(5000);
        });

        // Chromium writes the port it chose into the profile.
        const QString portFile = profile.filePath(QStringLiteral("DevToolsActivePort"));
        QTRY_VERIFY_WITH_TIMEOUT(QFile::exists(portFile) && QFileInfo(portFile).size() > 0, 30000);
        QFile f(portFile);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const int devtoolsPort = f.readLine().trimmed().toInt();
        QVERIFY(devtoolsPort > 0);

        QString pageSocket;
        QTRY_VERIFY_WITH_TIMEOUT(
            [&] {
                const QJsonArray targets =
                    QJsonDocument::fromJson(
                        httpGet(QUrl(QStringLiteral("http://127.0.0.1:%1/json/list").arg(devtoolsPort))))
                        .array();
                for (const QJsonValue& t : targets)
                    if (t.toObject().value(QStringLiteral("type")).toString() == QLatin1String("page"))
                        pageSocket = t.toObject().value(QStringLiteral("webSocketDebuggerUrl")).toString();
                return !pageSocket.isEmpty();
            }(),
            30000);
        DevTools devtools;
        QVERIFY(devtools.connectTo(QUrl(pageSocket)));

        const QString pending =
            QStringLiteral("document.querySelector('[data-metric=\"PENDING\"]').textContent");
        QTRY_COMPARE_WITH_TIMEOUT(
            devtools.evaluate(QStringLiteral("document.getElementById('connection').textContent")),
            QStringLiteral("live"), 20000);
        QTRY_COMPARE_WITH_TIMEOUT(devtools.evaluate(pending), QStringLiteral("5"), 20000);
        QCOMPARE(devtools.evaluate(QStringLiteral("String(document.getElementById('stale-banner').hidden)")),
                 QStringLiteral("true"));
        // The token left the address bar once read, and the tab's history entry (issue 26): not
        // its address, not the address as typed (which replaceState alone leaves behind).
        QVERIFY(
            !devtools.evaluate(QStringLiteral("location.href")).contains(QString::fromUtf8(ViewerSecret)));
        const QJsonArray entries = devtools.call(QStringLiteral("Page.getNavigationHistory"))
                                       .value(QStringLiteral("entries"))
                                       .toArray();
        QVERIFY(!entries.isEmpty());
        for (const QJsonValue& entry : entries) {
            const QByteArray json = QJsonDocument(entry.toObject()).toJson(QJsonDocument::Compact);
            QVERIFY2(!json.contains(ViewerSecret) && !json.contains("token="), json.constData());
        }

        // Insert events and a failure: the wallboard follows within a few ticks.
        const auto ids = insertEvents(*db, 1200, QStringLiteral("OrderShipped"), QStringLiteral("ship-"));
        forceStatus(*db, ids.mid(0, 3), QStringLiteral("FAILED"), QStringLiteral("no route"));
        QTRY_COMPARE_WITH_TIMEOUT(devtools.evaluate(pending), QStringLiteral("1,202"), 20000);
        QTRY_COMPARE_WITH_TIMEOUT(devtools.evaluate(QStringLiteral(
                                      "document.querySelector('[data-metric=\"FAILED\"]').textContent")),
                                  QStringLiteral("3"), 20000);
        QCOMPARE(devtools.evaluate(QStringLiteral(
                     "String(document.getElementById('tile-failed').classList.contains('alert'))")),
                 QStringLiteral("true"));
        QVERIFY(
            devtools.evaluate(QStringLiteral("String(Chart.getChart('chart-backlog').data.labels.length)"))
                .toInt() >= 2);

        const QJsonObject shot = devtools.call(QStringLiteral("Page.captureScreenshot"),
                                               {{QStringLiteral("format"), QStringLiteral("png")}});
        const QByteArray png =
            QByteArray::fromBase64(shot.value(QStringLiteral("data")).toString().toLatin1());
        QVERIFY(png.startsWith("\x89PNG"));
        QFile out(QDir::current().filePath(QStringLiteral("dashboard.png")));
        QVERIFY(out.open(QIODevice::WriteOnly));
        out.write(png);
        out.close();
        qInfo("screenshot: %s (%lld bytes)", qPrintable(out.fileName()), qint64(png.size()));

        // Stop the sampler: the page must say that its numbers are stale.
        server.sampler().setPaused(true);
        QTRY_COMPARE_WITH_TIMEOUT(
            devtools.evaluate(QStringLiteral("String(document.getElementById('stale-banner').hidden)")),
            QStringLiteral("false"), 10000);
        QVERIFY(
            devtools.evaluate(QStringLiteral("document.body.className")).contains(QStringLiteral("stale")));
        server.sampler().setPaused(false);
        QTRY_COMPARE_WITH_TIMEOUT(
            devtools.evaluate(QStringLiteral("String(document.getElementById('stale-banner').hidden)")),
            QStringLiteral("true"), 10000);
    }
};

QTEST_GUILESS_MAIN(TestDashboardBrowser)
#include "tst_dashboardbrowser.moc"
