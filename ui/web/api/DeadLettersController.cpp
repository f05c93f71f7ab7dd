// /api/v1/dead-letters: the consumer side's dead letters, their failure groups, one letter, an
// operator's edit of one, and the audited replay and discard actions.
#include "core/db/DeadLetterGroups.h"
#include "core/db/DeadLetterStore.h"
#include "core/ops/DeadLetterEditor.h"
#include "core/ops/DeadLetterGroupEditor.h"
#include "ui/web/api/ApiContext.h"
#include "ui/web/api/BulkActionCall.h"
#include "ui/web/api/Controllers.h"

#include <QJsonArray>
#include <QJsonDocument>

namespace outbox::web {

namespace {

// The new payload of an edit: text (its UTF-8 bytes), a JSON object or array (the document
// itself), or payload_base64 (exactly those bytes); nothing when the body has neither.
Result<std::optional<QByteArray>> editedPayload(const QJsonObject& body)
{
    const QJsonValue payload = body.value(QStringLiteral("payload"));
    const QJsonValue payload64 = body.value(QStringLiteral("payload_base64"));
    if (!payload.isUndefined() && !payload64.isUndefined())
        return Error::usage(tr("give payload or payload_base64, not both"));
    if (payload.isString())
        return std::optional<QByteArray>(payload.toString().toUtf8());
    if (payload.isObject())
        return std::optional<QByteArray>(QJsonDocument(payload.toObject()).toJson(QJsonDocument::Compact));
    if (payload.isArray())
        return std::optional<QByteArray>(QJsonDocument(payload.toArray()).toJson(QJsonDocument::Compact));
    if (!payload.isUndefined())
        return Error::usage(tr("payload must be a string, an object or an array"));
    if (payload64.isUndefined())
        return std::optional<QByteArray>();
    auto decoded = QByteArray::fromBase64Encoding(payload64.toString().toLatin1(),
                                                  QByteArray::AbortOnBase64DecodingErrors);
    if (!payload64.isString() || !decoded)
        return Error::usage(tr("payload_base64 must be a base64 string"));
    return std::optional<QByteArray>(*decoded);
}

// The group and the change of a group edit's body (its preview's and its own): the group as GET
// /api/v1/dead-letters/groups lists it, {"consumer", "error_class", "fingerprint"} (core refuses
// statuses other than NEW), taken as `masker` showed it to the requester.
Result<GroupEditRequest> groupEditBody(const QJsonObject& body, const PayloadMasker& masker)
{
    const QJsonObject g = body.value(QStringLiteral("group")).toObject();
    auto group = DeadLetterGroup::fromJson(g);
    if (!group)
        return group.error().about(QStringLiteral("group"));
    if (group->consumerName.isEmpty() || group->errorClass.isEmpty() ||
        !g.value(QStringLiteral("fingerprint")).isString())
        return Error::usage(tr("group must be {\"consumer\", \"error_class\", \"fingerprint\"} as GET "
                               "/api/v1/dead-letters/groups lists it"))
            .about(QStringLiteral("group"));
    auto change = JsonChange::fromJson(body.value(QStringLiteral("change")).toObject());
    if (!change)
        return change.error();
    GroupEditRequest request;
    request.group = *group;
    matchAsSeen(request.group, masker);
    request.change = *change;
    return request;
}

// A group edit's preview as `masker` lets its requester see it (a viewer's token acting on a member):
// each letter's payload before and after, and the differences, which quote values.
QJsonObject maskedPreview(const PayloadMasker& masker, QJsonObject preview)
{
    if (masker.isEmpty())
        return preview;
    QJsonArray letters;
    for (const QJsonValue& v : preview.value(QStringLiteral("dead_letters")).toArray()) {
        QJsonObject letter = v.toObject();
        for (const QString& key : {QStringLiteral("before"), QStringLiteral("after")})
            if (letter.contains(key))
                letter[key] = masker.maskRow({{QStringLiteral("payload"), letter.value(key)}})
                                  .value(QStringLiteral("payload"));
        QJsonArray differences;
        for (const QJsonValue& d : letter.value(QStringLiteral("differences")).toArray())
            differences.append(masker.maskText(d.toString()));
        letter[QStringLiteral("differences")] = differences;
        letters.append(letter);
    }
    preview[QStringLiteral("dead_letters")] = letters;
    return preview;
}

} // namespace

void DeadLettersController::list(ApiContext& api, const ApiCall& call, ApiDone done)
{
    // The query's names are the filter's JSON names (core/db reads them): one list of keys.
    const QJsonObject filterJson =
        queryObject(call.query, DeadLetterFilter::keys(), {QStringLiteral("status")});
    auto parsed = DeadLetterFilter::fromJson(filterJson);
    if (!parsed)
        return done(WebReply::fromError(parsed.error()));
    const DeadLetterFilter filter = *parsed;
    if (Status s = refuseMaskedSearch(api.maskerFor(call.principal), !filter.errorText.isEmpty()); !s)
        return done(WebReply::fromError(s.error()));
    api.queryPage(
        QStringLiteral("dead_letters"),
        [filter, page = call.page](Database& db) {
            return DeadLetterStore(db).list(filter, page.afterId, page.limit, ListPreviewChars);
        },
        &DeadLetterPage::letters, call.principal, std::move(done));
}

void DeadLettersController::groups(ApiContext& api, const ApiCall& call, ApiDone done)
{
    auto statuses = deadLetterStatuses(queryValues(call.query, QStringLiteral("status")));
    if (!statuses)
        return done(WebReply::fromError(statuses.error()));
    const QString consumer = queryValue(call.query, QStringLiteral("consumer"));
    api.query([statuses = *statuses](Database& db) { return DeadLetterGroups(db).list(statuses); },
              [consumer, masker = api.maskerFor(call.principal)](const QVector<DeadLetterGroup>& groups) {
                  QJsonArray list;
                  for (const DeadLetterGroup& g : groups) {
                      if (!consumer.isEmpty() && g.consumerName != consumer)
                          continue;
                      list.append(g.toJson());
                  }
                  // The example and the fingerprint are error texts (the fingerprint keeps a
                  // secret's shape): both masked for viewers, and grouped on the masked text, as
                  // the failure groups.
                  return QJsonObject{
                      {QStringLiteral("groups"),
                       masker.maskGroups(list, {QStringLiteral("consumer"), QStringLiteral("error_class"),
                                                QStringLiteral("fingerprint")})}};
              },
              std::move(done));
}

void DeadLettersController::show(ApiContext& api, const ApiCall& call, ApiDone done)
{
    api.queryRow(
        [id = call.args.value(0).toLongLong()](Database& db) { return DeadLetterStore(db).find(id); },
        call.principal, std::move(done));
}

void DeadLettersController::edit(ApiContext& api, const ApiCall& call, ApiDone done)
{
    auto body = jsonBody(call.body, {QStringLiteral("payload"), QStringLiteral("payload_base64"),
                                     QStringLiteral("headers"), QStringLiteral("reason"),
                                     QStringLiteral("json_payload"), QStringLiteral("edit_count")});
    if (!body)
        return done(WebReply::fromError(body.error()));
    DeadLetterEdit edit;
    edit.actor = call.principal.name;
    auto payload = editedPayload(*body);
    if (!payload)
        return done(WebReply::fromError(payload.error()));
    edit.payload = *payload;
    const QJsonValue headers = body->value(QStringLiteral("headers"));
    if (!headers.isUndefined() && !headers.isObject())
        return done(WebReply::error(400, tr("headers must be a JSON object of strings")));
    if (headers.isObject())
        edit.headers = headers.toObject();
    auto reason = stringField(*body, QStringLiteral("reason"));
    auto json = boolField(*body, QStringLiteral("json_payload"));
    if (!reason || !json)
        return done(WebReply::fromError(!reason ? reason.error() : json.error()));
    edit.reason = *reason;
    edit.requireJsonPayload = *json;
    // The version the edit was made from (the edit_count the client read): a stale edit is a 409.
    const QJsonValue base = body->value(QStringLiteral("edit_count"));
    if (!base.isUndefined()) {
        if (!base.isDouble() || base.toDouble() != double(base.toInt(-1)))
            return done(WebReply::error(400, tr("edit_count must be a whole number")));
        edit.baseEditCount = base.toInt();
    }
    if (Status s = DeadLetterEditor::validate(edit); !s)
        return done(WebReply::fromError(s.error()));
    if (!edit.baseEditCount)
        return done(WebReply::error(400, tr("edit_count is required: the dead letter's edit_count as read "
                                            "(GET /api/v1/dead-letters/%1), so that a stale edit is refused")
                                             .arg(call.args.value(0))));
    api.query([id = call.args.value(0).toLongLong(),
               edit](Database& db) { return DeadLetterEditor(db).edit(id, edit); },
              [masker = api.maskerFor(call.principal)](const auto& result) {
                  QJsonObject o = result.toJson();
                  if (!masker.isEmpty()) // a viewer's token acting on a member (operator=MEMBER)
                      o[QStringLiteral("dead_letter")] =
                          masker.maskRow(o.value(QStringLiteral("dead_letter")).toObject());
                  return o;
              },
              std::move(done));
}

void DeadLettersController::previewGroupEdit(ApiContext& api, const ApiCall& call, ApiDone done)
{
    auto body = jsonBody(call.body, {QStringLiteral("group"), QStringLiteral("change")});
    if (!body)
        return done(WebReply::fromError(body.error()));
    const PayloadMasker masker = api.maskerFor(call.principal);
    auto edit = groupEditBody(*body, masker);
    if (!edit)
        return done(WebReply::fromError(edit.error()));
    api.query([group = edit->group, change = edit->change](
                  Database& db) { return DeadLetterGroupEditor(db).preview(group, change); },
              [masker](const GroupEditPreview& p) { return maskedPreview(masker, p.toJson(true)); },
              std::move(done));
}

void DeadLettersController::editGroup(ApiContext& api, const ApiCall& call, ApiDone done)
{
    auto body =
        jsonBody(call.body, {QStringLiteral("group"), QStringLiteral("change"), QStringLiteral("reason"),
                             QStringLiteral("versions"), QStringLiteral("chunk_size")});
    if (!body)
        return done(WebReply::fromError(body.error()));
    auto edit = groupEditBody(*body, api.maskerFor(call.principal));
    if (!edit)
        return done(WebReply::fromError(edit.error()));
    auto reason = stringField(*body, QStringLiteral("reason"));
    if (!reason)
        return done(WebReply::fromError(reason.error()));
    GroupEditRequest request = *edit;
    request.reason = *reason;
    request.actor = call.principal.name;
    // The preview's dead_letters [{id, edit_count}] of the letters that change: each edit is locked
    // to the version the operator saw.
    const QJsonValue versions = body->value(QStringLiteral("versions"));
    if (!versions.isArray())
        return done(WebReply::error(400, tr("versions is required: [{\"id\", \"edit_count\"}] of the "
                                            "preview's dead letters that change")));
    for (const QJsonValue& v : versions.toArray()) {
        const QJsonObject o = v.toObject();
        const double id = o.value(QStringLiteral("id")).toDouble(-1);
        const double count = o.value(QStringLiteral("edit_count")).toDouble(-1);
        if (id < 1 || count < 0 || id != double(qint64(id)) || count != double(int(count)))
            return done(
                WebReply::error(400, tr("versions must be [{\"id\", \"edit_count\"}] of whole numbers")));
        request.versions.insert(qint64(id), int(count));
    }
    if (const QJsonValue chunk = body->value(QStringLiteral("chunk_size")); !chunk.isUndefined())
        request.chunkSize = chunk.toInt(-1);
    api.query([request](Database& db) { return DeadLetterGroupEditor(db).apply(request); },
              [](const GroupEditResult& r) { return r.toJson(); }, std::move(done));
}

} // namespace outbox::web
