// /api/v1/auth: how the pages sign people in (static tokens, or the identity provider's settings),
// and /api/v1/auth/token: a confidential client's code and refresh-token exchange.
#include "ui/web/api/ApiContext.h"
#include "ui/web/api/Controllers.h"
#include "ui/web/oidc/IdentityProvider.h"

#include <QHash>
#include <QRegularExpression>
#include <QUrl>
#include <QUrlQuery>

namespace outbox::web {

void AuthController::settings(ApiContext& api, const ApiCall&, ApiDone done)
{
    if (!api.identity)
        return done(WebReply::json(QJsonObject{{QStringLiteral("oidc"), false}}));
    QJsonObject o = api.identity->pageSettings();
    o[QStringLiteral("oidc")] = true;
    done(WebReply::json(o));
}

void AuthController::token(ApiContext& api, const ApiCall& call, ApiDone done)
{
    // The page of a confidential client hands the provider's answer here: the code with its PKCE
    // verifier and redirect_uri, or its refresh token. The server adds the client secret, posts it
    // to the token endpoint and gives the page the tokens (kept in its memory, as a public client's).
    if (!api.identity || !api.identity->settings().confidential())
        return done(WebReply::error(
            404, ApiContext::tr("this server's pages exchange codes with the identity provider themselves")));
    const QStringList fields = {QStringLiteral("grant_type"), QStringLiteral("code"),
                                QStringLiteral("code_verifier"), QStringLiteral("redirect_uri"),
                                QStringLiteral("refresh_token")};
    auto body = jsonBody(call.body, fields);
    if (!body)
        return done(WebReply::fromError(body.error()));
    QHash<QString, QString> value;
    static const QRegularExpression word(QStringLiteral("^[A-Za-z0-9._~+/=-]{1,4096}$"));
    for (const QString& field : fields) {
        auto text = stringField(*body, field);
        if (!text)
            return done(WebReply::fromError(text.error()));
        if (!text->isEmpty() && field != QLatin1String("redirect_uri") && !word.match(*text).hasMatch())
            return done(WebReply::error(400, ApiContext::tr("%1 is malformed").arg(field)));
        value.insert(field, *text);
    }
    QUrlQuery grant;
    const QString type = value.value(QStringLiteral("grant_type"));
    grant.addQueryItem(QStringLiteral("grant_type"), type);
    if (type == QLatin1String("authorization_code")) {
        const QUrl redirect(value.value(QStringLiteral("redirect_uri")), QUrl::StrictMode);
        if (value.value(QStringLiteral("code")).isEmpty() ||
            value.value(QStringLiteral("code_verifier")).isEmpty() || !redirect.isValid() ||
            redirect.host().isEmpty() || redirect.hasQuery() || redirect.hasFragment() ||
            (redirect.path() != QLatin1String("/") && redirect.path() != QLatin1String("/console/")) ||
            (redirect.scheme() != QLatin1String("https") && redirect.scheme() != QLatin1String("http")))
            return done(WebReply::error(
                400,
                ApiContext::tr("authorization_code needs code, code_verifier and the page's redirect_uri")));
        for (const QString& field :
             {QStringLiteral("code"), QStringLiteral("code_verifier"), QStringLiteral("redirect_uri")})
            grant.addQueryItem(field, value.value(field));
    } else if (type == QLatin1String("refresh_token")) {
        if (value.value(QStringLiteral("refresh_token")).isEmpty())
            return done(WebReply::error(400, ApiContext::tr("refresh_token needs the refresh_token")));
        grant.addQueryItem(QStringLiteral("refresh_token"), value.value(QStringLiteral("refresh_token")));
    } else {
        return done(
            WebReply::error(400, ApiContext::tr("grant_type must be authorization_code or refresh_token")));
    }
    api.identity->exchange(grant, [done](const IdentityProvider::Exchange& e) {
        switch (e.kind) {
        case IdentityProvider::Exchange::Tokens: {
            WebReply r = WebReply::json(e.tokens);
            r.headers << qMakePair(QByteArrayLiteral("Cache-Control"), QByteArrayLiteral("no-store"));
            return done(r);
        }
        case IdentityProvider::Exchange::Refused:
            return done(WebReply::error(
                400, ApiContext::tr("the identity provider refused the sign-in (%1): sign in again")
                         .arg(e.error)));
        case IdentityProvider::Exchange::ClientRefused:
            return done(WebReply::error(
                502, ApiContext::tr("the identity provider refused this server's client secret (%1): the "
                                    "administrator must correct [oidc] client_secret")
                         .arg(e.error.isEmpty() ? QStringLiteral("invalid_client") : e.error)));
        case IdentityProvider::Exchange::Unavailable:
            break;
        }
        done(WebReply::error(503, ApiContext::tr("the identity provider's token endpoint did not answer; try "
                                                 "again in a moment")));
    });
}

} // namespace outbox::web
