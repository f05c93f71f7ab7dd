#include "ui/web/RunbookPages.h"

#include "core/diagnosis/Runbook.h"

#include <QRegularExpression>

namespace outbox::web {

namespace {

const QString Prefix = QStringLiteral("/docs/runbooks");

} // namespace

bool RunbookPages::handles(const QString& path)
{
    return path == Prefix || path.startsWith(Prefix + QLatin1Char('/'));
}

WebReply RunbookPages::reply(const QString& path)
{
    static const QRegularExpression page(QStringLiteral("^/docs/runbooks/([a-z][a-z-]{0,63}?)(\\.md)?$"));
    QString text;
    if (path == Prefix || path == Prefix + QLatin1Char('/') ||
        path == Prefix + QStringLiteral("/README.md")) {
        text = Runbook::indexMarkdown();
    } else if (const auto m = page.match(path); m.hasMatch()) {
        if (const Runbook* r = Runbook::find(m.captured(1)))
            text = r->markdown();
    }
    if (text.isEmpty())
        return WebReply::error(404, tr("there is no runbook page at %1").arg(path));
    WebReply r = WebReply::bytes(text.toUtf8(), QByteArrayLiteral("text/plain; charset=utf-8"));
    r.headers << qMakePair(QByteArrayLiteral("X-Content-Type-Options"), QByteArrayLiteral("nosniff"));
    r.headers << qMakePair(QByteArrayLiteral("Content-Security-Policy"),
                           QByteArrayLiteral("default-src 'none'"));
    return r;
}

} // namespace outbox::web
