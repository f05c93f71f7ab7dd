#include "core/ops/DeadLetterGroupEditor.h"

#include "core/db/Database.h"
#include "core/db/DeadLetter.h"
#include "core/db/DeadLetterStore.h"
#include "core/db/EventStatus.h"
#include "core/ops/ActionConfirmation.h"
#include "core/ops/AuditLog.h"
#include "core/ops/DeadLetterEditor.h"

#include <QJsonArray>
#include <QSqlQuery>
#include <QSysInfo>
#include <algorithm>

namespace outbox {

QJsonObject GroupEditItem::toJson(bool withPayloads) const
{
    QJsonObject o{{QStringLiteral("id"), id},
                  {QStringLiteral("edit_count"), editCount},
                  {QStringLiteral("changes"), changes},
                  {QStringLiteral("differences"), QJsonArray::fromStringList(differences)}};
    if (!skipped.isEmpty())
        o.insert(QStringLiteral("skipped"), skipped);
    if (withPayloads) {
        o.insert(QStringLiteral("before"), QString::fromUtf8(before));
        if (changes)
            o.insert(QStringLiteral("after"), QString::fromUtf8(after));
    }
    return o;
}

QHash<qint64, int> GroupEditPreview::versions() const
{
    QHash<qint64, int> v;
    for (const GroupEditItem& i : items)
        if (i.changes)
            v.insert(i.id, i.editCount);
    return v;
}

QJsonObject GroupEditPreview::toJson(bool withPayloads) const
{
    QJsonArray list;
    for (const GroupEditItem& i : items)
        list.append(i.toJson(withPayloads));
    return QJsonObject{{QStringLiteral("group"), group.toJson()},
                       {QStringLiteral("change"), change.toJson()},
                       {QStringLiteral("description"), change.describe()},
                       {QStringLiteral("changing"), changing},
                       {QStringLiteral("skipped"), skipped},
                       {QStringLiteral("verb"), verb},
                       {QStringLiteral("confirmation"), confirmation},
                       {QStringLiteral("dead_letters"), list}};
}

QJsonObject GroupEditResult::toJson() const
{
    QJsonArray audits;
    for (qint64 id : auditIds)
        audits.append(id);
    QJsonArray ids;
    for (qint64 id : editedIds)
        ids.append(id);
    return QJsonObject{{QStringLiteral("edited"), edited},      {QStringLiteral("conflicts"), conflicts},
                       {QStringLiteral("skipped"), skipped},    {QStringLiteral("chunks"), chunks},
                       {QStringLiteral("audit_ids"), audits},   {QStringLiteral("edited_ids"), ids},
                       {QStringLiteral("cancelled"), cancelled}};
}

Result<GroupEditPreview> DeadLetterGroupEditor::preview(const DeadLetterGroup& group,
                                                        const JsonChange& change)
{
    if (!group.statuses.isEmpty() && group.statuses != QStringList{DeadLetterStatus::New})
        return Error::usage(tr("only NEW dead letters can be edited: the group must be of NEW letters"));
    GroupEditPreview p;
    p.group = group;
    p.change = change;
    DeadLetterGroups groups(m_db);
    DeadLetterStore store(m_db);
    qint64 after = 0;
    while (p.items.size() < MaxPreviewLetters) {
        auto ids = groups.ids(group, after, std::min(500, MaxPreviewLetters - int(p.items.size())));
        if (!ids)
            return ids.error();
        if (ids->isEmpty())
            break;
        for (qint64 id : std::as_const(*ids)) {
            auto letter = store.find(id);
            if (!letter) {
                if (letter.error().kind == ErrorKind::NotFound)
                    continue; // gone meanwhile
                return letter.error();
            }
            if (letter->status != DeadLetterStatus::New)
                continue;
            GroupEditItem item;
            item.id = id;
            item.editCount = letter->editCount;
            item.before = letter->payload;
            if (!letter->payloadIsText) {
                item.skipped = tr("the payload is binary, not JSON");
            } else {
                const JsonChange::Outcome o = change.apply(letter->payload);
                item.changes = o.changed;
                item.differences = o.differences;
                item.after = o.payload;
                if (!o.changed)
                    item.skipped = o.why;
                else if (o.payload.size() > DeadLetterEditor::MaxPayloadBytes) {
                    item.changes = false;
                    item.skipped = tr("the payload would be larger than %1 bytes")
                                       .arg(DeadLetterEditor::MaxPayloadBytes);
                }
            }
            (item.changes ? p.changing : p.skipped) += 1;
            p.items << item;
        }
        after = ids->last();
    }
    if (p.items.size() >= MaxPreviewLetters)
        return Error::usage(tr("the group has more than %1 dead letters: edit it in parts (a narrower group)")
                                .arg(MaxPreviewLetters));
    ActionConfirmation::decide(p);
    return p;
}

Result<GroupEditResult> DeadLetterGroupEditor::apply(const GroupEditRequest& r, const Progress& progress)
{
    if (r.reason.trimmed().isEmpty())
        return Error::usage(tr("a reason is required")).about(QStringLiteral("reason"));
    if (r.reason.size() > DeadLetterEditor::MaxReasonLength)
        return Error::usage(
                   tr("the reason is limited to %1 characters").arg(DeadLetterEditor::MaxReasonLength))
            .about(QStringLiteral("reason"));
    if (r.actor.trimmed().isEmpty())
        return Error::usage(tr("an actor is required (who acts, for the audit log)"));
    if (r.versions.isEmpty())
        return Error::usage(tr("nothing to edit: the preview changes no dead letter of the group"));
    if (r.chunkSize < 1 || r.chunkSize > MaxChunkSize)
        return Error::usage(tr("the chunk size must be between 1 and %1").arg(MaxChunkSize));
    QList<qint64> ids = r.versions.keys();
    std::sort(ids.begin(), ids.end());
    GroupEditResult result;
    DeadLetterStore store(m_db);
    for (int start = 0; start < ids.size(); start += r.chunkSize) {
        const QList<qint64> chunk = ids.mid(start, r.chunkSize);
        Transaction tx(m_db);
        if (Status s = tx.beginWrite(); !s)
            return s.error();
        QJsonArray editedIds;
        QJsonObject differences;
        qint64 conflicts = 0, skipped = 0;
        for (qint64 id : chunk) {
            // Read and lock the row, as a single edit does.
            auto q = m_db.exec(QStringLiteral("SELECT %1 FROM {dead_letters} WHERE id = :id%2")
                                   .arg(DeadLetter::columns(), m_db.dialect().forUpdate()),
                               {{QStringLiteral(":id"), id}});
            if (!q)
                return q.error();
            if (!q->next()) {
                ++conflicts;
                continue;
            }
            const DeadLetter current = DeadLetter::fromQuery(*q, m_db.dialect());
            q->finish();
            if (current.status != DeadLetterStatus::New || current.editCount != r.versions.value(id)) {
                ++conflicts;
                continue;
            }
            const JsonChange::Outcome o =
                current.payloadIsText ? r.change.apply(current.payload) : JsonChange::Outcome{};
            if (!o.changed || o.payload.size() > DeadLetterEditor::MaxPayloadBytes) {
                ++skipped;
                continue;
            }
            auto changed = store.replaceMessage(current, o.payload, std::nullopt, r.actor.trimmed());
            if (!changed)
                return changed.error();
            if (!*changed) {
                ++conflicts;
                continue;
            }
            editedIds.append(id);
            differences.insert(QString::number(id), QJsonArray::fromStringList(o.differences));
            result.editedIds << id;
        }
        AuditEntry entry;
        entry.actor = r.actor.trimmed();
        entry.host = QSysInfo::machineHostName();
        entry.action = QStringLiteral("dlq.edit_group");
        entry.targetKind = QStringLiteral("dead_letter");
        entry.targetIds = editedIds;
        entry.reason = r.reason.trimmed();
        entry.affectedCount = editedIds.size();
        entry.filter = QJsonObject{{QStringLiteral("group"), r.group.toJson()},
                                   {QStringLiteral("change"), r.change.toJson()},
                                   {QStringLiteral("chunk"), result.chunks + 1},
                                   {QStringLiteral("conflicts"), conflicts},
                                   {QStringLiteral("skipped"), skipped}};
        entry.after = QJsonObject{{QStringLiteral("differences"), differences}};
        entry.outcome = editedIds.isEmpty()       ? QStringLiteral("none")
                        : conflicts + skipped > 0 ? QStringLiteral("partial")
                                                  : QStringLiteral("ok");
        auto auditId = AuditLog(m_db).append(entry);
        if (!auditId)
            return auditId.error();
        if (Status s = tx.commit(); !s)
            return s.error();
        result.auditIds << *auditId;
        result.edited += editedIds.size();
        result.conflicts += conflicts;
        result.skipped += skipped;
        result.chunks += 1;
        if (progress && !progress(std::min<qint64>(start + r.chunkSize, ids.size()), ids.size()) &&
            start + r.chunkSize < ids.size()) {
            result.cancelled = true;
            break;
        }
    }
    return result;
}

} // namespace outbox
