#include "tests/web/BrowserPage.h"

#include <QElapsedTimer>
#include <QJsonArray>
#include <QJsonDocument>
#include <QTest>

namespace outbox::test {

bool BrowserPage::waitFor(const QString& expression, int timeoutMs)
{
    QElapsedTimer t;
    t.start();
    const QString test =
        QStringLiteral("(() => { try { return String(!!(%1)); } catch (e) { return 'false'; } })()")
            .arg(expression);
    while (t.elapsed() < timeoutMs) {
        if (evaluate(test) == QLatin1String("true"))
            return true;
        QTest::qWait(50);
    }
    return false;
}

void BrowserPage::collectReplies()
{
    QObject::connect(&m_socket, &QWebSocket::textMessageReceived, &m_socket, [this](const QString& text) {
        const QJsonObject o = QJsonDocument::fromJson(text.toUtf8()).object();
        if (o.contains(QStringLiteral("id")) && o.value(QStringLiteral("type")) != QLatin1String("event"))
            m_replies.insert(o.value(QStringLiteral("id")).toInt(), o);
    });
}

QJsonObject BrowserPage::exchange(const QString& method, const QJsonObject& params)
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
    return m_replies.take(id);
}

std::optional<QPointF> BrowserPage::elementCentre(const QString& selector)
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
        return std::nullopt;
    return QPointF(box.value(QStringLiteral("x")).toDouble(), box.value(QStringLiteral("y")).toDouble());
}

} // namespace outbox::test
