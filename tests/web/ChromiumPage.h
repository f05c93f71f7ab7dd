#pragma once

#include <QHash>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QUrl>
#include <QWebSocket>

namespace outbox::test {

// A page in a real headless Chromium (Debian's chromium), driven over the DevTools protocol with
// Qt's own WebSocket: open a URL, evaluate JavaScript, take a screenshot.
class ChromiumPage
{
public:
    ChromiumPage() = default;
    ~ChromiumPage();
    ChromiumPage(const ChromiumPage&) = delete;
    ChromiumPage& operator=(const ChromiumPage&) = delete;

    // Starts Chromium on `url`; false (with `error`) when it cannot be started or reached.
    bool open(const QString& url, QString* error);
    QJsonObject call(const QString& method, const QJsonObject& params = {});
    // The value of a JavaScript expression, as a string.
    QString evaluate(const QString& expression);
    QByteArray screenshotPng();

private:
    QTemporaryDir m_profile;
    QProcess m_browser;
    QWebSocket m_socket;
    QHash<int, QJsonObject> m_replies;
    int m_nextId = 0;
};

} // namespace outbox::test
