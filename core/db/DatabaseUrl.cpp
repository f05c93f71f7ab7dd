#include "core/db/DatabaseUrl.h"

#include "core/db/Dialect.h"
#include "core/support/TypedUrl.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QUrl>
#include <QUrlQuery>

namespace outbox {
namespace {

Error bad(const QString& text, const QString& why)
{
    // Never echo a password back, for a valid URL or an invalid one, whatever its shape: the URL is
    // shown without it (and without its option values, where a password may hide), and the reason
    // (a driver's or QUrl's sentence may quote the URL) never contains one either.
    return Error::usage(QCoreApplication::translate("outbox::DatabaseUrl", "invalid database URL \"%1\": %2")
                            .arg(TypedUrl::shown(text), TypedUrl::scrubbed(why, text)));
}

Status checkOptionValue(const QString& key, const QString& value)
{
    for (const QChar c : value) {
        if (c == QLatin1Char(';') || c == QLatin1Char('=') || c == QLatin1Char('\'') ||
            c == QLatin1Char('"') || c == QLatin1Char('\\') || c.category() == QChar::Other_Control ||
            c.category() == QChar::Other_Format || (c.isSpace() && c != QLatin1Char(' ')))
            return Error::usage(
                QCoreApplication::translate("outbox::DatabaseUrl",
                                            "the value of option \"%1\" must not contain ';', '=', quotes, "
                                            "backslashes or control characters")
                    .arg(key));
    }
    if (value != value.trimmed())
        return Error::usage(
            QCoreApplication::translate("outbox::DatabaseUrl",
                                        "the value of option \"%1\" must not start or end with a space")
                .arg(key));
    return {};
}

// QUrl's error sentence ends with the URL it was given ("…; source was \"postgresql://u:pw@…\""):
// keep only the sentence.
// QUrl's own error texts are English and not in any catalogue: the part they name, in ours.
QString urlError(const QUrl& u)
{
    QString text = u.errorString();
    const int source = text.indexOf(QLatin1String("; source was"));
    if (source >= 0)
        text.truncate(source);
    const auto says = [&text](const char* part) {
        return text.contains(QLatin1String(part), Qt::CaseInsensitive);
    };
    if (says("user name"))
        return QCoreApplication::translate(
            "outbox::DatabaseUrl", "the user name holds a character a URL may not hold (percent-encode it)");
    if (says("password"))
        return QCoreApplication::translate("outbox::DatabaseUrl",
                                           "the password holds a character a URL may not hold "
                                           "(percent-encode it, or give it in [database] password)");
    if (says("port"))
        return QCoreApplication::translate("outbox::DatabaseUrl", "invalid port");
    if (says("hostname") || says("IPv"))
        return QCoreApplication::translate("outbox::DatabaseUrl", "invalid host name");
    if (says("path"))
        return QCoreApplication::translate("outbox::DatabaseUrl", "invalid database name");
    return QCoreApplication::translate("outbox::DatabaseUrl", "not a URL (%1)").arg(text);
}

} // namespace

Result<DatabaseUrl> DatabaseUrl::parse(const QString& text)
{
    const QString trimmed = text.trimmed();
    if (trimmed.isEmpty())
        return Error::usage(QCoreApplication::translate("outbox::DatabaseUrl", "no database given"))
            .about(QStringLiteral("database.url"));

    const int sep = trimmed.indexOf(QLatin1String("://"));
    if (sep <= 0)
        return bad(trimmed, QCoreApplication::translate("outbox::DatabaseUrl",
                                                        "expected postgresql://, mysql:// or sqlite:///"));
    const QString scheme = trimmed.left(sep).toLower();

    DatabaseUrl url;
    if (scheme == QLatin1String("sqlite")) {
        url.kind = DatabaseKind::Sqlite;
        QString path = trimmed.mid(sep + 3);
        const int q = path.indexOf(QLatin1Char('?'));
        if (q >= 0)
            path.truncate(q);
        path = QUrl::fromPercentEncoding(path.toUtf8());
        if (path.isEmpty() || path == QLatin1String("/"))
            return bad(trimmed, QCoreApplication::translate(
                                    "outbox::DatabaseUrl",
                                    "the SQLite URL names no file (sqlite:///path/to/file.db)"));
        // SQLite's in-memory name, also as sqlite:///:memory: (a file of that name at / otherwise).
        if (QFileInfo(path).fileName() == QLatin1String(":memory:"))
            return bad(trimmed, QCoreApplication::translate(
                                    "outbox::DatabaseUrl", "in-memory SQLite is not supported; name a file"));
        url.database = QDir::cleanPath(path);
        return url;
    }

    if (scheme == QLatin1String("postgresql") || scheme == QLatin1String("postgres"))
        url.kind = DatabaseKind::PostgreSql;
    else if (scheme == QLatin1String("mysql") || scheme == QLatin1String("mariadb"))
        url.kind = DatabaseKind::MySql;
    else
        return bad(trimmed,
                   QCoreApplication::translate("outbox::DatabaseUrl",
                                               "unknown scheme \"%1\" (expected postgresql, mysql or sqlite)")
                       .arg(scheme));

    const QUrl u(trimmed, QUrl::StrictMode);
    if (!u.isValid())
        return bad(trimmed, urlError(u));
    if (u.host().isEmpty())
        return bad(trimmed, QCoreApplication::translate("outbox::DatabaseUrl", "no host"));
    const auto dialect = Dialect::create(url.kind);
    url.host = u.host();
    url.port = u.port(dialect->defaultPort());
    if (url.port <= 0 || url.port > 65535)
        return bad(trimmed, QCoreApplication::translate("outbox::DatabaseUrl", "invalid port"));
    url.user = u.userName();
    url.password =
        u.password(); // without one here, core/config adds [database] password (OUTBOX_DB_PASSWORD)
    QString db = u.path();
    if (db.startsWith(QLatin1Char('/')))
        db.remove(0, 1);
    if (db.isEmpty() || db.contains(QLatin1Char('/')))
        return bad(trimmed, QCoreApplication::translate("outbox::DatabaseUrl",
                                                        "expected exactly one database name in the path"));
    url.database = db;

    const QUrlQuery query(u);
    const QStringList accepted = dialect->urlOptions();
    QStringList options;
    QStringList seen;
    for (const auto& item : query.queryItems(QUrl::FullyDecoded)) {
        const QString key = item.first;
        if (!accepted.contains(key))
            return bad(
                trimmed,
                QCoreApplication::translate("outbox::DatabaseUrl", "unsupported option \"%1\"").arg(key));
        // Once for each option: the driver would take the last one (sslmode=require&sslmode=disable).
        if (seen.contains(key))
            return bad(
                trimmed,
                QCoreApplication::translate("outbox::DatabaseUrl", "option \"%1\" is given twice").arg(key));
        seen << key;
        // The driver's option string is "key=value;key=value" and libpq's is "key=value key=value":
        // a decoded value holding ';', '=', a quote, a backslash or a control character could carry
        // another option (application_name=x%20sslmode%3Ddisable). Such a value is refused; a space
        // is allowed (a certificate path may have one) and quoted where the driver needs it.
        if (Status s = checkOptionValue(key, item.second); !s)
            return bad(trimmed, s.message());
        options << key + QLatin1Char('=') + item.second;
    }
    url.connectOptions = options.join(QLatin1Char(';'));
    return url;
}

QString DatabaseUrl::kindName() const
{
    switch (kind) {
    case DatabaseKind::PostgreSql:
        return QStringLiteral("postgresql");
    case DatabaseKind::MySql:
        return QStringLiteral("mysql");
    case DatabaseKind::Sqlite:
        return QStringLiteral("sqlite");
    }
    return {};
}

bool DatabaseUrl::hasServer() const
{
    return Dialect::create(kind)->hasServer();
}

QString DatabaseUrl::redacted() const
{
    if (!hasServer()) {
        // parse() cuts at '?' and percent-decodes the path: encode exactly those two.
        QString path = database;
        path.replace(QLatin1Char('%'), QLatin1String("%25")).replace(QLatin1Char('?'), QLatin1String("%3F"));
        return QStringLiteral("sqlite://") + path;
    }
    const auto encode = [](const QString& text, const QByteArray& keep = {}) {
        return QString::fromLatin1(QUrl::toPercentEncoding(text, keep));
    };
    QString s = kindName() + QStringLiteral("://");
    if (!user.isEmpty())
        s += encode(user) + QLatin1Char('@');
    // An IPv6 address goes in brackets, or its colons would read as a port.
    s += host.contains(QLatin1Char(':')) ? QLatin1Char('[') + host + QLatin1Char(']') : host;
    s += QLatin1Char(':') + QString::number(port) + QLatin1Char('/') + encode(database);
    QStringList query;
    // parse() keeps the options as "key=value;key=value"; no value holds ';' or '='.
    for (const QString& option : connectOptions.split(QLatin1Char(';'), Qt::SkipEmptyParts)) {
        const int eq = option.indexOf(QLatin1Char('='));
        query << encode(option.left(eq)) + QLatin1Char('=') +
                     encode(eq < 0 ? QString() : option.mid(eq + 1), "/");
    }
    if (!query.isEmpty())
        s += QLatin1Char('?') + query.join(QLatin1Char('&'));
    return s;
}

} // namespace outbox
