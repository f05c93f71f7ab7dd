#include "core/support/TypedUrl.h"

#include <QStringList>
#include <QUrl>
#include <algorithm>

namespace outbox {

namespace {

const QString Hidden = QStringLiteral("***");

struct Parts
{
    qsizetype colon = -1; // the user information's first ':' (the password follows), or -1
    qsizetype at = -1;    // the '@' that ends the user information, or -1
    qsizetype query = -1; // the '?' after the authority, or -1
};

Parts partsOf(const QString& text)
{
    Parts p;
    const qsizetype sep = text.indexOf(QLatin1String("://"));
    const qsizetype start = sep < 0 ? 0 : sep + 3;
    const qsizetype at = text.lastIndexOf(QLatin1Char('@'));
    if (at >= start) {
        p.at = at;
        const qsizetype colon = text.indexOf(QLatin1Char(':'), start);
        p.colon = colon >= 0 && colon < at ? colon : -1;
    }
    p.query = text.indexOf(QLatin1Char('?'), p.at >= 0 ? p.at : start);
    return p;
}

// Each secret as typed and percent-decoded (and a password's parts around an '@'), longest first.
QStringList secretsOf(const QString& text)
{
    const Parts p = partsOf(text);
    QStringList typed;
    if (p.colon >= 0) {
        const QString password = text.mid(p.colon + 1, p.at - p.colon - 1);
        typed << password << password.split(QLatin1Char('@'), Qt::SkipEmptyParts);
    }
    if (p.query >= 0) {
        for (const QString& item : text.mid(p.query + 1).split(QLatin1Char('&'), Qt::SkipEmptyParts)) {
            const qsizetype eq = item.indexOf(QLatin1Char('='));
            if (eq >= 0)
                typed << item.mid(eq + 1);
        }
    }
    QStringList secrets;
    for (const QString& s : std::as_const(typed)) {
        for (const QString& form : {s, QUrl::fromPercentEncoding(s.toUtf8())}) {
            // Shorter than 3 characters: replacing it would garble the sentence more than it hides.
            if (form.size() >= 3 && !secrets.contains(form))
                secrets << form;
        }
    }
    std::sort(secrets.begin(), secrets.end(),
              [](const QString& a, const QString& b) { return a.size() > b.size(); });
    return secrets;
}

} // namespace

QString TypedUrl::shown(const QString& text)
{
    const Parts p = partsOf(text);
    QString out = p.colon >= 0 ? text.left(p.colon) + text.mid(p.at, p.query >= 0 ? p.query - p.at : -1)
                               : text.left(p.query);
    if (p.query < 0)
        return out;
    QStringList items;
    for (const QString& item : text.mid(p.query + 1).split(QLatin1Char('&'))) {
        const qsizetype eq = item.indexOf(QLatin1Char('='));
        items << (eq < 0 ? item : item.left(eq + 1) + Hidden);
    }
    return out + QLatin1Char('?') + items.join(QLatin1Char('&'));
}

QString TypedUrl::scrubbed(const QString& message, const QString& text)
{
    QString out = message;
    const qsizetype source = out.indexOf(QLatin1String("; source was"));
    if (source >= 0)
        out.truncate(source);
    for (const QString& secret : secretsOf(text))
        out.replace(secret, Hidden);
    return out;
}

} // namespace outbox
