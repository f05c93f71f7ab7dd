#pragma once

#include "tests/web/BrowserPage.h"

#include <QJsonObject>
#include <QString>

namespace outbox::test {

// A page in a real headless Firefox (Debian's firefox-esr), driven over WebDriver BiDi (the W3C
// protocol Firefox serves with --remote-debugging-port) with Qt's own WebSocket: the same calls as
// ChromiumPage, with real pointer and keyboard input (input.performActions).
class FirefoxPage : public BrowserPage
{
public:
    FirefoxPage() = default;
    ~FirefoxPage() override;

    // firefox-esr (or firefox) on the PATH; empty when neither is installed.
    static QString executable();
    // Starts Firefox and loads `url`; false (with `error`) when it cannot be started or reached.
    bool open(const QString& url, QString* error);
    // One BiDi command; its "result", or an empty object (the error is printed) on failure.
    QJsonObject call(const QString& method, const QJsonObject& params = {});
    QString evaluate(const QString& expression) override;
    // A real mouse click in the middle of the first element matching `selector`, scrolled into view
    // first; false when nothing matches or it has no size.
    bool click(const QString& selector);
    // Clicks into the element and types `text` key by key.
    bool type(const QString& selector, const QString& text);
    void navigate(const QString& url);
    QString version() const { return m_version; }

private:
    QString m_context;
    QString m_version;
};

} // namespace outbox::test
