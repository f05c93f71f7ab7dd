#include "tests/web/ChromiumPage.h"

#include "tests/web/HttpTestClient.h"

#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QStandardPaths>
#include <QTest>

namespace outbox::test {

ChromiumPage::~ChromiumPage()
{
    m_socket.abort();
    if (m_browser.state() != QProcess::NotRunning) {
        m_browser.terminate();
        if (!m_browser.waitForFinished(10000))
            m_browser.kill();
        m_browser.waitForFinished(5000);
    }
}

bool ChromiumPage::open(const QString& url, QString* error)
{
    const QString chromium = QStandardPaths::findExecutable(QStringLiteral("chromium"));
    if (chromium.isEmpty()) {
        *error = QStringLiteral("chromium is not installed (installer/install-deps.sh installs it)");
        return false;
    }
    m_browser.setProcessChannelMode(QProcess::ForwardedErrorChannel);
    m_browser.setStandardOutputFile(QProcess::nullDevice());
    m_browser.start(
        chromium,
        {QStringLiteral("--headless"), QStringLiteral("--no-sandbox"), QStringLiteral("--disable-gpu"),
         QStringLiteral("--disable-quic"), QStringLiteral("--no-first-run"),
         QStringLiteral("--disable-background-networking"), QStringLiteral("--disable-component-update"),
         QStringLiteral("--disable-sync"), QStringLiteral("--user-data-dir=") + m_profile.path(),
         QStringLiteral("--remote-debugging-address=127.0.0.1"), QStringLiteral("--remote-debugging-port=0"),
         QStringLiteral("--window-size=%1,%2").arg(m_width).arg(m_height), url});
    if (!m_browser.waitForStarted()) {
        *error = QStringLiteral("chromium did not start");
        return false;
    }
    // Chromium writes the DevTools port it chose into the profile.
    const QString portFile = m_profile.filePath(QStringLiteral("DevToolsActivePort"));
    QElapsedTimer t;
    t.start();
    while (!(QFile::exists(portFile) && QFileInfo(portFile).size() > 0) && t.elapsed() < 30000)
        QTest::qWait(100);
    QFile f(portFile);
    if (!f.open(QIODevice::ReadOnly)) {
        *error = QStringLiteral("chromium wrote no DevToolsActivePort");
        return false;
    }
    const int port = f.readLine().trimmed().toInt();
    QString pageSocket;
    while (pageSocket.isEmpty() && t.elapsed() < 30000) {
        const QUrl list(QStringLiteral("http://127.0.0.1:%1/json/list").arg(port));
        HttpTestClient client(list);
        for (const QJsonValue& v : QJsonDocument::fromJson(client.get(list.path()).body).array())
            if (v.toObject().value(QStringLiteral("type")).toString() == QLatin1String("page"))
                pageSocket = v.toObject().value(QStringLiteral("webSocketDebuggerUrl")).toString();
        if (pageSocket.isEmpty())
            QTest::qWait(200);
    }
    if (pageSocket.isEmpty()) {
        *error = QStringLiteral("chromium shows no page");
        return false;
    }
    collectReplies();
    m_socket.open(QUrl(pageSocket));
    while (m_socket.state() != QAbstractSocket::ConnectedState && t.elapsed() < 45000)
        QTest::qWait(50);
    if (m_socket.state() != QAbstractSocket::ConnectedState) {
        *error = QStringLiteral("cannot reach chromium's DevTools socket");
        return false;
    }
    return true;
}

QJsonObject ChromiumPage::call(const QString& method, const QJsonObject& params)
{
    return exchange(method, params).value(QStringLiteral("result")).toObject();
}

QString ChromiumPage::evaluate(const QString& expression)
{
    const QJsonObject r =
        call(QStringLiteral("Runtime.evaluate"), {{QStringLiteral("expression"), expression},
                                                  {QStringLiteral("returnByValue"), true},
                                                  {QStringLiteral("awaitPromise"), true}});
    return r.value(QStringLiteral("result")).toObject().value(QStringLiteral("value")).toVariant().toString();
}

QByteArray ChromiumPage::screenshotPng()
{
    const QJsonObject shot =
        call(QStringLiteral("Page.captureScreenshot"), {{QStringLiteral("format"), QStringLiteral("png")}});
    return QByteArray::fromBase64(shot.value(QStringLiteral("data")).toString().toLatin1());
}

bool ChromiumPage::click(const QString& selector)
{
    const std::optional<QPointF> centre = elementCentre(selector);
    if (!centre)
        return false;
    for (const char* type : {"mousePressed", "mouseReleased"})
        call(QStringLiteral("Input.dispatchMouseEvent"), {{QStringLiteral("type"), QLatin1String(type)},
                                                          {QStringLiteral("x"), centre->x()},
                                                          {QStringLiteral("y"), centre->y()},
                                                          {QStringLiteral("button"), QStringLiteral("left")},
                                                          {QStringLiteral("clickCount"), 1}});
    return true;
}

bool ChromiumPage::type(const QString& selector, const QString& text)
{
    if (!click(selector))
        return false;
    call(QStringLiteral("Input.insertText"), {{QStringLiteral("text"), text}});
    return true;
}

void ChromiumPage::navigate(const QString& url)
{
    call(QStringLiteral("Page.navigate"), {{QStringLiteral("url"), url}});
}

} // namespace outbox::test
