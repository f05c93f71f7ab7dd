#pragma once

#include <QHash>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QWebSocket>

namespace outbox::test {

// A page in a real headless Firefox (Debian's firefox-esr), driven over WebDriver BiDi (the W3C
// protocol Firefox serves with --remote-debugging-port) with Qt's own WebSocket: the same calls as
// ChromiumPage, with real pointer and keyboard input (input.performActions).
class FirefoxPage
{
public:
    FirefoxPage() = default;
    ~FirefoxPage();
    FirefoxPage(const FirefoxPage&) = delete;
    FirefoxPage& operator=(const FirefoxPage&) = delete;

    // firefox-esr (or firefox) on the PATH; empty when neither is installed.
    static QString executable();

    // Starts Firefox and loads `url`; false (with `error`) when it cannot be started or reached.
    bool open(const QString& url, QString* error);
    // One BiDi command; its "result", or an empty object (the error is printed) on failure.
    QJsonObject call(const QString& method, const QJsonObject& params = {});
    // The value of a JavaScript expression (a promise is awaited), as a string.
    QString evaluate(const QString& expression);
    // Waits until the expression is truthy; false after `timeoutMs`.
    bool waitFor(const QString& expression, int timeoutMs = 10000);
    // A real mouse click in the middle of the first element matching `selector`, scrolled into view
    // first; false when nothing matches or it has no size.
    bool click(const QString& selector);
    // Clicks into the element and types `text` key by key.
    bool type(const QString& selector, const QString& text);
    void navigate(const QString& url);
    QString version() const { return m_version; }

private:
    QTemporaryDir m_profile;
    QProcess m_browser;
    QWebSocket m_socket;
    QHash<int, QJsonObject> m_replies;
    QString m_context;
    QString m_version;
    int m_nextId = 0;
};

} // namespace outbox::test
