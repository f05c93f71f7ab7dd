#pragma once

#include "tests/web/BrowserPage.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QString>
#include <QStringList>
#include <QtGlobal>

namespace outbox::test {

// `text` as a JavaScript string literal (quoted and escaped), to put into an expression.
inline QString js(const QString& text)
{
    return QString::fromUtf8(QJsonDocument(QJsonArray{text}).toJson(QJsonDocument::Compact))
        .mid(1)
        .chopped(1);
}

// What the web console's tests read off its page, the same in every browser.
class ConsoleView
{
public:
    explicit ConsoleView(BrowserPage& page) : m_page(page) {}

    // The text of the first element matching `selector` ("" when none).
    QString text(const QString& selector)
    {
        return m_page.evaluate(QStringLiteral("(document.querySelector(%1) || {textContent: ''}).textContent")
                                   .arg(js(selector)));
    }
    int count(const QString& selector)
    {
        return m_page
            .evaluate(QStringLiteral("String(document.querySelectorAll(%1).length)").arg(js(selector)))
            .toInt();
    }
    // Waits until the console shows `view` loaded for the current address (a link changes the
    // address before the view follows); when it does not, says what the page shows instead.
    bool ready(const QString& view)
    {
        const bool ready =
            m_page.waitFor(QStringLiteral("document.getElementById('view').dataset.view === %1 && "
                                          "document.getElementById('view').dataset.ready === '1' && "
                                          "document.getElementById('view').dataset.route === location.hash")
                               .arg(js(view)),
                           15000);
        if (!ready)
            qWarning("%s: %s", qPrintable(m_page.evaluate(QStringLiteral("location.href"))),
                     qPrintable(m_page.evaluate(QStringLiteral("document.body.innerText")).left(2000)));
        return ready;
    }
    // The data-id of every row of the table with id `table`, top to bottom.
    QStringList rowIds(const QString& table)
    {
        return m_page
            .evaluate(QStringLiteral(
                          "[...document.querySelectorAll('#%1 tbody tr')].map(r => r.dataset.id).join(',')")
                          .arg(table))
            .split(QLatin1Char(','), Qt::SkipEmptyParts);
    }

private:
    BrowserPage& m_page;
};

} // namespace outbox::test
