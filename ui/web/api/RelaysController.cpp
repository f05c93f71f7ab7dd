// /api/v1/relays/{command}: the audited pause, resume and drain of relay workers, and forgetting
// the registration of relays that are gone (core's RelayControl, as `outboxctl relays`).
#include "core/ops/ActionConfirmation.h"
#include "core/ops/BulkActionEngine.h"
#include "core/ops/RelayControl.h"
#include "ui/web/api/ApiContext.h"
#include "ui/web/api/ApiInput.h"
#include "ui/web/api/Controllers.h"

namespace outbox::web {

void RelaysController::control(ApiContext& api, const ApiCall& call, ApiDone done)
{
    const QString command = call.args.value(0);
    const bool forget = command == QLatin1String("forget");
    QStringList known{QStringLiteral("workers"), QStringLiteral("reason"), QStringLiteral("dry_run")};
    if (forget)
        known << QStringLiteral("stale_after_s");
    auto body = jsonBody(call.body, known);
    if (!body)
        return done(WebReply::fromError(body.error()));
    QStringList workers;
    const QJsonArray w = body->value(QStringLiteral("workers")).toArray();
    for (const QJsonValue& v : w)
        if (v.isString() && !v.toString().isEmpty())
            workers << v.toString();
    if (!body->value(QStringLiteral("workers")).isArray() || w.isEmpty() || w.size() > 1000 ||
        workers.size() != w.size())
        return done(WebReply::error(400, tr("workers must be an array of 1 to 1000 relay worker ids")));
    auto dryRun = boolField(*body, QStringLiteral("dry_run"));
    if (!dryRun)
        return done(WebReply::fromError(dryRun.error()));
    const RelayControl::Command c = command == QLatin1String("pause")    ? RelayControl::Command::Pause
                                    : command == QLatin1String("resume") ? RelayControl::Command::Resume
                                                                         : RelayControl::Command::Drain;
    const QString action = forget ? QStringLiteral("relay.forget") : RelayControl::actionName(c);
    if (*dryRun) {
        // What the console shows before it asks for a reason: core's verb and the phrase to type.
        ActionTarget target;
        target.workerIds = workers;
        return done(WebReply::json(
            QJsonObject{{QStringLiteral("action"), action},
                        {QStringLiteral("dry_run"), true},
                        {QStringLiteral("workers"), QJsonArray::fromStringList(workers)},
                        {QStringLiteral("verb"), ActionConfirmation::verb(action)},
                        {QStringLiteral("confirmation"),
                         ActionConfirmation::phraseFor(action, target, workers.size(), false)}}));
    }
    const QJsonValue reasonValue = body->value(QStringLiteral("reason"));
    const QString reason = reasonValue.toString().trimmed();
    if (!reasonValue.isString() || reason.isEmpty() || reason.size() > BulkActionEngine::MaxReasonLength)
        return done(WebReply::error(
            400, tr("reason is required (at most %1 characters)").arg(BulkActionEngine::MaxReasonLength)));
    const auto toJson = [](const auto& result) {
        return QJsonObject{{QStringLiteral("action"), result.action},
                           {QStringLiteral("changed"), QJsonArray::fromStringList(result.changed)},
                           {QStringLiteral("missing"), QJsonArray::fromStringList(result.missing)},
                           {QStringLiteral("audit_id"), result.auditId}};
    };
    if (forget) {
        qint64 staleAfterMs = RelayControl::DefaultForgetAfterMs;
        const QJsonValue stale = body->value(QStringLiteral("stale_after_s"));
        if (!stale.isUndefined()) {
            if (!stale.isDouble() || stale.toDouble() < 1 || stale.toDouble() > 365.0 * 24 * 3600 ||
                stale.toDouble() != double(qint64(stale.toDouble())))
                return done(WebReply::error(400, tr("stale_after_s must be a whole number of seconds from 1 "
                                                    "to 31536000")));
            staleAfterMs = qint64(stale.toDouble()) * 1000;
        }
        api.query([workers, staleAfterMs, reason, actor = call.principal.name](
                      Database& db) { return RelayControl(db).forget(workers, staleAfterMs, reason, actor); },
                  toJson, std::move(done));
        return;
    }
    api.query([c, workers, reason, actor = call.principal.name](
                  Database& db) { return RelayControl(db).apply(c, workers, reason, actor); },
              toJson, std::move(done));
}

} // namespace outbox::web
