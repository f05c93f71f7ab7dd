#include "tests/web/FirefoxPage.h"

#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTest>

namespace outbox::test {

namespace {

QJsonObject keyPress(const QString& key, const char* type)
{
    return {{QStringLiteral("type"), QLatin1String(type)}, {QStringLiteral("value"), key}};
}

} // namespace

FirefoxPage::~FirefoxPage()
{
    if (m_socket.state() == QAbstractSocket::ConnectedState) {
        // Ends the session and the browser; a reply is not awaited.
        m_socket.sendTextMessage(QStringLiteral(R"({"id":999999,"method":"browser.close","params":{}})"));
        m_socket.flush();
    }
    m_socket.abort();
    if (m_browser.state() != QProcess::NotRunning) {
        if (!m_browser.waitForFinished(5000)) {
            m_browser.terminate();
            if (!m_browser.waitForFinished(10000))
                m_browser.kill();
        }
        m_browser.waitForFinished(5000);
    }
}

QString FirefoxPage::executable()
{
    for (const char* name : {"firefox-esr", "firefox"})
        if (const QString path = QStandardPaths::findExecutable(QLatin1String(name)); !path.isEmpty())
            return path;
    return {};
}

bool FirefoxPage::open(const QString& url, QString* error)
{
    const QString firefox = executable();
    if (firefox.isEmpty()) {
        *error = QStringLiteral("firefox-esr is not installed (installer/install-deps.sh installs it)");
        return false;
    }
    // A fresh profile that talks to nothing but the pages it is sent to (the remote agent adds its
    // own recommended preferences for automation on top).
    QFile prefs(m_profile.filePath(QStringLiteral("user.js")));
    if (!prefs.open(QIODevice::WriteOnly)) {
        *error = QStringLiteral("cannot write the Firefox profile");
        return false;
    }
    prefs.write("user_pref(\"browser.shell.checkDefaultBrowser\", false);\n"
                "user_pref(\"datareporting.policy.dataSubmissionEnabled\", false);\n"
                "user_pref(\"toolkit.telemetry.reportingpolicy.firstRun\", false);\n"
                "user_pref(\"browser.startup.homepage_override.mstone\", \"ignore\");\n"
                "user_pref(\"browser.newtabpage.enabled\", false);\n"
                "user_pref(\"extensions.update.enabled\", false);\n"
                "user_pref(\"network.captive-portal-service.enabled\", false);\n"
                "user_pref(\"network.connectivity-service.enabled\", false);\n"
                "user_pref(\"browser.safebrowsing.update.enabled\", false);\n"
                "user_pref(\"app.update.disabledForTesting\", true);\n");
    prefs.close();
    m_browser.setProcessChannelMode(QProcess::SeparateChannels);
    m_browser.setStandardOutputFile(QProcess::nullDevice());
    m_browser.start(firefox,
                    {QStringLiteral("--headless"), QStringLiteral("--no-remote"), QStringLiteral("--profile"),
                     m_profile.path(), QStringLiteral("--remote-debugging-port=0"),
                     QStringLiteral("--window-size=1600,1000"), QStringLiteral("about:blank")});
    if (!m_browser.waitForStarted()) {
        *error = QStringLiteral("firefox did not start");
        return false;
    }
    // Firefox says on stderr where its WebDriver BiDi server listens.
    static const QRegularExpression listening(QStringLiteral("WebDriver BiDi listening on (ws://\\S+)"));
    QElapsedTimer t;
    t.start();
    QString socketUrl;
    QByteArray stderrText;
    while (socketUrl.isEmpty() && t.elapsed() < 30000 && m_browser.state() == QProcess::Running) {
        m_browser.waitForReadyRead(200);
        stderrText += m_browser.readAllStandardError();
        if (const auto m = listening.match(QString::fromUtf8(stderrText)); m.hasMatch())
            socketUrl = m.captured(1);
    }
    if (socketUrl.isEmpty()) {
        *error = QStringLiteral("firefox did not start its WebDriver BiDi server: ") +
                 QString::fromUtf8(stderrText.right(2000));
        return false;
    }
    // Firefox's own chatter on stderr is dropped from here on.
    QObject::connect(&m_browser, &QProcess::readyReadStandardError, &m_browser,
                     [this] { m_browser.readAllStandardError(); });
    collectReplies();
    m_socket.open(QUrl(socketUrl + QStringLiteral("/session")));
    while (m_socket.state() != QAbstractSocket::ConnectedState && t.elapsed() < 45000)
        QTest::qWait(50);
    if (m_socket.state() != QAbstractSocket::ConnectedState) {
        *error = QStringLiteral("cannot reach Firefox's WebDriver BiDi socket at ") + socketUrl;
        return false;
    }
    const QJsonObject session =
        call(QStringLiteral("session.new"), {{QStringLiteral("capabilities"), QJsonObject{}}});
    m_version = session.value(QStringLiteral("capabilities"))
                    .toObject()
                    .value(QStringLiteral("browserVersion"))
                    .toString();
    const QJsonArray contexts =
        call(QStringLiteral("browsingContext.getTree")).value(QStringLiteral("contexts")).toArray();
    if (contexts.isEmpty()) {
        *error = QStringLiteral("firefox shows no page");
        return false;
    }
    m_context = contexts.first().toObject().value(QStringLiteral("context")).toString();
    navigate(url);
    return true;
}

QJsonObject FirefoxPage::call(const QString& method, const QJsonObject& params)
{
    const QJsonObject reply = exchange(method, params);
    if (reply.value(QStringLiteral("type")) != QLatin1String("success"))
        qWarning("BiDi %s failed: %s", qPrintable(method),
                 reply.isEmpty()
                     ? "no reply"
                     : QJsonDocument(reply).toJson(QJsonDocument::Compact).left(1000).constData());
    return reply.value(QStringLiteral("result")).toObject();
}

QString FirefoxPage::evaluate(const QString& expression)
{
    const QJsonObject r =
        call(QStringLiteral("script.evaluate"),
             {{QStringLiteral("expression"), expression},
              {QStringLiteral("target"), QJsonObject{{QStringLiteral("context"), m_context}}},
              {QStringLiteral("awaitPromise"), true},
              {QStringLiteral("resultOwnership"), QStringLiteral("none")}});
    if (r.value(QStringLiteral("type")) != QLatin1String("success"))
        return {};
    return r.value(QStringLiteral("result")).toObject().value(QStringLiteral("value")).toVariant().toString();
}

bool FirefoxPage::click(const QString& selector)
{
    const std::optional<QPointF> centre = elementCentre(selector);
    if (!centre)
        return false;
    const int x = qRound(centre->x());
    const int y = qRound(centre->y());
    const QJsonArray steps{
        QJsonObject{{QStringLiteral("type"), QStringLiteral("pointerMove")},
                    {QStringLiteral("x"), x},
                    {QStringLiteral("y"), y}},
        QJsonObject{{QStringLiteral("type"), QStringLiteral("pointerDown")}, {QStringLiteral("button"), 0}},
        QJsonObject{{QStringLiteral("type"), QStringLiteral("pointerUp")}, {QStringLiteral("button"), 0}}};
    call(QStringLiteral("input.performActions"),
         {{QStringLiteral("context"), m_context},
          {QStringLiteral("actions"),
           QJsonArray{QJsonObject{{QStringLiteral("type"), QStringLiteral("pointer")},
                                  {QStringLiteral("id"), QStringLiteral("mouse")},
                                  {QStringLiteral("parameters"),
                                   QJsonObject{{QStringLiteral("pointerType"), QStringLiteral("mouse")}}},
                                  {QStringLiteral("actions"), steps}}}}});
    return true;
}

bool FirefoxPage::type(const QString& selector, const QString& text)
{
    if (!click(selector))
        return false;
    QJsonArray keys;
    for (const QChar c : text) {
        keys.append(keyPress(QString(c), "keyDown"));
        keys.append(keyPress(QString(c), "keyUp"));
    }
    call(QStringLiteral("input.performActions"),
         {{QStringLiteral("context"), m_context},
          {QStringLiteral("actions"),
           QJsonArray{QJsonObject{{QStringLiteral("type"), QStringLiteral("key")},
                                  {QStringLiteral("id"), QStringLiteral("keyboard")},
                                  {QStringLiteral("actions"), keys}}}}});
    return true;
}

void FirefoxPage::navigate(const QString& url)
{
    call(QStringLiteral("browsingContext.navigate"), {{QStringLiteral("context"), m_context},
                                                      {QStringLiteral("url"), url},
                                                      {QStringLiteral("wait"), QStringLiteral("none")}});
}

} // namespace outbox::test
