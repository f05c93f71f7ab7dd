// /api/v1/relays/{command}: the audited pause, resume and drain of relay workers.
#include "core/ops/BulkActionEngine.h"
#include "core/ops/RelayControl.h"
#include "ui/web/api/ApiContext.h"
#include "ui/web/api/Controllers.h"

namespace outbox::web {

void RelaysController::control(ApiContext& api, const ApiCall& call, ApiDone done)
{
    auto body = jsonBody(call.body, {QStringLiteral("workers"), QStringLiteral("reason")});
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
    const QJsonValue reasonValue = body->value(QStringLiteral("reason"));
    const QString reason = reasonValue.toString().trimmed();
    if (!reasonValue.isString() || reason.isEmpty() || reason.size() > BulkActionEngine::MaxReasonLength)
        return done(WebReply::error(
            400, tr("reason is required (at most %1 characters)").arg(BulkActionEngine::MaxReasonLength)));
    const QString command = call.args.value(0);
    const RelayControl::Command c = command == QLatin1String("pause")    ? RelayControl::Command::Pause
                                    : command == QLatin1String("resume") ? RelayControl::Command::Resume
                                                                         : RelayControl::Command::Drain;
    api.query([c, workers, reason, actor = call.principal.name](
                  Database& db) { return RelayControl(db).apply(c, workers, reason, actor); },
              [](const auto& result) {
                  return QJsonObject{{QStringLiteral("action"), result.action},
                                     {QStringLiteral("changed"), QJsonArray::fromStringList(result.changed)},
                                     {QStringLiteral("missing"), QJsonArray::fromStringList(result.missing)},
                                     {QStringLiteral("audit_id"), result.auditId}};
              },
              std::move(done));
}

} // namespace outbox::web
