#include "core/ops/OperatorActions.h"

#include "core/db/Database.h"
#include "core/db/DeadLetter.h"
#include "core/db/OutboxEvent.h"
#include "core/ops/AuditLog.h"
#include "core/support/Failpoints.h"

#include <QSet>
#include <QSqlQuery>
#include <QSqlRecord>
#include <QSysInfo>
#include <QUuid>

namespace outbox {
namespace {

constexpr int MaxIdsPerRequest = 10000;
constexpr int MaxReasonLength = 2000;

QJsonObject countsToJson(const QMap<QString, qint64>& counts)
{
    QJsonObject o;
    for (auto it = counts.cbegin(); it != counts.cend(); ++it)
        o[it.key()] = it.value();
    return o;
}

} // namespace

QJsonObject ActionResult::toJson() const
{
    QJsonObject o;
    o[QStringLiteral("action")] = action;
    o[QStringLiteral("dry_run")] = dryRun;
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
    o[QStringLiteral("skipped")] = countsToJson(skipped);
    o[QStringLiteral("sample")] = sample;
    o[QStringLiteral("before")] = before;
    o[QStringLiteral("after")] = after;
    if (auditId > 0)
        o[QStringLiteral("audit_id")] = auditId;
    if (!replayToken.isEmpty())
        o[QStringLiteral("replay_token")] = replayToken;
    return o;
}

Status OperatorActions::validate(const ActionRequest& r, bool hasFilter) const
{
    if (r.ids.isEmpty() && !hasFilter)
        return Error::usage(QStringLiteral("name the targets: give ids or a filter"));
    if (!r.ids.isEmpty() && hasFilter)
        return Error::usage(QStringLiteral("give ids or a filter, not both"));
    if (r.ids.size() > MaxIdsPerRequest)
        return Error::usage(
            QStringLiteral("at most %1 ids per request; use a filter for more").arg(MaxIdsPerRequest));
    for (qint64 id : r.ids) {
        if (id <= 0)
            return Error::usage(QStringLiteral("invalid id %1").arg(id));
    }
    if (!r.dryRun && r.reason.trimmed().isEmpty())
        return Error::usage(QStringLiteral("a reason is required (--reason)"));
    if (r.reason.size() > MaxReasonLength)
        return Error::usage(QStringLiteral("the reason is limited to %1 characters").arg(MaxReasonLength));
    if (r.actor.trimmed().isEmpty())
        return Error::usage(QStringLiteral("an actor is required (--actor)"));
    if (r.sampleSize < 0 || r.sampleSize > 1000)
        return Error::usage(QStringLiteral("sample size must be between 0 and 1000"));
    return {};
}

Result<ActionResult> OperatorActions::requeue(const ActionRequest& request)
{
    const Dialect& d = m_db.dialect();
    if (request.eventFilter && request.eventFilter->isEmpty())
        return Error::usage(
            QStringLiteral("the filter selects every event; narrow it (e.g. --status FAILED)"));
    if (Status s = validate(request, request.eventFilter.has_value()); !s)
        return s.error();
    QStringList eligible{QStringLiteral("status IN ('FAILED', 'DEAD')")};
    // A SENDING row with a live lease belongs to a working relay: only --force takes it.
    eligible << (request.force ? QStringLiteral("status = 'SENDING'")
                               : QStringLiteral("(status = 'SENDING' AND lease_until < %1)").arg(d.now()));
    if (request.resend)
        eligible << QStringLiteral("status = 'SENT'");
    Spec spec;
    spec.action = QStringLiteral("events.requeue");
    spec.table = QStringLiteral("{events}");
    spec.targetKind = QStringLiteral("event");
    spec.eligible = QStringLiteral("(") + eligible.join(QStringLiteral(" OR ")) + QStringLiteral(")");
    spec.set =
        QStringLiteral(
            "status = 'PENDING', attempts = 0, available_at = %1, worker_id = NULL, lease_until = NULL, "
            "lease_token = NULL, sent_at = NULL")
            .arg(d.now());
    spec.toState = QStringLiteral("PENDING");
    spec.sampleColumns = OutboxEvent::columns();
    spec.conflictHint =
        request.resend
            ? QStringLiteral("only FAILED, DEAD, SENT or SENDING with an expired lease can be requeued")
            : QStringLiteral("only FAILED, DEAD or SENDING with an expired lease can be requeued "
                             "(--force for a live lease, --resend for SENT)");
    return run(spec, request, request.eventFilter ? request.eventFilter->toCondition(d) : SqlCondition{});
}

Result<ActionResult> OperatorActions::markDead(const ActionRequest& request)
{
    const Dialect& d = m_db.dialect();
    if (request.eventFilter && request.eventFilter->isEmpty())
        return Error::usage(
            QStringLiteral("the filter selects every event; narrow it (e.g. --status FAILED)"));
    if (Status s = validate(request, request.eventFilter.has_value()); !s)
        return s.error();
    Spec spec;
    spec.action = QStringLiteral("events.dead");
    spec.table = QStringLiteral("{events}");
    spec.targetKind = QStringLiteral("event");
    spec.eligible = QStringLiteral("status IN ('PENDING', 'FAILED')");
    spec.set = QStringLiteral("status = 'DEAD', worker_id = NULL, lease_until = NULL, lease_token = NULL");
    spec.toState = QStringLiteral("DEAD");
    spec.sampleColumns = OutboxEvent::columns();
    spec.conflictHint = QStringLiteral("only PENDING or FAILED events can be marked DEAD");
    return run(spec, request, request.eventFilter ? request.eventFilter->toCondition(d) : SqlCondition{});
}

Result<ActionResult> OperatorActions::discardDeadLetters(const ActionRequest& request)
{
    if (request.deadLetterFilter && request.deadLetterFilter->isEmpty())
        return Error::usage(QStringLiteral("the filter selects every dead letter; narrow it"));
    if (Status s = validate(request, request.deadLetterFilter.has_value()); !s)
        return s.error();
    Spec spec;
    spec.action = QStringLiteral("dlq.discard");
    spec.table = QStringLiteral("{dead_letters}");
    spec.targetKind = QStringLiteral("dead_letter");
    spec.eligible = QStringLiteral("status = 'NEW'");
    spec.set = QStringLiteral("status = 'DISCARDED'");
    spec.toState = QStringLiteral("DISCARDED");
    spec.sampleColumns = DeadLetter::columns();
    spec.conflictHint = QStringLiteral("only NEW dead letters can be discarded");
    return run(spec, request,
               request.deadLetterFilter ? request.deadLetterFilter->toCondition(m_db.dialect())
                                        : SqlCondition{});
}

Result<ActionResult> OperatorActions::replayDeadLetters(const ActionRequest& request)
{
    if (request.deadLetterFilter && request.deadLetterFilter->isEmpty())
        return Error::usage(QStringLiteral("the filter selects every dead letter; narrow it"));
    if (Status s = validate(request, request.deadLetterFilter.has_value()); !s)
        return s.error();
    if (request.replayTopic.size() > 249)
        return Error::usage(QStringLiteral("a topic name is limited to 249 characters"));
    const QString token = QUuid::createUuid().toString(QUuid::WithoutBraces);
    Spec spec;
    spec.action = QStringLiteral("dlq.replay");
    spec.table = QStringLiteral("{dead_letters}");
    spec.targetKind = QStringLiteral("dead_letter");
    spec.eligible = request.force ? QStringLiteral("status IN ('NEW', 'REPLAYED', 'DISCARDED')")
                                  : QStringLiteral("status = 'NEW'");
    spec.set =
        QStringLiteral("status = 'REPLAYING', replay_token = :replay_token, replay_topic = :replay_topic, "
                       "replayed_by = :replayed_by, replay_attempts = 0, replay_error = NULL, "
                       "replay_available_at = NULL, replay_lease_token = NULL, replay_lease_until = NULL, "
                       "replay_worker = NULL");
    spec.setBinds = {{QStringLiteral(":replay_token"), token},
                     {QStringLiteral(":replay_topic"), request.replayTopic.isEmpty()
                                                           ? QVariant(QMetaType::fromType<QString>())
                                                           : QVariant(request.replayTopic)},
                     {QStringLiteral(":replayed_by"), request.actor}};
    spec.toState = QStringLiteral("REPLAYING");
    spec.sampleColumns = DeadLetter::columns();
    spec.conflictHint =
        request.force
            ? QStringLiteral("a replay is already in progress")
            : QStringLiteral("only NEW dead letters are replayed (--force for REPLAYED or DISCARDED)");
    auto result = run(spec, request,
                      request.deadLetterFilter ? request.deadLetterFilter->toCondition(m_db.dialect())
                                               : SqlCondition{});
    if (result && !result->dryRun)
        result->replayToken = token;
    return result;
}

Result<ActionResult> OperatorActions::run(const Spec& spec, const ActionRequest& request,
                                          const SqlCondition& filter)
{
    const Dialect& d = m_db.dialect();
    ActionResult result;
    result.action = spec.action;
    result.dryRun = request.dryRun;

    Transaction tx(m_db);
    if (Status s = tx.beginWrite(); !s)
        return s.error();

    SqlCondition target;
    QJsonArray auditIds;
    if (!request.ids.isEmpty()) {
        QVariantList ids;
        for (qint64 id : request.ids)
            ids << id;
        SqlCondition byId;
        byId.addIn(QStringLiteral("id"), QStringLiteral("t"), ids);
        auto rows =
            m_db.exec(QStringLiteral("SELECT id, status, CASE WHEN %1 THEN 1 ELSE 0 END FROM %2 WHERE %3%4")
                          .arg(spec.eligible, spec.table, byId.where(), d.forUpdate()),
                      byId.binds);
        if (!rows)
            return rows.error();
        QSet<qint64> found;
        QVariantList eligibleIds;
        while (rows->next()) {
            const qint64 id = rows->value(0).toLongLong();
            found.insert(id);
            if (rows->value(2).toInt() == 1) {
                eligibleIds << id;
                if (auditIds.size() < AuditLog::MaxTargetIds)
                    auditIds.append(id);
            } else {
                result.conflicts << ActionConflict{
                    id, rows->value(1).toString(),
                    QStringLiteral("is %1; %2").arg(rows->value(1).toString(), spec.conflictHint)};
            }
        }
        QSet<qint64> seen;
        for (qint64 id : request.ids) {
            if (!found.contains(id) && !seen.contains(id))
                result.conflicts << ActionConflict{id, QString(), QStringLiteral("not found")};
            seen.insert(id);
        }
        target.addIn(QStringLiteral("id"), QStringLiteral("t"), eligibleIds);
    } else {
        target = filter;
        target.add(spec.eligible);
        SqlCondition ineligible = filter;
        ineligible.add(QStringLiteral("CASE WHEN %1 THEN 0 ELSE 1 END = 1").arg(spec.eligible));
        auto skipped = m_db.exec(QStringLiteral("SELECT status, COUNT(*) FROM %1 WHERE %2 GROUP BY status")
                                     .arg(spec.table, ineligible.where()),
                                 ineligible.binds);
        if (!skipped)
            return skipped.error();
        while (skipped->next())
            result.skipped.insert(skipped->value(0).toString(), skipped->value(1).toLongLong());
    }

    auto before = m_db.exec(QStringLiteral("SELECT status, COUNT(*) FROM %1 WHERE %2 GROUP BY status")
                                .arg(spec.table, target.where()),
                            target.binds);
    if (!before)
        return before.error();
    while (before->next()) {
        result.before[before->value(0).toString()] = before->value(1).toLongLong();
        result.matched += before->value(1).toLongLong();
    }

    if (request.sampleSize > 0 && result.matched > 0) {
        SqlCondition sampleCondition = target;
        sampleCondition.binds.insert(QStringLiteral(":sample_limit"), request.sampleSize);
        auto sample = m_db.exec(QStringLiteral("SELECT %1 FROM %2 WHERE %3 ORDER BY id LIMIT :sample_limit")
                                    .arg(spec.sampleColumns, spec.table, sampleCondition.where()),
                                sampleCondition.binds);
        if (!sample)
            return sample.error();
        while (sample->next()) {
            result.sample.append(spec.targetKind == QLatin1String("event")
                                     ? OutboxEvent::fromQuery(*sample, d).toJson()
                                     : DeadLetter::fromQuery(*sample, d).toJson());
        }
    }

    if (request.dryRun) {
        tx.rollback();
        return result;
    }

    if (request.ids.isEmpty() && result.matched > 0) {
        SqlCondition capped = target;
        capped.binds.insert(QStringLiteral(":id_cap"), AuditLog::MaxTargetIds);
        auto ids = m_db.exec(QStringLiteral("SELECT id FROM %1 WHERE %2 ORDER BY id LIMIT :id_cap")
                                 .arg(spec.table, capped.where()),
                             capped.binds);
        if (!ids)
            return ids.error();
        while (ids->next())
            auditIds.append(ids->value(0).toLongLong());
    }

    if (result.matched > 0) {
        SqlCondition update = target;
        update.add(spec.eligible); // re-checked under the row locks the UPDATE takes
        update.binds.insert(spec.setBinds);
        auto changed =
            m_db.exec(QStringLiteral("UPDATE %1 SET %2 WHERE %3").arg(spec.table, spec.set, update.where()),
                      update.binds);
        if (!changed)
            return changed.error();
        result.affected = changed->numRowsAffected();
    }
    if (result.affected > 0)
        result.after[spec.toState] = result.affected;

    AuditEntry entry;
    entry.actor = request.actor;
    entry.host = QSysInfo::machineHostName();
    entry.action = spec.action;
    entry.targetKind = spec.targetKind;
    entry.targetIds = auditIds;
    if (request.eventFilter)
        entry.filter = request.eventFilter->toJson();
    else if (request.deadLetterFilter)
        entry.filter = request.deadLetterFilter->toJson();
    if (!request.replayTopic.isEmpty())
        entry.filter[QStringLiteral("replay_topic")] = request.replayTopic;
    entry.reason = request.reason.trimmed();
    entry.affectedCount = result.affected;
    entry.before = result.before;
    entry.after = result.after;
    entry.outcome = result.affected == 0 ? QStringLiteral("none")
                    : (result.conflicts.isEmpty() && result.affected == result.matched)
                        ? QStringLiteral("ok")
                        : QStringLiteral("partial");
    auto auditId = AuditLog(m_db).append(entry);
    if (!auditId)
        return auditId.error();
    if (Status s = Failpoints::hit("ops.before_audit_commit"); !s)
        return s.error();
    if (Status s = tx.commit(); !s)
        return s.error();
    result.auditId = *auditId;
    return result;
}

} // namespace outbox
