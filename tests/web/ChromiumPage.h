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
    // The value of a JavaScript expression (a promise is awaited), as a string.
    QString evaluate(const QString& expression);
    QByteArray screenshotPng();
    // Waits until the expression is truthy; false after `timeoutMs`.
    bool waitFor(const QString& expression, int timeoutMs = 10000);
    // A real mouse click (Input.dispatchMouseEvent) in the middle of the first element matching
    // `selector`, scrolled into view first; false when nothing matches or it has no size.
    bool click(const QString& selector);
    // Clicks into the element and types `text` as keyboard input (Input.insertText).
    bool type(const QString& selector, const QString& text);
    // Loads `url` in the page (Page.navigate).
    void navigate(const QString& url);

private:
    QTemporaryDir m_profile;
    QProcess m_browser;
    QWebSocket m_socket;
    QHash<int, QJsonObject> m_replies;
    int m_nextId = 0;
};

} // namespace outbox::test
