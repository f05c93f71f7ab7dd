// The operator's reach into ordering and dead letters: GET /api/v1/events/blocked,
// GET /api/v1/dead-letters/groups and PATCH /api/v1/dead-letters/{id}. Part of WebApi.
#include "core/db/BlockedAggregates.h"
#include "core/db/DeadLetterGroups.h"
#include "core/db/EventStatus.h"
#include "core/ops/DeadLetterEditor.h"
#include "ui/web/DatabaseWorkerPool.h"
#include "ui/web/WebApi.h"

#include <QJsonArray>
#include <QJsonDocument>

namespace outbox::web {

void WebApi::listBlocked(const ApiCall& call, Done done)
{
    if (Status s = rejectUnknown(call.query, {QStringLiteral("limit"), QStringLiteral("min_wait_ms")}); !s)
        return done(WebReply::fromError(s.error()));
    BlockedAggregatesQuery query;
    bool ok = true;
    if (call.query.hasQueryItem(QStringLiteral("limit"))) {
        query.limit = call.query.queryItemValue(QStringLiteral("limit"), QUrl::FullyDecoded).toInt(&ok);
        if (!ok || query.limit < 1 || query.limit > BlockedAggregates::MaxLimit)
            return done(WebReply::error(
                400, tr("limit must be a number between 1 and %1").arg(BlockedAggregates::MaxLimit)));
    }
    if (call.query.hasQueryItem(QStringLiteral("min_wait_ms"))) {
        query.minWaitMs =
            call.query.queryItemValue(QStringLiteral("min_wait_ms"), QUrl::FullyDecoded).toLongLong(&ok);
        if (!ok || query.minWaitMs < 0)
            return done(WebReply::error(400, tr("min_wait_ms must be a non-negative number")));
    }
    PayloadMasker masker = maskerFor(call.principal);
    m_pool.submit(
        [query, masker](Database& db) {
            auto blocked = BlockedAggregates(db).list(query);
            if (!blocked)
                return WebReply::fromError(blocked.error());
            QJsonObject o = blocked->toJson();
            QJsonArray rows;
            for (const QJsonValue& v : o.value(QStringLiteral("aggregates")).toArray())
                rows.append(masker.maskRow(v.toObject())); // the error text
            o[QStringLiteral("aggregates")] = rows;
            return WebReply::json(o);
        },
        this, std::move(done));
}

void WebApi::listDeadLetterGroups(const ApiCall& call, Done done)
{
    if (Status s = rejectUnknown(call.query, {QStringLiteral("status"), QStringLiteral("consumer")}); !s)
        return done(WebReply::fromError(s.error()));
    QStringList statuses;
    for (const QString& v : call.query.allQueryItemValues(QStringLiteral("status"), QUrl::FullyDecoded))
        for (const QString& s : v.split(QLatin1Char(','), Qt::SkipEmptyParts)) {
            auto status = DeadLetterStatus::parse(s);
            if (!status)
                return done(WebReply::fromError(status.error()));
            statuses << *status;
        }
    const QString consumer = call.query.queryItemValue(QStringLiteral("consumer"), QUrl::FullyDecoded);
    PayloadMasker masker = maskerFor(call.principal);
    m_pool.submit(
        [statuses, consumer, masker](Database& db) {
            auto groups = DeadLetterGroups(db).list(statuses);
            if (!groups)
                return WebReply::fromError(groups.error());
            QJsonArray list;
            for (const DeadLetterGroup& g : *groups) {
                if (!consumer.isEmpty() && g.consumerName != consumer)
                    continue;
                QJsonObject o = g.toJson();
                o[QStringLiteral("example")] = masker.maskText(g.example);
                list.append(o);
            }
            return WebReply::json(QJsonObject{{QStringLiteral("groups"), list}});
        },
        this, std::move(done));
}

void WebApi::editDeadLetter(qint64 id, const ApiCall& call, Done done)
{
    if (!call.query.isEmpty())
        return done(WebReply::error(400, tr("%1 takes no parameters").arg(call.path)));
    QJsonParseError parseError{};
    const QJsonDocument doc = QJsonDocument::fromJson(call.body, &parseError);
    if (parseError.error != QJsonParseError::NoError || !doc.isObject())
        return done(WebReply::error(400, tr("the request body must be a JSON object (%1)")
                                             .arg(parseError.error != QJsonParseError::NoError
                                                      ? parseError.errorString()
                                                      : tr("got another JSON value"))));
    const QJsonObject body = doc.object();
    static const QStringList known = {QStringLiteral("payload"),      QStringLiteral("payload_base64"),
                                      QStringLiteral("headers"),      QStringLiteral("reason"),
                                      QStringLiteral("json_payload"), QStringLiteral("edit_count")};
    for (auto it = body.begin(); it != body.end(); ++it)
        if (!known.contains(it.key()))
            return done(WebReply::error(
                400,
                tr("unknown field \"%1\" (expected %2)").arg(it.key(), known.join(QStringLiteral(", ")))));
    DeadLetterEdit edit;
    edit.actor = call.principal.name;
    const QJsonValue payload = body.value(QStringLiteral("payload"));
    const QJsonValue payload64 = body.value(QStringLiteral("payload_base64"));
    if (!payload.isUndefined() && !payload64.isUndefined())
        return done(WebReply::error(400, tr("give payload or payload_base64, not both")));
    if (!payload.isUndefined()) {
        // The new payload as text (its UTF-8 bytes are sent); a JSON object or array is taken as
        // the document itself.
        if (payload.isString())
            edit.payload = payload.toString().toUtf8();
        else if (payload.isObject())
            edit.payload = QJsonDocument(payload.toObject()).toJson(QJsonDocument::Compact);
        else if (payload.isArray())
            edit.payload = QJsonDocument(payload.toArray()).toJson(QJsonDocument::Compact);
        else
            return done(WebReply::error(400, tr("payload must be a string, an object or an array")));
    }
    if (!payload64.isUndefined()) {
        auto decoded = QByteArray::fromBase64Encoding(payload64.toString().toLatin1(),
                                                      QByteArray::AbortOnBase64DecodingErrors);
        if (!payload64.isString() || !decoded)
            return done(WebReply::error(400, tr("payload_base64 must be a base64 string")));
        edit.payload = *decoded;
    }
    const QJsonValue headers = body.value(QStringLiteral("headers"));
    if (!headers.isUndefined()) {
        if (!headers.isObject())
            return done(WebReply::error(400, tr("headers must be a JSON object of strings")));
        edit.headers = headers.toObject();
    }
    const QJsonValue reason = body.value(QStringLiteral("reason"));
    if (!reason.isUndefined() && !reason.isString())
        return done(WebReply::error(400, tr("reason must be a string")));
    edit.reason = reason.toString();
    const QJsonValue json = body.value(QStringLiteral("json_payload"));
    if (!json.isUndefined() && !json.isBool())
        return done(WebReply::error(400, tr("json_payload must be true or false")));
    edit.requireJsonPayload = json.toBool();
    // The version the edit was made from (the edit_count the client read): a stale edit is a 409.
    const QJsonValue base = body.value(QStringLiteral("edit_count"));
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
                                             .arg(id)));
    m_pool.submit(
        [id, edit](Database& db) {
            auto result = DeadLetterEditor(db).edit(id, edit);
            if (!result)
                return WebReply::fromError(result.error());
            return WebReply::json(result->toJson()); // an operator's token: nothing masked
        },
        this, std::move(done));
}

} // namespace outbox::web
