#include "ui/web/oidc/OidcSettings.h"

#include "ui/web/http/MemberScopeWords.h"

#include <QCoreApplication>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QRegularExpression>
#include <QUrl>
#include <algorithm>

namespace outbox::web {

namespace {

QString tr(const char* text)
{
    return QCoreApplication::translate("outbox::web::OidcSettings", text);
}

// The algorithms a public-key signature may use; none and the HMAC ones (whose key would be the
// public key everyone can read) are never among them.
const QStringList& asymmetricAlgorithms()
{
    static const QStringList all = {
        QStringLiteral("RS256"), QStringLiteral("RS384"), QStringLiteral("RS512"),
        QStringLiteral("PS256"), QStringLiteral("PS384"), QStringLiteral("PS512"),
        QStringLiteral("ES256"), QStringLiteral("ES384"), QStringLiteral("ES512")};
    return all;
}

bool printable(const QString& text)
{
    for (const QChar c : text)
        if (c.category() == QChar::Other_Control || c.category() == QChar::Other_Format)
            return false;
    return true;
}

// The client secret from client_secret_file: its first line, from a file only its owner may read or
// change (as a fleet member's password_file). The message names the file, never its content.
Result<QString> readSecretFile(const QString& path)
{
    const QFileInfo info(path);
    if (!info.isFile())
        return Error::usage(tr("client_secret_file %1 is not a readable file").arg(path));
    const QFile::Permissions others = QFile::ReadGroup | QFile::WriteGroup | QFile::ExeGroup |
                                      QFile::ReadOther | QFile::WriteOther | QFile::ExeOther;
    if (info.permissions() & others)
        return Error::usage(tr("client_secret_file %1 may be read or changed by other users: allow its owner "
                               "only (chmod 600)")
                                .arg(path));
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return Error::usage(tr("cannot read client_secret_file %1: %2").arg(path, file.errorString()));
    const QString secret = QString::fromUtf8(file.readLine(4096)).trimmed();
    if (secret.isEmpty())
        return Error::usage(tr("client_secret_file %1 is empty").arg(path));
    return secret;
}

} // namespace

Result<GroupGrant> OidcSettings::parseGroup(const QString& label, const QString& value)
{
    QStringList words = value.trimmed().split(QRegularExpression(QStringLiteral("\\s+")), Qt::SkipEmptyParts);
    const auto invalid = [&label](const QString& why) {
        return Error::usage(tr("invalid group entry \"%1\": %2 (expected GROUP = viewer or operator, then "
                               "optionally group=NAME, members=SELECTORS and operator=SELECTORS)")
                                .arg(label, why));
    };
    const QString role = words.value(0).toLower();
    if (role != QLatin1String("viewer") && role != QLatin1String("operator"))
        return invalid(tr("no role"));
    GroupGrant g;
    g.group = label.trimmed();
    g.role = role == QLatin1String("operator") ? Role::Operator : Role::Viewer;
    words.removeFirst();
    // group=NAME (once) names the group; the other words are the fleet scope, as a token's.
    const auto named = std::find_if(words.begin(), words.end(),
                                    [](const QString& w) { return w.startsWith(QLatin1String("group=")); });
    if (named != words.end()) {
        g.group = named->mid(6);
        if (g.group.isEmpty() || !printable(g.group))
            return invalid(tr("empty group="));
        words.erase(named);
    }
    auto scope = MemberScopeWords::parse(words, g.role);
    if (!scope)
        return invalid(scope.message());
    g.scope = *scope;
    return g;
}

Result<OidcSettings> OidcSettings::fromConfig(const config::Config& c)
{
    OidcSettings s;
    const QString issuerKey = QStringLiteral("oidc.issuer");
    s.issuer = c.value(issuerKey).trimmed();
    if (s.issuer.endsWith(QLatin1Char('/')))
        s.issuer.chop(1);
    s.clientId = c.value(QStringLiteral("oidc.client_id")).trimmed();
    s.audience = c.value(QStringLiteral("oidc.audience")).trimmed();
    s.clientSecret = c.value(QStringLiteral("oidc.client_secret")).trimmed();
    const QString secretFileKey = QStringLiteral("oidc.client_secret_file");
    const QString secretFile = c.value(secretFileKey).trimmed();
    if (!secretFile.isEmpty()) {
        if (!s.clientSecret.isEmpty())
            return c.located(secretFileKey, Error::usage(tr("give the client secret once: client_secret or "
                                                            "client_secret_file, not both")));
        auto secret = readSecretFile(secretFile);
        if (!secret)
            return c.located(secretFileKey, secret.error());
        s.clientSecret = *secret;
    }
    s.scopes = c.value(QStringLiteral("oidc.scopes")).simplified();
    s.nameClaim = c.value(QStringLiteral("oidc.name_claim")).trimmed();
    s.groupsClaim = c.value(QStringLiteral("oidc.groups_claim")).trimmed();
    s.clockSkewSeconds = c.durationMs(QStringLiteral("oidc.clock_skew")) / 1000;
    const QString algorithmsKey = QStringLiteral("oidc.algorithms");
    s.algorithms.clear();
    for (const QString& a : c.list(algorithmsKey)) {
        if (!asymmetricAlgorithms().contains(a))
            return c.located(
                algorithmsKey,
                Error::usage(tr("the algorithm \"%1\" is not accepted (only %2: none and HS* "
                                "are always refused)")
                                 .arg(a.left(20), asymmetricAlgorithms().join(QStringLiteral(", ")))));
        s.algorithms << a;
    }
    for (const config::Setting& entry : c.groups()) {
        auto grant = parseGroup(entry.key, entry.value);
        if (!grant)
            return c.located(QStringLiteral("oidc_groups.") + entry.key, grant.error());
        s.groups << *grant;
    }
    if (!s.enabled()) {
        if (!s.groups.isEmpty() || c.isSet(QStringLiteral("oidc.client_id")) || !s.clientSecret.isEmpty())
            return c.located(QStringLiteral("oidc.client_id"),
                             Error::usage(tr("[oidc] needs an issuer (the identity provider's URL)")));
        return s;
    }
    const QUrl url(s.issuer, QUrl::StrictMode);
    const bool loopback = url.host() == QLatin1String("127.0.0.1") ||
                          url.host() == QLatin1String("localhost") || url.host() == QLatin1String("::1");
    if (!url.isValid() || url.host().isEmpty() || s.issuer.size() > 120 || url.hasQuery() ||
        url.hasFragment() || !url.userInfo().isEmpty() ||
        !(url.scheme() == QLatin1String("https") || (url.scheme() == QLatin1String("http") && loopback)))
        return c.located(issuerKey,
                         Error::usage(tr("the issuer must be an https:// URL (http:// only on "
                                         "loopback, at most 120 characters) without query or fragment")));
    if (s.clientId.isEmpty())
        return c.located(issuerKey, Error::usage(tr("[oidc] needs a client_id besides the issuer")));
    if (s.audience.isEmpty())
        s.audience = s.clientId;
    if (s.nameClaim.isEmpty() || s.groupsClaim.isEmpty())
        return c.located(issuerKey, Error::usage(tr("[oidc] name_claim and groups_claim may not be empty")));
    if (s.algorithms.isEmpty())
        return c.located(algorithmsKey, Error::usage(tr("no signature algorithm is accepted")));
    if (s.groups.isEmpty())
        return c.located(
            issuerKey,
            Error::usage(tr("[oidc] needs at least one [oidc_groups] entry: nobody could sign in")));
    return s;
}

QStringList OidcSettings::groupsOf(const QJsonObject& claims) const
{
    QJsonValue v = claims.value(groupsClaim);
    if (v.isUndefined() && groupsClaim.contains(QLatin1Char('.'))) {
        v = claims;
        for (const QString& part : groupsClaim.split(QLatin1Char('.')))
            v = v.toObject().value(part);
    }
    QStringList found;
    if (v.isString())
        found << v.toString();
    for (const QJsonValue& g : v.toArray())
        if (g.isString())
            found << g.toString();
    return found;
}

std::optional<Principal> OidcSettings::principalFor(const QJsonObject& claims) const
{
    const QString person = claims.value(nameClaim).toString();
    if (person.isEmpty() || person.size() > 64 || !printable(person))
        return std::nullopt;
    const QStringList theirs = groupsOf(claims);
    QVector<const GroupGrant*> granted;
    for (const GroupGrant& g : groups)
        if (theirs.contains(g.group))
            granted << &g;
    if (granted.isEmpty())
        return std::nullopt;
    // Several groups add up: the widest view, and operator wherever one of them makes it so.
    bool seesAll = false;
    bool operatorEverywhere = false;
    bool allOperators = true;
    QStringList members;
    QStringList operatorOn;
    for (const GroupGrant* g : granted) {
        seesAll = seesAll || !g->scope.restricted();
        if (g->role == Role::Operator) {
            operatorEverywhere = operatorEverywhere || !g->scope.restricted();
            operatorOn << g->scope.members;
        } else {
            allOperators = false;
            operatorOn << g->scope.operatorOn;
        }
        members << g->scope.members;
    }
    Principal p;
    // The actor in the audit log: the person and, so that one name at two providers stays two
    // people, the issuer.
    p.name = person + QStringLiteral(" (") + issuer + QLatin1Char(')');
    p.person = person;
    p.issuer = issuer;
    p.role = operatorEverywhere || allOperators ? Role::Operator : Role::Viewer;
    if (!seesAll) {
        members.removeDuplicates();
        p.scope.members = members;
    }
    if (p.role == Role::Viewer) {
        operatorOn.removeDuplicates();
        p.scope.operatorOn = operatorOn;
    }
    return p;
}

} // namespace outbox::web
