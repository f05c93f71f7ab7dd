// /api/v1/findings: the doctor's latest report, as the server's monitor ran it, and its prepared
// actions previewed and run through core's PreparedActionRunner (the same as the desktop's
// Recovery flow): the console never maps an operation to an action of its own.
#include "core/diagnosis/PreparedActionRunner.h"
#include "ui/web/api/ApiContext.h"
#include "ui/web/api/ApiInput.h"
#include "ui/web/api/BulkActionCall.h"
#include "ui/web/api/Controllers.h"
#include "ui/web/live/LatestFindings.h"

namespace outbox::web {

void FindingsController::show(ApiContext& api, const ApiCall& call, ApiDone done)
{
    if (!api.findings)
        return done(WebReply::error(404, tr("there is nothing at %1").arg(call.path)));
    done(api.findings->reply(api.maskerFor(call.principal)));
}

void FindingsController::act(ApiContext& api, const ApiCall& call, ApiDone done)
{
    auto body = jsonBody(call.body, {QStringLiteral("key"), QStringLiteral("reason"),
                                     QStringLiteral("dry_run"), QStringLiteral("expected")});
    if (!body)
        return done(WebReply::fromError(body.error()));
    auto key = stringField(*body, QStringLiteral("key"));
    auto reason = stringField(*body, QStringLiteral("reason"));
    auto dryRun = boolField(*body, QStringLiteral("dry_run"));
    if (!key)
        return done(WebReply::fromError(key.error()));
    if (!reason)
        return done(WebReply::fromError(reason.error()));
    if (!dryRun)
        return done(WebReply::fromError(dryRun.error()));
    const QJsonValue expected = body->value(QStringLiteral("expected"));
    if (!*dryRun) {
        // As every action of the console: a reason for the audit log, and the count the operator
        // saw in the preview, so that a run never changes more than was confirmed.
        if (reason->trimmed().isEmpty())
            return done(WebReply::error(400, tr("reason is required: it is kept in the audit log")));
        if (!expected.isDouble() || expected.toDouble() < 0 ||
            expected.toDouble() != double(qint64(expected.toDouble())))
            return done(WebReply::error(
                400, tr("expected is required: the matched count of this action's preview (dry_run)")));
    }
    if (!api.findings || !api.findings->has())
        return done(WebReply::error(503, tr("the doctor has not finished its first run yet")));
    const QString id = call.args.value(0);
    const qint64 index = call.args.value(1).toLongLong();
    const Finding* finding = nullptr;
    for (const Finding& f : api.findings->report().findings)
        if (f.id == id && f.key == *key)
            finding = &f;
    if (!finding)
        return done(WebReply::error(
            404, tr("the doctor's latest run has no finding %1 with key \"%2\" (it may have been resolved: "
                    "reload the findings)")
                     .arg(id, *key)));
    if (index >= finding->actions.size())
        return done(WebReply::error(
            404, tr("finding %1 has %2 prepared action(s)").arg(id).arg(finding->actions.size())));
    const PreparedAction action = finding->actions.at(int(index));
    const QString actor = call.principal.name;
    const qint64 staleMs = api.relayStaleAfterMs;
    const PayloadMasker masker = api.maskerFor(call.principal);
    if (*dryRun) {
        api.query([action, actor, staleMs](
                      Database& db) { return PreparedActionRunner(db, staleMs).preview(action, actor); },
                  [action, masker](const ActionResult& preview) {
                      QJsonObject o = maskActionReply(masker, preview.toJson());
                      o[QStringLiteral("prepared_action")] = action.toJson();
                      return o;
                  },
                  std::move(done));
        return;
    }
    // Core previews again; a count other than the one confirmed is refused before anything changes.
    // One chunk's worth runs there and then with that preview; more runs as a job (202, progress on
    // /ws, cancellable) like every bulk action of the API, never holding a lane of the pool for the
    // whole run.
    const auto bulk = PreparedActionRunner::bulkKind(action.operation);
    const ActionRequest request = PreparedActionRunner::request(action, reason->trimmed(), actor);
    const qint64 confirmed = qint64(expected.toDouble());
    previewThenRun(
        api,
        [action, actor, staleMs, confirmed](Database& db) -> Result<ActionResult> {
            auto preview = PreparedActionRunner(db, staleMs).preview(action, actor);
            if (preview && preview->matched != confirmed)
                return Error::conflict(tr("%1 row(s) match now, %2 were previewed and confirmed: nothing was "
                                          "changed; preview again")
                                           .arg(preview->matched)
                                           .arg(confirmed));
            return preview;
        },
        [action, actor, staleMs, reason = request.reason](Database& db, const ActionResult& preview) {
            return PreparedActionRunner(db, staleMs).run(action, reason, actor, preview);
        },
        bulk ? std::optional<ActionKind>(*bulk) : std::nullopt, request, masker, std::move(done));
}

} // namespace outbox::web
