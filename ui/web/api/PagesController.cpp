// The pages outside /api/v1: the dashboard at /, its files under /static/, the web admin console
// under /console/. Plain files compiled into the binary (Chart.js from the file system); none of
// them holds data: that needs a token on /ws or the API.
#include "ui/web/api/ApiContext.h"
#include "ui/web/api/Controllers.h"

#include <QFile>

namespace outbox::web {

namespace {

const QByteArray Html = QByteArrayLiteral("text/html; charset=utf-8");
const QByteArray JavaScript = QByteArrayLiteral("text/javascript; charset=utf-8");

// A page's file from the binary's resources, with the headers every page carries.
WebReply resource(const QString& file, const QByteArray& contentType, const QString& path)
{
    QFile f(file);
    if (!f.open(QIODevice::ReadOnly))
        return WebReply::error(
            500, ApiContext::tr("the dashboard's file %1 is missing from this build").arg(path));
    WebReply r = WebReply::bytes(f.readAll(), contentType);
    r.headers << qMakePair(
        QByteArrayLiteral("Content-Security-Policy"),
        QByteArrayLiteral("default-src 'self'; connect-src 'self' ws: wss:; img-src 'self' "
                          "data:; style-src 'self'; frame-ancestors 'none'"));
    // The console holds a token in the page: never framed, never sent as a Referer.
    r.headers << qMakePair(QByteArrayLiteral("Referrer-Policy"), QByteArrayLiteral("no-referrer"));
    return r;
}

} // namespace

void PagesController::dashboard(ApiContext&, const ApiCall& call, ApiDone done)
{
    done(resource(QStringLiteral(":/web/index.html"), Html, call.path));
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

void PagesController::console(ApiContext&, const ApiCall& call, ApiDone done)
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
    done(resource(file, types.value(leaf.section(QLatin1Char('.'), -1)), call.path));
}

void PagesController::consoleRedirect(ApiContext&, const ApiCall&, ApiDone done)
{
    WebReply r = WebReply::bytes(QByteArrayLiteral("see /console/\n"), QByteArrayLiteral("text/plain"));
    r.status = 301;
    r.headers << qMakePair(QByteArrayLiteral("Location"), QByteArrayLiteral("/console/"));
    done(r);
}

} // namespace outbox::web
