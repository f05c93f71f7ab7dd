#pragma once

#include "tests/web/BrowserPage.h"

#include <QJsonObject>
#include <QString>

namespace outbox::test {

// A page in a real headless Chromium (Debian's chromium), driven over the DevTools protocol with
// Qt's own WebSocket: open a URL, evaluate JavaScript, take a screenshot.
class ChromiumPage : public BrowserPage
{
public:
    ChromiumPage() = default;
    ~ChromiumPage() override;

    // Starts Chromium on `url`; false (with `error`) when it cannot be started or reached.
    bool open(const QString& url, QString* error);
    // The window (and so the page's viewport) open() gives Chromium; 1600×1000 unless set before.
    void setWindowSize(int width, int height)
    {
        m_width = width;
        m_height = height;
    }
    QJsonObject call(const QString& method, const QJsonObject& params = {});
    QString evaluate(const QString& expression) override;
    QByteArray screenshotPng();
    // A real mouse click (Input.dispatchMouseEvent) in the middle of the first element matching
    // `selector`, scrolled into view first; false when nothing matches or it has no size.
    bool click(const QString& selector);
    // Clicks into the element and types `text` as keyboard input (Input.insertText).
    bool type(const QString& selector, const QString& text);
    // Loads `url` in the page (Page.navigate).
    void navigate(const QString& url);

private:
    int m_width = 1600;
    int m_height = 1000;
};

} // namespace outbox::test
