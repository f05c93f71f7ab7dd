#include "core/diagnosis/checks/BlockedAggregatesCheck.h"

#include "core/db/Database.h"
#include "core/diagnosis/DiagnosisContext.h"

#include <QJsonArray>
#include <QSet>
#include <QSqlQuery>

namespace outbox {

namespace {

constexpr int MaxBlockingRows = 10000; // FAILED rows examined per run
constexpr int MaxActionIds = 100;      // blocking events a prepared action names
constexpr int OldestPending = 2000;    // the oldest due PENDING events looked at

} // namespace

Result<QVector<Finding>> BlockedAggregatesCheck::run(DiagnosisContext& context)
{
    Database& db = context.db();
    const Dialect& d = db.dialect();
    // A FAILED event blocks its aggregate when a later event of the same aggregate is PENDING and
    // due for longer than `blocked_after` (in ordering mode the relay never claims it). Blocked events
    // cannot move, so they sit at the head of the PENDING queue: the oldest due PENDING events (a short
    // walk of the PENDING index) are matched against the FAILED events (over their partial index, the
    // pages the failed-events check has just read), never the whole table.
    auto rows = db.exec(
        QStringLiteral(
            "SELECT f.id, f.aggregate_type, f.aggregate_id, f.created_at, f.last_error FROM {events} f "
            "JOIN (SELECT p.aggregate_type, p.aggregate_id, MAX(p.id) AS last_id FROM (SELECT "
            "aggregate_type, aggregate_id, id FROM {events} WHERE status = 'PENDING' AND available_at < "
            "%1 ORDER BY id LIMIT %2) p GROUP BY p.aggregate_type, p.aggregate_id) w ON f.aggregate_type = "
            "w.aggregate_type AND f.aggregate_id = w.aggregate_id AND f.id < w.last_id WHERE f.status IN "
            "('FAILED', 'DEAD') AND f.status = 'FAILED' ORDER BY f.id LIMIT :cap")
            .arg(d.nowPlusMillis(QStringLiteral(":after")))
            .arg(OldestPending),
        {{QStringLiteral(":after"), -context.options().blockedAfterMs},
         {QStringLiteral(":cap"), MaxBlockingRows}});
    if (!rows)
        return rows.error();
    struct Blocked
    {
        qint64 eventId;
        QString aggregateType;
        QString aggregateId;
        QDateTime since;
        QString error;
    };
    QVector<Blocked> blocked;
    QSet<QString> seen;
    int examined = 0;
    while (rows->next()) {
        ++examined;
        const QString aggregate = rows->value(1).toString() + QChar(0x1f) + rows->value(2).toString();
        if (seen.contains(aggregate))
            continue; // a later FAILED event of an aggregate already blocked by an earlier one
        seen.insert(aggregate);
        blocked << Blocked{rows->value(0).toLongLong(), rows->value(1).toString(), rows->value(2).toString(),
                           d.toDateTime(rows->value(3)), rows->value(4).toString()};
    }
    if (blocked.isEmpty())
        return QVector<Finding>{};

    Finding f;
    f.id = id();
    f.key = id();
    f.severity = Severity::Critical;
    f.evidence.count = blocked.size();
    f.evidence.unit = QStringLiteral("aggregates");
    f.evidence.sampleKind = QStringLiteral("event");
    QJsonArray details;
    QVector<qint64> actionIds;
    for (const Blocked& b : blocked) {
        if (!f.evidence.oldest.isValid() || b.since < f.evidence.oldest)
            f.evidence.oldest = b.since;
        if (!f.evidence.newest.isValid() || b.since > f.evidence.newest)
            f.evidence.newest = b.since;
        if (actionIds.size() < MaxActionIds)
            actionIds << b.eventId;
        if (f.evidence.sampleIds.size() >= Finding::MaxSamples)
            continue;
        f.evidence.sampleIds << b.eventId;
        auto behind = db.scalar(
            QStringLiteral(
                "SELECT COUNT(*) FROM {events} w WHERE w.aggregate_type = :type AND w.aggregate_id = :agg "
                "AND w.id > :id AND w.status = 'PENDING'"),
            {{QStringLiteral(":type"), b.aggregateType},
             {QStringLiteral(":agg"), b.aggregateId},
             {QStringLiteral(":id"), b.eventId}});
        if (!behind)
            return behind.error();
        details.append(QJsonObject{{QStringLiteral("aggregate_type"), b.aggregateType},
                                   {QStringLiteral("aggregate_id"), b.aggregateId},
                                   {QStringLiteral("blocking_event_id"), b.eventId},
                                   {QStringLiteral("since"), b.since.toUTC().toString(Qt::ISODateWithMs)},
                                   {QStringLiteral("waiting"), behind->toLongLong()},
                                   {QStringLiteral("error"), b.error}});
    }
    f.evidence.details.insert(QStringLiteral("aggregates"), details);
    f.evidence.details.insert(QStringLiteral("blocked_after_ms"), context.options().blockedAfterMs);
    f.evidence.details.insert(QStringLiteral("pending_examined"), OldestPending);
    if (examined >= MaxBlockingRows)
        f.evidence.details.insert(QStringLiteral("at_least"), true);
    const QJsonObject first = details.first().toObject();
    f.title = blocked.size() == 1 ? tr("Aggregate %1/%2 is blocked by FAILED event #%3")
                                        .arg(first.value(QStringLiteral("aggregate_type")).toString(),
                                             first.value(QStringLiteral("aggregate_id")).toString())
                                        .arg(blocked.first().eventId)
                                  : tr("%1 aggregates are blocked by FAILED events").arg(blocked.size());
    f.causes
        << tr("The relays run in ordering mode (--ordering aggregate): an event is sent only after every "
              "earlier event of its aggregate, so a FAILED event holds back all later ones.")
        << tr("The FAILED event itself failed for a reason failed-events explains (a poison payload, a "
              "topic ACL, attempts exhausted).");
    f.runbook
        << tr("Open the blocking event (samples) and read its error; failed-events has the cause-specific "
              "runbook for its group.")
        << tr("Fix the cause, then requeue the blocking events (prepared below): they are sent first, and "
              "the waiting events of their aggregates follow in order.")
        << tr("If a blocking event must never be sent, mark it DEAD (prepared below): the waiting events of "
              "its aggregate are then sent after it, without it. Make sure the consumers can live with the "
              "gap in that aggregate's history.");
    for (auto op : {PreparedAction::Operation::RequeueEvents, PreparedAction::Operation::MarkEventsDead}) {
        const bool requeue = op == PreparedAction::Operation::RequeueEvents;
        PreparedAction a;
        a.operation = op;
        a.ids = actionIds;
        a.typedConfirmation = true;
        a.label = requeue ? tr("Requeue the %1 blocking event(s)").arg(actionIds.size())
                          : tr("Mark the %1 blocking event(s) DEAD").arg(actionIds.size());
        a.consequence =
            requeue ? tr("The blocking events go back to PENDING and are sent first; the events "
                         "waiting behind them follow in order.")
                    : tr("The blocking events become DEAD and are never sent; the events waiting behind "
                         "them are sent without them.");
        QStringList args{requeue ? QStringLiteral("requeue") : QStringLiteral("dead")};
        for (qint64 eventId : actionIds)
            args << QString::number(eventId);
        a.command = context.command(args);
        f.actions << a;
    }
    return QVector<Finding>{f};
}

} // namespace outbox
