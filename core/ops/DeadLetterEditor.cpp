#include "core/ops/DeadLetterEditor.h"

#include "core/db/Database.h"
#include "core/db/DeadLetterStore.h"
#include "core/ops/AuditLog.h"
#include "core/support/JsonText.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QSqlQuery>
#include <QSysInfo>

namespace outbox {

QJsonObject DeadLetterEditor::messageJson(const QByteArray& payload, bool payloadIsText,
                                          const QByteArray& headers)
{
    QJsonObject o;
    if (payloadIsText) {
        o[QStringLiteral("payload")] = QString::fromUtf8(payload);
    } else {
        o[QStringLiteral("payload")] = QJsonValue();
        o[QStringLiteral("payload_base64")] = QString::fromLatin1(payload.toBase64());
    }
    o[QStringLiteral("headers")] =
        QJsonDocument::fromJson(headers.isEmpty() ? QByteArray("{}") : headers).object();
    return o;
}

QJsonObject DeadLetterEditResult::toJson() const
{
    QJsonObject o{{QStringLiteral("id"), after.id},
                  {QStringLiteral("audit_id"), auditId},
                  {QStringLiteral("edit_count"), after.editCount},
                  {QStringLiteral("dead_letter"), after.toJson()}};
    return o;
}

Status DeadLetterEditor::validate(const DeadLetterEdit& e)
{
    if (!e.payload && !e.headers)
        return Error::usage(tr("nothing to change: give a new payload, new headers or both"));
    if (e.reason.trimmed().isEmpty())
        return Error::usage(tr("a reason is required"));
    if (e.reason.size() > MaxReasonLength)
        return Error::usage(tr("the reason is limited to %1 characters").arg(MaxReasonLength));
    if (e.actor.trimmed().isEmpty())
        return Error::usage(tr("an actor is required (who acts, for the audit log)"));
    if (e.baseEditCount && *e.baseEditCount < 0)
        return Error::usage(tr("invalid edit count %1").arg(*e.baseEditCount))
            .about(QStringLiteral("edit_count"));
    if (e.payload) {
        if (e.payload->size() > MaxPayloadBytes)
            return Error::usage(tr("the payload is limited to %1 bytes (it has %2)")
                                    .arg(MaxPayloadBytes)
                                    .arg(e.payload->size()));
        if (e.requireJsonPayload) {
            QJsonParseError error{};
            QJsonDocument::fromJson(*e.payload, &error);
            if (error.error != QJsonParseError::NoError)
                return Error::usage(tr("the payload is not valid JSON: %1 at byte %2")
                                        .arg(JsonText::parseError(error.error))
                                        .arg(error.offset));
        }
    }
    if (e.headers) {
        if (e.headers->size() > MaxHeaders)
            return Error::usage(tr("at most %1 headers").arg(MaxHeaders));
        for (auto it = e.headers->begin(); it != e.headers->end(); ++it) {
            if (it.key().isEmpty())
                return Error::usage(tr("a header needs a name"));
            if (!it->isString())
                return Error::usage(tr("header \"%1\" must be a string").arg(it.key().left(100)));
            const QString value = it->toString();
            if (it.key().contains(QChar(0)) || value.contains(QChar(0)))
                return Error::usage(tr("header \"%1\" contains a NUL character").arg(it.key().left(100)));
            if (it.key().toUtf8().size() > MaxHeaderBytes || value.toUtf8().size() > MaxHeaderBytes)
                return Error::usage(
                    tr("header \"%1\" is longer than %2 bytes").arg(it.key().left(100)).arg(MaxHeaderBytes));
        }
    }
    return {};
}

Result<DeadLetterEditResult> DeadLetterEditor::edit(qint64 id, const DeadLetterEdit& e)
{
    if (id <= 0)
        return Error::usage(tr("invalid dead letter id %1").arg(id));
    if (Status s = validate(e); !s)
        return s.error();
    if (!e.baseEditCount)
        return Error::usage(
                   tr("the edit must name the version it was made from (the dead letter's edit count)"))
            .about(QStringLiteral("edit_count"));
    Transaction tx(m_db);
    if (Status s = tx.beginWrite(); !s)
        return s.error();
    // Read and lock the row: what the audit row calls "before" is what is replaced.
    auto q = m_db.exec(QStringLiteral("SELECT %1 FROM {dead_letters} WHERE id = :id%2")
                           .arg(DeadLetter::columns(), m_db.dialect().forUpdate()),
                       {{QStringLiteral(":id"), id}});
    if (!q)
        return q.error();
    if (!q->next())
        return Error::notFound(tr("no dead letter with id %1").arg(id));
    DeadLetterEditResult result;
    result.before = DeadLetter::fromQuery(*q, m_db.dialect());
    q->finish();
    if (result.before.status != QLatin1String("NEW"))
        return Error::conflict(tr("dead letter %1 is %2; only NEW dead letters can be edited (a replay or "
                                  "discard has taken it)")
                                   .arg(id)
                                   .arg(result.before.status));
    if (result.before.editCount != *e.baseEditCount)
        return Error::conflict(tr("dead letter %1 was edited meanwhile (it is at edit %2; this edit was made "
                                  "from edit %3): read it again and redo the edit")
                                   .arg(id)
                                   .arg(result.before.editCount)
                                   .arg(*e.baseEditCount));
    DeadLetterStore store(m_db);
    auto changed = store.replaceMessage(result.before, e.payload, e.headers, e.actor.trimmed());
    if (!changed)
        return changed.error();
    if (!*changed)
        return Error::conflict(tr("dead letter %1 changed meanwhile; read it again").arg(id));
    auto after = store.find(id);
    if (!after)
        return after.error();
    result.after = *after;

    AuditEntry entry;
    entry.actor = e.actor.trimmed();
    entry.host = QSysInfo::machineHostName();
    entry.action = QStringLiteral("dlq.edit");
    entry.targetKind = QStringLiteral("dead_letter");
    entry.targetIds.append(id);
    entry.reason = e.reason.trimmed();
    entry.affectedCount = 1;
    entry.before = messageJson(result.before.payload, result.before.payloadIsText, result.before.headers);
    entry.after = messageJson(result.after.payload, result.after.payloadIsText, result.after.headers);
    QJsonArray changedParts;
    if (e.payload)
        changedParts.append(QStringLiteral("payload"));
    if (e.headers)
        changedParts.append(QStringLiteral("headers"));
    entry.filter = QJsonObject{{QStringLiteral("changed"), changedParts},
                               {QStringLiteral("edit"), result.after.editCount}};
    entry.outcome = QStringLiteral("ok");
    auto auditId = AuditLog(m_db).appendAndCommit(entry, tx);
    if (!auditId)
        return auditId.error();
    result.auditId = *auditId;
    return result;
}

} // namespace outbox
