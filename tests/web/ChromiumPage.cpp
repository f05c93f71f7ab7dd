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
         QStringLiteral("--window-size=1600,1000"), url});
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
    QObject::connect(&m_socket, &QWebSocket::textMessageReceived, &m_socket, [this](const QString& text) {
        const QJsonObject o = QJsonDocument::fromJson(text.toUtf8()).object();
        if (o.contains(QStringLiteral("id")))
            m_replies.insert(o.value(QStringLiteral("id")).toInt(), o);
    });
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
    const int id = ++m_nextId;
    m_socket.sendTextMessage(QString::fromUtf8(QJsonDocument(QJsonObject{{QStringLiteral("id"), id},
                                                                         {QStringLiteral("method"), method},
                                                                         {QStringLiteral("params"), params}})
                                                   .toJson(QJsonDocument::Compact)));
    QElapsedTimer t;
    t.start();
    while (!m_replies.contains(id) && t.elapsed() < 30000)
        QTest::qWait(20);
    return m_replies.take(id).value(QStringLiteral("result")).toObject();
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

bool ChromiumPage::waitFor(const QString& expression, int timeoutMs)
{
    QElapsedTimer t;
    t.start();
    const QString test =
        QStringLiteral("(() => { try { return !!(%1); } catch (e) { return false; } })()").arg(expression);
    while (t.elapsed() < timeoutMs) {
        if (evaluate(test) == QLatin1String("true"))
            return true;
        QTest::qWait(50);
    }
    return false;
}

bool ChromiumPage::click(const QString& selector)
{
    const QString selectorJson =
        QString::fromUtf8(QJsonDocument(QJsonArray{selector}).toJson(QJsonDocument::Compact));
    const QJsonObject box =
        QJsonDocument::fromJson(
            evaluate(QStringLiteral("(() => { const e = document.querySelector(%1[0]); "
                                    "if (!e) return ''; e.scrollIntoView({block: 'center'}); "
                                    "const r = e.getBoundingClientRect(); "
                                    "return JSON.stringify({x: r.x + r.width / 2, y: r.y + "
                                    "r.height / 2, w: r.width, h: r.height}); })()")
                         .arg(selectorJson))
                .toUtf8())
            .object();
    if (box.isEmpty() || box.value(QStringLiteral("w")).toDouble() <= 0 ||
        box.value(QStringLiteral("h")).toDouble() <= 0)
        return false;
    for (const char* type : {"mousePressed", "mouseReleased"})
        call(QStringLiteral("Input.dispatchMouseEvent"),
             {{QStringLiteral("type"), QLatin1String(type)},
              {QStringLiteral("x"), box.value(QStringLiteral("x"))},
              {QStringLiteral("y"), box.value(QStringLiteral("y"))},
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
