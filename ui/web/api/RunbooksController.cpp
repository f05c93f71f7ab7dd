// /docs/runbooks/ (the index) and /docs/runbooks/<id> (or <id>.md): the runbook page of a doctor
// finding as plain-text Markdown, written by core/diagnosis/Runbook — the same text the doctor
// prints and docs/runbooks/ holds. Alert rules link these pages (runbook_url). They hold no data of
// the database, so no token is needed (a browser following an alert's link has none).
#include "core/diagnosis/Runbook.h"
#include "ui/web/api/ApiContext.h"
#include "ui/web/api/Controllers.h"

namespace outbox::web {

namespace {

WebReply markdown(const QString& text)
{
    WebReply r = WebReply::bytes(text.toUtf8(), QByteArrayLiteral("text/plain; charset=utf-8"));
    r.headers << qMakePair(QByteArrayLiteral("X-Content-Type-Options"), QByteArrayLiteral("nosniff"));
    r.headers << qMakePair(QByteArrayLiteral("Content-Security-Policy"),
                           QByteArrayLiteral("default-src 'none'"));
    return r;
}

} // namespace

void RunbooksController::index(ApiContext&, const ApiCall&, ApiDone done)
{
    done(markdown(Runbook::servedIndexMarkdown()));
}

void RunbooksController::page(ApiContext&, const ApiCall& call, ApiDone done)
{
    QString id = call.args.value(0); // [a-z][a-z-]* with an optional .md (ApiRoutes.cpp)
    if (id.endsWith(QLatin1String(".md")))
        id.chop(3);
    const Runbook* runbook = Runbook::find(id);
    if (!runbook)
        return done(WebReply::error(404, ApiContext::tr("there is no runbook page at %1").arg(call.path)));
    done(markdown(runbook->servedMarkdown()));
}

} // namespace outbox::web
