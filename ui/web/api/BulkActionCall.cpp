#include "ui/web/api/BulkActionCall.h"

#include "core/db/DeadLetterGroups.h"
#include "core/db/FailureGroups.h"
#include "ui/web/api/ApiContext.h"
#include "ui/web/api/ApiInput.h"

#include <memory>
#include <optional>

namespace outbox::web {

namespace {

// The object under `key` read by `fromJson` into `target` (absent: left empty); a value of another
// type is refused.
template <typename T>
Status readObject(const QJsonObject& body, const QString& key, std::optional<T>& target,
                  Result<T> (*fromJson)(const QJsonObject&))
{
    const QJsonValue value = body.value(key);
    if (value.isUndefined())
        return {};
    if (!value.isObject())
        return Error::usage(tr("%1 must be a JSON object").arg(key));
    auto parsed = fromJson(value.toObject());
    if (!parsed)
        return parsed.error();
    target = *parsed;
    return {};
}

// The request a body asks for, before core checks it.
Result<ActionRequest> requestFromBody(const ApiCall& call, ActionKind kind)
{
    const bool deadLetters = !isEventAction(kind);
    QStringList known = {QStringLiteral("ids"), QStringLiteral("filter"), QStringLiteral("reason"),
                         QStringLiteral("dry_run"), QStringLiteral("force")};
    known << (deadLetters ? QStringList{QStringLiteral("to_topic"), QStringLiteral("group")}
                          : QStringList{QStringLiteral("resend"), QStringLiteral("group")});
    auto body = jsonBody(call.body, known);
    if (!body)
        return body.error();

    ActionRequest request;
    request.actor = call.principal.name;
    const QJsonValue ids = body->value(QStringLiteral("ids"));
    if (!ids.isUndefined() && !ids.isArray())
        return Error::usage(tr("ids must be an array of positive integers"));
    for (const QJsonValue& v : ids.toArray()) {
        const double d = v.toDouble(-1);
        if (!v.isDouble() || d < 1 || d != double(qint64(d)))
            return Error::usage(tr("ids must be an array of positive integers"));
        request.ids << qint64(d);
    }
    // Filters and groups are read by core/db beside their toJson(): the same names everywhere.
    Status target = deadLetters ? readObject(*body, QStringLiteral("filter"), request.deadLetterFilter,
                                             &DeadLetterFilter::fromJson)
                                : readObject(*body, QStringLiteral("filter"), request.eventFilter,
                                             &EventFilter::fromJson);
    if (!target)
        return target.error();
    target = deadLetters ? readObject(*body, QStringLiteral("group"), request.deadLetterGroup,
                                      &DeadLetterGroup::fromJson)
                         : readObject(*body, QStringLiteral("group"), request.group, &FailureGroup::fromJson);
    if (!target)
        return target.error();
    for (const QString& key : {QStringLiteral("reason"), QStringLiteral("to_topic")})
        if (auto v = stringField(*body, key); !v)
            return v.error();
    for (const QString& key : {QStringLiteral("dry_run"), QStringLiteral("force"), QStringLiteral("resend")})
        if (auto v = boolField(*body, key); !v)
            return v.error();
    request.reason = body->value(QStringLiteral("reason")).toString();
    request.dryRun = body->value(QStringLiteral("dry_run")).toBool();
    request.force = body->value(QStringLiteral("force")).toBool();
    request.resend = body->value(QStringLiteral("resend")).toBool();
    request.replayTopic = body->value(QStringLiteral("to_topic")).toString();
    return request;
}

// The field of the body to change when core refuses the request.
QString fieldOf(ActionInput input)
{
    static const std::pair<ActionInput, const char*> fields[] = {
        {ActionInput::Targets, "ids, group or filter"},
        {ActionInput::Ids, "ids"},
        {ActionInput::Filter, "filter"},
        {ActionInput::Group, "group"},
        {ActionInput::Reason, "reason"},
        {ActionInput::ReplayTopic, "to_topic"}};
    for (const auto& [in, field] : fields)
        if (in == input)
            return QString::fromLatin1(field);
    return QString();
}

} // namespace

QJsonObject maskActionReply(const PayloadMasker& masker, QJsonObject reply)
{
    if (masker.isEmpty())
        return reply;
    if (reply.value(QStringLiteral("sample")).isArray()) {
        QJsonArray sample;
        for (const QJsonValue& row : reply.value(QStringLiteral("sample")).toArray())
            sample.append(row.isObject() ? QJsonValue(masker.maskRow(row.toObject())) : row);
        reply[QStringLiteral("sample")] = sample;
    }
    return masker.maskRow(reply);
}

void startBulkJob(ApiContext& api, ActionKind kind, const ActionRequest& request, const ActionResult& preview,
                  const ApiDone& done, const PayloadMasker& masker)
{
    auto job = api.jobs.start(kind, request, preview);
    if (!job) {
        WebReply r = WebReply::error(
            429, tr("%1 bulk actions are running already; try again when one has finished (GET /api/v1/jobs)")
                     .arg(ActionJobs::MaxRunning));
        r.headers << qMakePair(QByteArrayLiteral("Retry-After"), QByteArrayLiteral("10"));
        return done(r);
    }
    WebReply r = WebReply::json(maskActionReply(masker, *job), 202);
    r.headers << qMakePair(QByteArrayLiteral("Location"),
                           job->value(QStringLiteral("href")).toString().toUtf8());
    done(r);
}

void previewThenRun(ApiContext& api, const std::function<Result<ActionResult>(Database&)>& preview,
                    const std::function<Result<ActionResult>(Database&, const ActionResult&)>& run,
                    std::optional<ActionKind> jobKind, const ActionRequest& request,
                    const PayloadMasker& masker, ApiDone done)
{
    // The preview on the pool decides (core: ActionResult::runsAsJob); one chunk's worth runs there
    // and then with it, more runs as a job that takes the same preview.
    auto previewed = std::make_shared<std::optional<ActionResult>>();
    api.submit(
        [preview, run, jobKind, previewed, masker](Database& db) {
            auto counted = preview(db);
            if (!counted)
                return WebReply::fromError(counted.error());
            if (counted->runsAsJob && jobKind) {
                *previewed = *counted;
                return WebReply::json(maskActionReply(masker, counted->toJson()), 202);
            }
            auto result = run(db, *counted);
            if (!result)
                return WebReply::fromError(result.error());
            return WebReply::json(maskActionReply(masker, result->toJson()));
        },
        [&api, jobKind, request, previewed, masker, done = std::move(done)](const WebReply& reply) {
            if (previewed->has_value())
                return startBulkJob(api, *jobKind, request, **previewed, done, masker);
            done(reply);
        });
}

void runBulkAction(ApiContext& api, const ApiCall& call, ActionKind kind, ApiDone done)
{
    auto parsed = requestFromBody(call, kind);
    if (!parsed)
        return done(WebReply::fromError(parsed.error()));
    const PayloadMasker masker = api.maskerFor(call.principal);
    if (parsed->group)
        matchAsSeen(*parsed->group, masker);
    if (parsed->deadLetterGroup)
        matchAsSeen(*parsed->deadLetterGroup, masker);
    const ActionRequest request = *parsed;
    ActionInput input = ActionInput::Targets;
    if (Status s = BulkActionEngine::validate(kind, request, &input); !s) {
        // Core names the problem; the API adds the field to change.
        const QString field = fieldOf(input);
        return done(WebReply::fromError(Error{
            s.error().kind, field.isEmpty() ? s.message() : tr("%1 (field %2)").arg(s.message(), field)}));
    }

    if (request.dryRun) {
        api.query([request, kind](Database& db) { return BulkActionEngine(db).preview(kind, request); },
                  [masker](const auto& result) { return maskActionReply(masker, result.toJson()); },
                  std::move(done));
        return;
    }
    previewThenRun(
        api, [kind, request](Database& db) { return BulkActionEngine(db).previewForRun(kind, request); },
        [kind, request](Database& db, const ActionResult& preview) {
            return BulkActionEngine(db).run(kind, request, preview);
        },
        kind, request, masker, std::move(done));
}

} // namespace outbox::web
