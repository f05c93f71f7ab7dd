#include "core/ops/BulkActionEngine.h"

#include "core/db/Database.h"
#include "core/db/DeadLetter.h"
#include "core/db/DeadLetterGroups.h"
#include "core/db/EventStatus.h"
#include "core/db/OutboxEvent.h"
#include "core/ops/ActionConfirmation.h"
#include "core/ops/AuditLog.h"
#include "core/support/Failpoints.h"
#include "core/support/JsonPage.h"

#include <QSet>
#include <QSqlQuery>
#include <QSysInfo>
#include <QUuid>
#include <algorithm>

namespace outbox {
namespace {

constexpr int MaxSampleSize = 1000;
constexpr int MaxTopicLength = 249;
constexpr int MaxFingerprintLength = 500;

// What one action does, as fixed SQL fragments; user text only ever travels in binds.
struct Spec
{
    ActionKind kind = ActionKind::Requeue;
    QString action;
    QString table;
    QString targetKind;
    QString eligible; // SQL condition on the row's current state
    QString set;      // SQL SET clause
    QVariantMap setBinds;
    QString toState;
    QString sampleColumns;
    QString conflictHint; // what states the action accepts, for conflict messages
    QString replayToken;
    SqlCondition filter; // the filter target as a condition (empty for ids and groups)
};

Spec specFor(const Dialect& d, ActionKind kind, const ActionRequest& request)
{
    Spec spec;
    spec.kind = kind;
    spec.action = actionName(kind);
    switch (kind) {
    case ActionKind::Requeue: {
        QStringList eligible{QStringLiteral("status IN ('FAILED', 'DEAD')")};
        // A SENDING row with a live lease belongs to a working relay: only `force` takes it.
        eligible << (request.force
                         ? QStringLiteral("status = 'SENDING'")
                         : QStringLiteral("(status = 'SENDING' AND lease_until < %1)").arg(d.now()));
        if (request.resend)
            eligible << QStringLiteral("status = 'SENT'");
        spec.eligible = QStringLiteral("(") + eligible.join(QStringLiteral(" OR ")) + QStringLiteral(")");
        spec.set = QStringLiteral("status = 'PENDING', attempts = 0, available_at = %1, worker_id = NULL, "
                                  "lease_until = NULL, lease_token = NULL, sent_at = NULL")
                       .arg(d.now());
        spec.toState = QStringLiteral("PENDING");
        spec.conflictHint =
            request.resend
                ? QStringLiteral("only FAILED, DEAD, SENT or SENDING with an expired lease can be requeued")
                : QStringLiteral("only FAILED, DEAD or SENDING with an expired lease can be requeued "
                                 "(forcing takes a live lease, resending takes SENT)");
        if (request.force)
            spec.conflictHint = QStringLiteral("only FAILED, DEAD, SENDING%1 can be requeued")
                                    .arg(request.resend ? QStringLiteral(" or SENT") : QString());
        break;
    }
    case ActionKind::MarkDead:
        spec.eligible = QStringLiteral("status IN ('PENDING', 'FAILED')");
        spec.set =
            QStringLiteral("status = 'DEAD', worker_id = NULL, lease_until = NULL, lease_token = NULL");
        spec.toState = QStringLiteral("DEAD");
        spec.conflictHint = QStringLiteral("only PENDING or FAILED events can be marked DEAD");
        break;
    case ActionKind::DiscardDeadLetters:
        spec.eligible = QStringLiteral("status = 'NEW'");
        spec.set = QStringLiteral("status = 'DISCARDED'");
        spec.toState = QStringLiteral("DISCARDED");
        spec.conflictHint = QStringLiteral("only NEW dead letters can be discarded");
        break;
    case ActionKind::ReplayDeadLetters:
        spec.replayToken = QUuid::createUuid().toString(QUuid::WithoutBraces);
        spec.eligible = request.force ? QStringLiteral("status IN ('NEW', 'REPLAYED', 'DISCARDED')")
                                      : QStringLiteral("status = 'NEW'");
        // A new replay starts over: attempts, error, backoff and any lease of an earlier one cleared.
        spec.set =
            QStringLiteral("status = 'REPLAYING', replay_token = :replay_token, "
                           "replay_topic = :replay_topic, replayed_by = :replayed_by, "
                           "replay_attempts = 0, replay_error = NULL, replay_available_at = NULL, "
                           "replay_lease_token = NULL, replay_lease_until = NULL, replay_worker = NULL");
        spec.setBinds = {{QStringLiteral(":replay_token"), spec.replayToken},
                         {QStringLiteral(":replay_topic"), request.replayTopic.isEmpty()
                                                               ? QVariant(QMetaType::fromType<QString>())
                                                               : QVariant(request.replayTopic)},
                         {QStringLiteral(":replayed_by"), request.actor}};
        spec.toState = QStringLiteral("REPLAYING");
        spec.conflictHint =
            request.force ? QStringLiteral("a replay is already in progress")
                          : QStringLiteral("only NEW dead letters are replayed (unless forced, which also "
                                           "takes REPLAYED or DISCARDED)");
        break;
    }
    if (isEventAction(kind)) {
        spec.table = QStringLiteral("{events}");
        spec.targetKind = QStringLiteral("event");
        spec.sampleColumns = OutboxEvent::columns();
        if (request.eventFilter)
            spec.filter = request.eventFilter->toCondition(d);
    } else {
        spec.table = QStringLiteral("{dead_letters}");
        spec.targetKind = QStringLiteral("dead_letter");
        spec.sampleColumns = DeadLetter::columns();
        if (request.deadLetterFilter)
            spec.filter = request.deadLetterFilter->toCondition(d);
    }
    return spec;
}

bool hasGroup(const ActionRequest& r)
{
    return r.group.has_value() || r.deadLetterGroup.has_value();
}

// A page of the target group's members (event or dead-letter failure group), ascending ids.
Result<QVector<qint64>> groupMembers(Database& db, const ActionRequest& r, qint64 afterId, int limit)
{
    if (r.deadLetterGroup)
        return DeadLetterGroups(db).ids(*r.deadLetterGroup, afterId, limit);
    return FailureGroups(db).ids(*r.group, afterId, limit);
}

bool hasFilter(ActionKind kind, const ActionRequest& r)
{
    return isEventAction(kind) ? r.eventFilter.has_value() : r.deadLetterFilter.has_value();
}

void addCount(QMap<QString, qint64>& counts, const QString& key, qint64 n)
{
    counts[key] += n;
}

QJsonObject countsToJson(const QMap<QString, qint64>& counts)
{
    QJsonObject o;
    for (auto it = counts.cbegin(); it != counts.cend(); ++it)
        o[it.key()] = it.value();
    return o;
}

void mergeCounts(QJsonObject& into, const QMap<QString, qint64>& counts)
{
    for (auto it = counts.cbegin(); it != counts.cend(); ++it)
        into[it.key()] = into.value(it.key()).toInteger() + it.value();
}

void addConflict(ActionResult& result, const ActionConflict& conflict)
{
    ++result.conflictCount;
    if (result.conflicts.size() < ActionResult::MaxConflictDetails)
        result.conflicts << conflict;
}

QVector<qint64> sortedUnique(QVector<qint64> ids)
{
    std::sort(ids.begin(), ids.end());
    ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
    return ids;
}

// Reads (optionally locks) `ids` and sorts them into eligible ones and the rest. The rest are
// conflicts, or — when `ineligibleByStatus` is given (group previews) — counted there by status.
// Missing ids are conflicts ("not found") unless `ineligibleByStatus` is given.
Status classify(Database& db, const Spec& spec, const QVector<qint64>& ids, bool lock,
                QVector<qint64>* eligible, QMap<QString, qint64>* eligibleByStatus, ActionResult& result,
                QMap<QString, qint64>* ineligibleByStatus)
{
    if (ids.isEmpty())
        return {};
    QVariantList values;
    for (qint64 id : ids)
        values << id;
    SqlCondition byId;
    byId.addIn(QStringLiteral("id"), QStringLiteral("t"), values);
    auto rows = db.exec(
        QStringLiteral("SELECT id, status, CASE WHEN %1 THEN 1 ELSE 0 END FROM %2 WHERE %3%4")
            .arg(spec.eligible, spec.table, byId.where(), lock ? db.dialect().forUpdate() : QString()),
        byId.binds);
    if (!rows)
        return rows.error();
    QSet<qint64> found;
    while (rows->next()) {
        const qint64 id = rows->value(0).toLongLong();
        const QString status = rows->value(1).toString();
        found.insert(id);
        if (rows->value(2).toInt() == 1) {
            *eligible << id;
            addCount(*eligibleByStatus, status, 1);
        } else if (ineligibleByStatus) {
            addCount(*ineligibleByStatus, status, 1);
        } else {
            addConflict(result, ActionConflict{id, status,
                                               QStringLiteral("is %1; %2").arg(status, spec.conflictHint)});
        }
    }
    std::sort(eligible->begin(), eligible->end());
    if (!ineligibleByStatus) {
        for (qint64 id : ids)
            if (!found.contains(id))
                addConflict(result, ActionConflict{id, QString(), QStringLiteral("not found")});
    }
    return {};
}

Status appendSample(Database& db, const Spec& spec, const QVector<qint64>& ids, int sampleSize,
                    ActionResult& result)
{
    const int wanted = sampleSize - int(result.sample.size());
    if (wanted <= 0 || ids.isEmpty())
        return {};
    QVariantList values;
    for (qint64 id : ids.mid(0, wanted))
        values << id;
    SqlCondition byId;
    byId.addIn(QStringLiteral("id"), QStringLiteral("t"), values);
    auto rows = db.exec(QStringLiteral("SELECT %1 FROM %2 WHERE %3 ORDER BY id")
                            .arg(spec.sampleColumns, spec.table, byId.where()),
                        byId.binds);
    if (!rows)
        return rows.error();
    while (rows->next())
        result.sample.append(isEventAction(spec.kind) ? OutboxEvent::fromQuery(*rows, db.dialect()).toJson()
                                                      : DeadLetter::fromQuery(*rows, db.dialect()).toJson());
    return {};
}

// Where a run stands in its target.
struct Cursor
{
    QVector<qint64> ids; // ids target, sorted and unique
    int position = 0;    // ids target: next index
    qint64 afterId = 0;  // group and filter targets: keyset cursor
    bool exhausted = false;
};

// The next chunk of at most request.chunkSize rows. For ids, the next slice (eligibility is checked
// under the chunk's lock); for groups and filters, rows eligible now after the cursor.
Result<QVector<qint64>> selectChunk(Database& db, const Spec& spec, const ActionRequest& request,
                                    Cursor& cursor)
{
    const int size = request.chunkSize;
    QVector<qint64> chunk;
    if (!request.ids.isEmpty()) {
        chunk = cursor.ids.mid(cursor.position, size);
        cursor.position += int(chunk.size());
        cursor.exhausted = cursor.position >= cursor.ids.size();
        return chunk;
    }
    if (hasGroup(request)) {
        // The group's members come from FailureGroups or DeadLetterGroups (error class +
        // fingerprint); of those, the ones the action accepts now make the chunk.
        while (chunk.size() < size && !cursor.exhausted) {
            const int page = size - int(chunk.size());
            auto members = groupMembers(db, request, cursor.afterId, page);
            if (!members)
                return members.error();
            if (members->size() < page)
                cursor.exhausted = true;
            if (members->isEmpty())
                break;
            cursor.afterId = members->last();
            QVector<qint64> eligible;
            QMap<QString, qint64> byStatus;
            QMap<QString, qint64> ignored;
            ActionResult unused;
            if (Status s = classify(db, spec, *members, false, &eligible, &byStatus, unused, &ignored); !s)
                return s.error();
            chunk << eligible;
        }
        return chunk;
    }
    SqlCondition c = spec.filter;
    c.add(spec.eligible);
    c.add(QStringLiteral("id > :bulk_after"), QStringLiteral(":bulk_after"), cursor.afterId);
    c.binds.insert(QStringLiteral(":bulk_limit"), size);
    auto rows = db.exec(
        QStringLiteral("SELECT id FROM %1 WHERE %2 ORDER BY id LIMIT :bulk_limit").arg(spec.table, c.where()),
        c.binds);
    if (!rows)
        return rows.error();
    while (rows->next())
        chunk << rows->value(0).toLongLong();
    if (chunk.size() < size)
        cursor.exhausted = true;
    if (!chunk.isEmpty())
        cursor.afterId = chunk.last();
    return chunk;
}

AuditEntry auditEntryFor(const Spec& spec, const ActionRequest& request, const QJsonObject& filter)
{
    AuditEntry entry;
    entry.actor = request.actor;
    entry.host = QSysInfo::machineHostName();
    entry.action = spec.action;
    entry.targetKind = spec.targetKind;
    entry.filter = filter;
    entry.reason = request.reason.trimmed();
    return entry;
}

// One chunk: lock, re-check, update the eligible rows and append the audit row, in one transaction.
// `result` is only updated once the transaction has committed.
Status runChunk(Database& db, const Spec& spec, const ActionRequest& request, const QVector<qint64>& ids,
                const QJsonObject& auditFilter, ActionResult& result)
{
    Transaction tx(db);
    if (Status s = tx.beginWrite(); !s)
        return s;
    ActionResult chunk;
    QVector<qint64> eligible;
    QMap<QString, qint64> before;
    if (Status s = classify(db, spec, ids, true, &eligible, &before, chunk, nullptr); !s)
        return s;
    qint64 affected = 0;
    if (!eligible.isEmpty()) {
        QVariantList values;
        for (qint64 id : eligible)
            values << id;
        SqlCondition update;
        update.addIn(QStringLiteral("id"), QStringLiteral("t"), values);
        update.add(spec.eligible); // re-checked under the row locks the UPDATE takes
        update.binds.insert(spec.setBinds);
        auto changed =
            db.exec(QStringLiteral("UPDATE %1 SET %2 WHERE %3").arg(spec.table, spec.set, update.where()),
                    update.binds);
        if (!changed)
            return changed.error();
        affected = changed->numRowsAffected();
    }

    AuditEntry entry = auditEntryFor(spec, request, auditFilter);
    for (qint64 id : eligible)
        entry.targetIds.append(id);
    entry.affectedCount = affected;
    entry.before = countsToJson(before);
    if (affected > 0)
        entry.after[spec.toState] = affected;
    entry.outcome = affected == 0 ? QStringLiteral("none")
                    : (chunk.conflictCount == 0 && affected == qint64(eligible.size()))
                        ? QStringLiteral("ok")
                        : QStringLiteral("partial");
    auto auditId = AuditLog(db).appendAndCommit(entry, tx);
    if (!auditId)
        return auditId.error();

    result.matched += eligible.size();
    result.affected += affected;
    for (const ActionConflict& c : chunk.conflicts)
        addConflict(result, c);
    result.conflictCount += chunk.conflictCount - chunk.conflicts.size(); // details beyond the cap
    mergeCounts(result.before, before);
    if (affected > 0)
        result.after[spec.toState] = result.after.value(spec.toState).toInteger() + affected;
    result.auditIds << *auditId;
    if (result.auditId == 0)
        result.auditId = *auditId;
    ++result.chunks;
    if (!ids.isEmpty())
        result.lastId = std::max(result.lastId, ids.last());
    return {};
}

} // namespace

QString actionName(ActionKind kind)
{
    switch (kind) {
    case ActionKind::Requeue:
        return QStringLiteral("events.requeue");
    case ActionKind::MarkDead:
        return QStringLiteral("events.dead");
    case ActionKind::ReplayDeadLetters:
        return QStringLiteral("dlq.replay");
    case ActionKind::DiscardDeadLetters:
        return QStringLiteral("dlq.discard");
    }
    return {};
}

bool isEventAction(ActionKind kind)
{
    return kind == ActionKind::Requeue || kind == ActionKind::MarkDead;
}

QJsonObject ActionResult::toJson() const
{
    QJsonObject o;
    o[QStringLiteral("action")] = action;
    o[QStringLiteral("dry_run")] = dryRun;
    o[QStringLiteral("expected")] = expected;
    o[QStringLiteral("matched")] = matched;
    o[QStringLiteral("affected")] = affected;
    QJsonArray c;
    for (const ActionConflict& conflict : conflicts) {
        c.append(QJsonObject{{QStringLiteral("id"), conflict.id},
                             {QStringLiteral("status"),
                              conflict.status.isEmpty() ? QJsonValue() : QJsonValue(conflict.status)},
                             {QStringLiteral("reason"), conflict.reason}});
    }
    o[QStringLiteral("conflicts")] = c;
    o[QStringLiteral("conflict_count")] = conflictCount;
    o[QStringLiteral("skipped")] = countsToJson(skipped);
    o[QStringLiteral("sample")] = sample;
    o[QStringLiteral("before")] = before;
    o[QStringLiteral("after")] = after;
    if (!dryRun) {
        o[QStringLiteral("chunks")] = chunks;
        QJsonArray audits;
        for (qint64 id : auditIds)
            audits.append(id);
        o[QStringLiteral("audit_ids")] = audits;
        o[QStringLiteral("cancelled")] = cancelled;
        if (lastId > 0)
            o[QStringLiteral("last_id")] = lastId;
    }
    if (auditId > 0)
        o[QStringLiteral("audit_id")] = auditId;
    if (!replayToken.isEmpty())
        o[QStringLiteral("replay_token")] = replayToken;
    if (dryRun) {
        o[QStringLiteral("verb")] = verb;
        o[QStringLiteral("confirmation")] = confirmation;
        o[QStringLiteral("job")] = runsAsJob;
    }
    if (dryRun && action.startsWith(QLatin1String("events."))) {
        o[QStringLiteral("ordering")] = rowsJson(ordering);
        o[QStringLiteral("consequences")] = QJsonArray::fromStringList(consequences);
    }
    return o;
}

Status BulkActionEngine::validate(ActionKind kind, const ActionRequest& r, ActionInput* input)
{
    auto fail = [input](ActionInput what, QString message) -> Status {
        if (input)
            *input = what;
        return Error::usage(std::move(message));
    };
    const bool events = isEventAction(kind);
    if (events && r.deadLetterFilter)
        return fail(ActionInput::Filter, QStringLiteral("a dead-letter filter does not select events"));
    if (!events && (r.eventFilter || r.group))
        return fail(
            ActionInput::Filter,
            QStringLiteral("dead-letter actions take ids, a dead-letter group or a dead-letter filter"));
    if (events && r.deadLetterGroup)
        return fail(ActionInput::Group, QStringLiteral("a dead-letter group does not select events"));
    const int targets = int(!r.ids.isEmpty()) + int(hasGroup(r)) + int(hasFilter(kind, r));
    if (targets == 0)
        return fail(ActionInput::Targets,
                    QStringLiteral("name the targets: ids, a failure group or a filter"));
    if (targets > 1)
        return fail(ActionInput::Targets,
                    QStringLiteral("name one kind of target: ids, a failure group or a filter, not several"));
    if (r.ids.size() > MaxIds)
        return fail(ActionInput::Ids,
                    QStringLiteral("at most %1 ids per request; use a filter for more").arg(MaxIds));
    for (qint64 id : r.ids) {
        if (id <= 0)
            return fail(ActionInput::Ids, QStringLiteral("invalid id %1").arg(id));
    }
    if (r.eventFilter && r.eventFilter->isEmpty())
        return fail(ActionInput::Filter, QStringLiteral("the filter selects every event; narrow it"));
    if (r.deadLetterFilter && r.deadLetterFilter->isEmpty())
        return fail(ActionInput::Filter, QStringLiteral("the filter selects every dead letter; narrow it"));
    if (r.group) {
        if (r.group->errorClass.isEmpty() && r.group->fingerprint.isEmpty())
            return fail(ActionInput::Group,
                        QStringLiteral("a failure group is named by its error class and fingerprint"));
        if (r.group->fingerprint.size() > MaxFingerprintLength ||
            r.group->errorClass.size() > MaxFingerprintLength)
            return fail(ActionInput::Group,
                        QStringLiteral("a failure group's fingerprint is limited to %1 characters")
                            .arg(MaxFingerprintLength));
    }
    if (r.deadLetterGroup) {
        const DeadLetterGroup& g = *r.deadLetterGroup;
        if (g.consumerName.isEmpty() || g.errorClass.isEmpty())
            return fail(ActionInput::Group,
                        QStringLiteral("a dead-letter group is named by its consumer, error "
                                       "class and fingerprint"));
        if (g.fingerprint.size() > MaxFingerprintLength || g.errorClass.size() > MaxFingerprintLength ||
            g.consumerName.size() > MaxFingerprintLength)
            return fail(ActionInput::Group,
                        QStringLiteral("a failure group's fingerprint is limited to %1 characters")
                            .arg(MaxFingerprintLength));
        for (const QString& status : g.statuses)
            if (!DeadLetterStatus::parse(status))
                return fail(ActionInput::Group,
                            QStringLiteral("unknown dead-letter status \"%1\"").arg(status));
    }
    if (!r.dryRun && r.reason.trimmed().isEmpty())
        return fail(ActionInput::Reason, QStringLiteral("a reason is required"));
    if (r.reason.size() > MaxReasonLength)
        return fail(ActionInput::Reason,
                    QStringLiteral("the reason is limited to %1 characters").arg(MaxReasonLength));
    if (r.actor.trimmed().isEmpty())
        return fail(ActionInput::Actor, QStringLiteral("an actor is required (who acts, for the audit log)"));
    if (r.sampleSize < 0 || r.sampleSize > MaxSampleSize)
        return fail(ActionInput::SampleSize,
                    QStringLiteral("the sample size must be between 0 and %1").arg(MaxSampleSize));
    if (r.chunkSize < 1 || r.chunkSize > MaxChunkSize)
        return fail(ActionInput::ChunkSize,
                    QStringLiteral("the chunk size must be between 1 and %1").arg(MaxChunkSize));
    if (kind == ActionKind::ReplayDeadLetters && r.replayTopic.size() > MaxTopicLength)
        return fail(ActionInput::ReplayTopic,
                    QStringLiteral("a topic name is limited to %1 characters").arg(MaxTopicLength));
    return {};
}

Result<ActionResult> BulkActionEngine::preview(ActionKind kind, const ActionRequest& request)
{
    ActionRequest r = request;
    r.dryRun = true;
    if (Status s = validate(kind, r); !s)
        return s.error();
    const Spec spec = specFor(m_db.dialect(), kind, r);
    ActionResult result;
    result.action = spec.action;
    result.dryRun = true;
    QMap<QString, qint64> before;
    QVector<qint64> orderingIds; // event actions: eligible targets whose aggregates are looked at

    // Ids named or a group's members, one chunk at a time: what of it would change, and a sample.
    // `skipped`: where the ids that would not change are counted (a group's), or null (ids named).
    const auto previewChunk = [&](const QVector<qint64>& chunk, QMap<QString, qint64>* skipped) -> Status {
        QVector<qint64> eligible;
        if (Status s = classify(m_db, spec, chunk, false, &eligible, &before, result, skipped); !s)
            return s;
        result.matched += eligible.size();
        orderingIds << eligible.mid(0, ActionResult::MaxOrderingIds - int(orderingIds.size()));
        return appendSample(m_db, spec, eligible, r.sampleSize, result);
    };
    if (!r.ids.isEmpty()) {
        const QVector<qint64> ids = sortedUnique(r.ids);
        for (int i = 0; i < ids.size(); i += MaxChunkSize)
            if (Status s = previewChunk(ids.mid(i, MaxChunkSize), nullptr); !s)
                return s.error();
    } else if (hasGroup(r)) {
        // Walk the group's members in keyset pages; memory stays at one page.
        constexpr int Page = 10000;
        qint64 afterId = 0;
        while (true) {
            auto members = groupMembers(m_db, r, afterId, Page);
            if (!members)
                return members.error();
            for (int i = 0; i < members->size(); i += MaxChunkSize)
                if (Status s = previewChunk(members->mid(i, MaxChunkSize), &result.skipped); !s)
                    return s.error();
            if (members->size() < Page)
                break;
            afterId = members->last();
        }
    } else {
        // One read transaction: the counts and the sample describe the same moment.
        Transaction tx(m_db);
        if (Status s = tx.beginRead(); !s)
            return s.error();
        SqlCondition target = spec.filter;
        target.add(spec.eligible);
        SqlCondition ineligible = spec.filter;
        ineligible.add(QStringLiteral("CASE WHEN %1 THEN 0 ELSE 1 END = 1").arg(spec.eligible));
        auto skipped = m_db.exec(QStringLiteral("SELECT status, COUNT(*) FROM %1 WHERE %2 GROUP BY status")
                                     .arg(spec.table, ineligible.where()),
                                 ineligible.binds);
        if (!skipped)
            return skipped.error();
        while (skipped->next())
            result.skipped.insert(skipped->value(0).toString(), skipped->value(1).toLongLong());
        auto counts = m_db.exec(QStringLiteral("SELECT status, COUNT(*) FROM %1 WHERE %2 GROUP BY status")
                                    .arg(spec.table, target.where()),
                                target.binds);
        if (!counts)
            return counts.error();
        while (counts->next()) {
            addCount(before, counts->value(0).toString(), counts->value(1).toLongLong());
            result.matched += counts->value(1).toLongLong();
        }
        if (r.sampleSize > 0 && result.matched > 0) {
            SqlCondition sampled = target;
            sampled.binds.insert(QStringLiteral(":sample_limit"), r.sampleSize);
            auto sample =
                m_db.exec(QStringLiteral("SELECT %1 FROM %2 WHERE %3 ORDER BY id LIMIT :sample_limit")
                              .arg(spec.sampleColumns, spec.table, sampled.where()),
                          sampled.binds);
            if (!sample)
                return sample.error();
            while (sample->next())
                result.sample.append(isEventAction(kind)
                                         ? OutboxEvent::fromQuery(*sample, m_db.dialect()).toJson()
                                         : DeadLetter::fromQuery(*sample, m_db.dialect()).toJson());
        }
        if (isEventAction(kind) && result.matched > 0) {
            SqlCondition first = target;
            first.binds.insert(QStringLiteral(":ordering_limit"), ActionResult::MaxOrderingIds);
            auto ids =
                m_db.exec(QStringLiteral("SELECT id FROM %1 WHERE %2 ORDER BY id LIMIT :ordering_limit")
                              .arg(spec.table, first.where()),
                          first.binds);
            if (!ids)
                return ids.error();
            while (ids->next())
                orderingIds << ids->value(0).toLongLong();
        }
        tx.rollback();
    }
    if (isEventAction(kind) && !orderingIds.isEmpty()) {
        // What unblocking means in ordering mode: the later events of each aggregate follow.
        auto ordering = BlockedAggregates(m_db).consequences(orderingIds);
        if (!ordering)
            return ordering.error();
        result.ordering = *ordering;
        result.consequences = BlockedAggregates::describe(*ordering, kind == ActionKind::MarkDead);
    }
    result.before = countsToJson(before);
    result.expected = result.matched;
    // Ids take more than one chunk when there are more of them than a chunk holds (the run walks
    // them all); a group or a filter when its eligible rows do.
    const qint64 rows = r.ids.isEmpty() ? result.matched : qint64(sortedUnique(r.ids).size());
    result.runsAsJob = rows > r.chunkSize;
    ActionConfirmation::decide(result, r, r.confirmAlways);
    return result;
}

Result<ActionResult> BulkActionEngine::previewForRun(ActionKind kind, const ActionRequest& request)
{
    ActionRequest counting = request;
    counting.sampleSize = 0;
    return preview(kind, counting);
}

Result<ActionResult> BulkActionEngine::run(ActionKind kind, const ActionRequest& request,
                                           const ActionResult& previewed, const BulkControl& control)
{
    ActionRequest r = request;
    r.dryRun = false;
    if (Status s = validate(kind, r); !s)
        return s.error();

    // What is eligible — the progress total and the skipped rows of a group or filter — is what
    // the operator's preview of this action said; nothing is counted again.
    const Spec spec = specFor(m_db.dialect(), kind, r);
    if (!previewed.dryRun || previewed.action != spec.action)
        return Error::usage(
            QStringLiteral("%1 runs after its own preview, not after %2")
                .arg(spec.action, previewed.dryRun ? previewed.action : QStringLiteral("a run")));
    ActionResult result;
    result.action = spec.action;
    result.expected = previewed.matched;
    if (r.ids.isEmpty())
        result.skipped = previewed.skipped;

    Cursor cursor;
    cursor.ids = sortedUnique(r.ids);
    const bool chunked = r.ids.isEmpty() || cursor.ids.size() > r.chunkSize;
    QJsonObject auditFilter;
    if (r.eventFilter)
        auditFilter = r.eventFilter->toJson();
    else if (r.deadLetterFilter)
        auditFilter = r.deadLetterFilter->toJson();
    else if (r.group)
        auditFilter[QStringLiteral("group")] =
            QJsonObject{{QStringLiteral("error_class"), r.group->errorClass},
                        {QStringLiteral("fingerprint"), r.group->fingerprint}};
    else if (r.deadLetterGroup)
        auditFilter[QStringLiteral("group")] =
            QJsonObject{{QStringLiteral("consumer"), r.deadLetterGroup->consumerName},
                        {QStringLiteral("error_class"), r.deadLetterGroup->errorClass},
                        {QStringLiteral("fingerprint"), r.deadLetterGroup->fingerprint}};
    if (!r.replayTopic.isEmpty() && kind == ActionKind::ReplayDeadLetters)
        auditFilter[QStringLiteral("replay_topic")] = r.replayTopic;
    if (chunked)
        auditFilter[QStringLiteral("run")] = QUuid::createUuid().toString(QUuid::WithoutBraces);

    auto report = [&]() {
        if (!control.progress)
            return;
        BulkProgress p;
        p.action = result.action;
        p.expected = result.expected;
        p.processed = result.processed();
        p.affected = result.affected;
        p.conflicts = result.conflictCount;
        p.chunks = result.chunks;
        p.lastId = result.lastId;
        control.progress(p);
    };

    while (!cursor.exhausted) {
        if (control.cancelRequested && control.cancelRequested()) {
            result.cancelled = true;
            break;
        }
        auto chunk = selectChunk(m_db, spec, r, cursor);
        if (!chunk)
            return chunk.error();
        if (chunk->isEmpty())
            break;
        if (Status s = Failpoints::hit("ops.bulk.before_chunk_lock"); !s)
            return s.error();
        QJsonObject filter = auditFilter;
        if (chunked)
            filter[QStringLiteral("chunk")] = result.chunks + 1;
        if (Status s = runChunk(m_db, spec, r, *chunk, filter, result); !s)
            return s.error();
        report();
        if (cursor.exhausted)
            break;
        if (Status s = Failpoints::hit("ops.bulk.between_chunks"); !s)
            return s.error();
    }

    if (result.chunks == 0 && !result.cancelled) {
        // Nothing was eligible: the attempt is still on record.
        Transaction tx(m_db);
        if (Status s = tx.beginWrite(); !s)
            return s.error();
        AuditEntry entry = auditEntryFor(spec, r, auditFilter);
        entry.outcome = QStringLiteral("none");
        auto auditId = AuditLog(m_db).append(entry);
        if (!auditId)
            return auditId.error();
        if (Status s = tx.commit(); !s)
            return s.error();
        result.auditId = *auditId;
        result.auditIds << *auditId;
    }
    if (kind == ActionKind::ReplayDeadLetters)
        result.replayToken = spec.replayToken;
    return result;
}

} // namespace outbox
