// The pages outside /api/v1: the dashboard at /, its files under /static/, the web admin console
// under /console/. Plain files compiled into the binary (Chart.js from the file system); none of
// them holds data: that needs a token on /ws or the API.
#include "ui/web/api/ApiContext.h"
#include "ui/web/api/Controllers.h"
#include "ui/web/oidc/IdentityProvider.h"

#include <QFile>
#include <QRegularExpression>
#include <QUrl>
#include <QUrlQuery>

namespace outbox::web {

namespace {

const QByteArray Html = QByteArrayLiteral("text/html; charset=utf-8");
const QByteArray JavaScript = QByteArrayLiteral("text/javascript; charset=utf-8");

// The origin of the identity provider's token endpoint: the one place besides the server the pages
// of a public client talk to (the code is exchanged there); none for a confidential client.
QByteArray providerOrigin(const ApiContext& api)
{
    const QString origin = api.identity ? api.identity->pageConnectOrigin() : QString();
    return origin.isEmpty() ? QByteArray() : ' ' + origin.toUtf8();
}

// A page's file from the binary's resources, with the headers every page carries.
WebReply resource(const QString& file, const QByteArray& contentType, const QString& path,
                  const QByteArray& provider = {})
{
    QFile f(file);
    if (!f.open(QIODevice::ReadOnly))
        return WebReply::error(
            500, ApiContext::tr("the dashboard's file %1 is missing from this build").arg(path));
    WebReply r = WebReply::bytes(f.readAll(), contentType);
    const QByteArray policy = "default-src 'self'; connect-src 'self' ws: wss:" + provider +
                              "; img-src 'self' data:; style-src 'self'; frame-ancestors 'none'";
    r.headers << qMakePair(QByteArrayLiteral("Content-Security-Policy"), policy);
    // The console holds a token in the page: never framed, never sent as a Referer.
    r.headers << qMakePair(QByteArrayLiteral("Referrer-Policy"), QByteArrayLiteral("no-referrer"));
    return r;
}

} // namespace

void PagesController::dashboard(ApiContext& api, const ApiCall& call, ApiDone done)
{
    done(resource(QStringLiteral(":/web/index.html"), Html, call.path, providerOrigin(api)));
}

void PagesController::signInAnswer(ApiContext& api, const ApiCall& call, ApiDone done)
{
    // The identity provider's answer (response_mode=form_post) to a sign-in the page started: the
    // page again, with the code and state in a <meta> element for its script (which checks the
    // state against the one it keeps), so that the code is never part of an address.
    if (!api.identity)
        return done(
            WebReply::error(404, ApiContext::tr("this server signs nobody in with an identity provider")));
    const QUrlQuery form(QString::fromLatin1(call.body));
    static const QRegularExpression word(QStringLiteral("^[A-Za-z0-9._~+/=-]{1,4096}$"));
    QUrlQuery answer;
    for (const QString& name : {QStringLiteral("code"), QStringLiteral("state"), QStringLiteral("error")}) {
        const QString value = form.queryItemValue(name, QUrl::FullyDecoded);
        if (value.isEmpty())
            continue;
        if (!word.match(value).hasMatch())
            return done(WebReply::error(400, ApiContext::tr("the sign-in answer is malformed")));
        answer.addQueryItem(name, value);
    }
    const QString iss = form.queryItemValue(QStringLiteral("iss"), QUrl::FullyDecoded);
    if (!iss.isEmpty() && iss != api.identity->settings().issuer)
        return done(WebReply::error(400, ApiContext::tr("the sign-in answer comes from another issuer")));
    const bool console = call.path.startsWith(QLatin1String("/console"));
    WebReply page =
        resource(console ? QStringLiteral(":/web/console/index.html") : QStringLiteral(":/web/index.html"),
                 Html, call.path, providerOrigin(api));
    if (page.status != 200)
        return done(page);
    // Only [A-Za-z0-9._~+/=-] and & between them: nothing to escape in an attribute.
    const QByteArray meta =
        "<meta name=\"outbox-signin\" content=\"" + answer.toString(QUrl::FullyEncoded).toLatin1() + "\">\n";
    page.body.replace(QByteArrayLiteral("<head>\n"), QByteArray(QByteArrayLiteral("<head>\n") + meta));
    page.headers << qMakePair(QByteArrayLiteral("Cache-Control"), QByteArrayLiteral("no-store"));
    done(page);
}

void PagesController::staticFile(ApiContext& api, const ApiCall& call, ApiDone done)
{
    const QString& name = call.args.value(0); // dashboard.js, dashboard.css or chart.js (ApiRoutes.cpp)
    if (name == QLatin1String("chart.js"))
        return done(WebReply::bytes(api.chartJs, JavaScript));
    done(resource(QStringLiteral(":/web/") + name,
                  name.endsWith(QLatin1String(".css")) ? QByteArrayLiteral("text/css; charset=utf-8")
                                                       : JavaScript,
                  call.path));
}

void PagesController::console(ApiContext& api, const ApiCall& call, ApiDone done)
{
    // /console/ is its index; a name the route let through is served only when the file exists.
    const QString leaf = call.args.isEmpty() ? QStringLiteral("index.html") : call.args.first();
    static const QHash<QString, QByteArray> types = {
        {QStringLiteral("html"), Html},
        {QStringLiteral("js"), JavaScript},
        {QStringLiteral("css"), QByteArrayLiteral("text/css; charset=utf-8")},
        {QStringLiteral("json"), QByteArrayLiteral("application/json; charset=utf-8")}};
    const QString file = QStringLiteral(":/web/console/") + leaf;
    if (!QFile::exists(file))
        return done(WebReply::error(404, ApiContext::tr("there is nothing at %1").arg(call.path)));
    done(resource(file, types.value(leaf.section(QLatin1Char('.'), -1)), call.path, providerOrigin(api)));
}

void PagesController::consoleRedirect(ApiContext&, const ApiCall&, ApiDone done)
{
    WebReply r = WebReply::bytes(QByteArrayLiteral("see /console/\n"), QByteArrayLiteral("text/plain"));
    r.status = 301;
    r.headers << qMakePair(QByteArrayLiteral("Location"), QByteArrayLiteral("/console/"));
    done(r);
}

} // namespace outbox::web
