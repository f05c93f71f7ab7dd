#pragma once

#include <QHash>
#include <QJsonObject>
#include <QPointF>
#include <QProcess>
#include <QString>
#include <QTemporaryDir>
#include <QWebSocket>
#include <optional>

namespace outbox::test {

// What every real browser the web tests drive has in common: a browser process with a scratch
// profile, one JSON command socket (Chromium's DevTools protocol, Firefox's WebDriver BiDi) whose
// replies are matched by id, and the page-level helpers built on evaluating JavaScript.
class BrowserPage
{
public:
    BrowserPage() = default;
    virtual ~BrowserPage() = default;
    BrowserPage(const BrowserPage&) = delete;
    BrowserPage& operator=(const BrowserPage&) = delete;

    // The value of a JavaScript expression (a promise is awaited), as a string.
    virtual QString evaluate(const QString& expression) = 0;
    // Waits until the expression is truthy; false after `timeoutMs`.
    bool waitFor(const QString& expression, int timeoutMs = 10000);

protected:
    // Keeps every reply (a message with an id that is not an event) for exchange().
    void collectReplies();
    // Sends {id, method, params} and waits up to 30 s for the reply with that id (empty if none).
    QJsonObject exchange(const QString& method, const QJsonObject& params);
    // The centre of the first element matching `selector`, scrolled into view first; nothing when
    // no element matches or it has no size.
    std::optional<QPointF> elementCentre(const QString& selector);

    QTemporaryDir m_profile;
    QProcess m_browser;
    QWebSocket m_socket;

private:
    QHash<int, QJsonObject> m_replies;
    int m_nextId = 0;
};

} // namespace outbox::test
