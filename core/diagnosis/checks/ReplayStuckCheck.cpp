#include "core/diagnosis/checks/ReplayStuckCheck.h"

#include "core/db/Database.h"
#include "core/diagnosis/DiagnosisContext.h"
#include "core/diagnosis/Runbook.h"

#include <QHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QSet>
#include <QSqlQuery>

namespace outbox {

namespace {

constexpr int MaxReplaying = 10000;
constexpr int MaxOlderRequests = 500;

QJsonArray idsOf(const QVariant& targetIds)
{
    return QJsonDocument::fromJson(targetIds.toString().toUtf8()).array();
}

} // namespace

Result<QVector<Finding>> ReplayStuckCheck::run(DiagnosisContext& context)
{
    const Runbook& rb = Runbook::of(id());
    Database& db = context.db();
    const Dialect& d = db.dialect();
    auto replaying =
        db.exec(QStringLiteral("SELECT id, consumer_name, replay_topic, topic FROM {dead_letters} WHERE "
                               "status = 'REPLAYING' ORDER BY id LIMIT :cap"),
                {{QStringLiteral(":cap"), MaxReplaying}});
    if (!replaying)
        return replaying.error();
    struct Row
    {
        qint64 id;
        QString consumer;
        QString topic;
    };
    QVector<Row> rows;
    while (replaying->next())
        rows << Row{replaying->value(0).toLongLong(), replaying->value(1).toString(),
                    replaying->value(2).isNull() ? replaying->value(3).toString()
                                                 : replaying->value(2).toString()};
    if (rows.isEmpty())
        return QVector<Finding>{};

    // The table keeps no request time; the audit log does: a replay request (dlq.replay) names its
    // dead letters. Those requested within the threshold are still in flight, not stuck.
    const QString recentCut = d.nowPlusMillis(QStringLiteral(":age"));
    const QVariantMap ageBind{{QStringLiteral(":age"), -context.options().replayStuckAfterMs}};
    auto recent =
        db.exec(QStringLiteral("SELECT target_ids FROM {audit} WHERE action = 'dlq.replay' AND at >= %1")
                    .arg(recentCut),
                ageBind);
    if (!recent)
        return recent.error();
    QSet<qint64> recentIds;
    while (recent->next())
        for (const QJsonValue& v : idsOf(recent->value(0)))
            recentIds.insert(v.toInteger());
    QVariantMap olderBinds = ageBind;
    olderBinds.insert(QStringLiteral(":limit"), MaxOlderRequests);
    auto older =
        db.exec(QStringLiteral("SELECT target_ids, at FROM {audit} WHERE action = 'dlq.replay' AND at < %1 "
                               "ORDER BY id DESC LIMIT :limit")
                    .arg(recentCut),
                olderBinds);
    if (!older)
        return older.error();
    QHash<qint64, QDateTime> requestedAt; // the latest request per dead letter
    while (older->next()) {
        const QDateTime at = d.toDateTime(older->value(1));
        for (const QJsonValue& v : idsOf(older->value(0)))
            if (!requestedAt.contains(v.toInteger()))
                requestedAt.insert(v.toInteger(), at);
    }

    Finding f;
    f.id = id();
    f.key = id();
    f.severity = Severity::Warning;
    f.evidence.unit = QStringLiteral("dead letters");
    f.evidence.sampleKind = QStringLiteral("dead_letter");
    QHash<QString, qint64> byConsumer;
    QSet<QString> topics;
    for (const Row& r : rows) {
        if (recentIds.contains(r.id))
            continue;
        ++f.evidence.count;
        byConsumer[r.consumer] += 1;
        topics.insert(r.topic);
        if (f.evidence.sampleIds.size() < Finding::MaxSamples)
            f.evidence.sampleIds << r.id;
        const QDateTime at = requestedAt.value(r.id);
        f.evidence.span(at, at);
    }
    if (f.evidence.count == 0)
        return QVector<Finding>{};
    QJsonObject consumers;
    for (auto it = byConsumer.cbegin(); it != byConsumer.cend(); ++it)
        consumers.insert(it.key(), it.value());
    f.evidence.details.insert(QStringLiteral("consumers"), consumers);
    QStringList topicList(topics.cbegin(), topics.cend());
    topicList.sort();
    f.evidence.details.insert(QStringLiteral("topics"), QJsonArray::fromStringList(topicList));
    f.evidence.details.insert(QStringLiteral("stuck_after_ms"), context.options().replayStuckAfterMs);
    f.title = tr("%1 dead letter(s) REPLAYING for over %2")
                  .arg(f.evidence.count)
                  .arg(DiagnosisContext::duration(context.options().replayStuckAfterMs));

    auto live = context.liveRelays();
    if (!live)
        return live.error();
    if (live->isEmpty())
        f.causes << rb.cause("no-relay");
    else
        f.causes << rb.cause("fails");
    f.causes << rb.cause("wrong-topic");
    f.runbook << rb.step("relay") << rb.step("deliver") << rb.step("topic");
    PreparedAction deliver;
    deliver.operation = PreparedAction::Operation::RunCommand;
    deliver.label = tr("Deliver the REPLAYING dead letters now");
    deliver.consequence =
        tr("Each is produced to its topic with its original event_id and marked REPLAYED once the "
           "broker acknowledges it.");
    auto broker = relayBroker(context);
    if (!broker)
        return broker.error();
    CommandLine command(QStringLiteral("outboxctl"), {QStringLiteral("dlq"), QStringLiteral("replay")});
    command.flag(QStringLiteral("deliver")).options(broker->arguments);
    if (broker->arguments.isEmpty()) {
        // No placeholder that runs: the broker's address is what the operator must add.
        deliver.commandLine = command.options(context.options().connectionArguments);
        deliver.commandRefused = broker->refused;
        f.actions << deliver;
    } else if (context.prepareCommand(deliver, command)) {
        f.actions << deliver;
    }
    return QVector<Finding>{f};
}

// Its page of docs/runbooks/ and the lines its findings take (core/diagnosis/Runbook.h).
Runbook ReplayStuckCheck::runbook() const
{
    Runbook r = Runbook::page(
        "replay-stuck", "Dead-letter replays are stuck in REPLAYING", "warning",
        "Dead letters stay REPLAYING longer than `[doctor] replay_stuck`: no relay delivers them, or the "
        "delivery fails.");
    r.causes = {
        {"no-relay",
         QT_TRANSLATE_NOOP("outbox::Runbook", "No relay is running, and REPLAYING dead letters are delivered "
                                              "by a running relay (every second) "
                                              "or by outboxctl dlq replay --deliver."),
         "no relay runs"},
        {"fails",
         QT_TRANSLATE_NOOP(
             "outbox::Runbook",
             "The relays try to deliver them and fail: the replay topic is unknown or not writable, or the "
             "relays are DEGRADED (read the relays' logs for \"replay\")."),
         "relays run"},
        {"wrong-topic", QT_TRANSLATE_NOOP("outbox::Runbook",
                                          "A replay to another topic names a topic that does not exist.")},
    };
    r.steps = {
        {"relay",
         QT_TRANSLATE_NOOP(
             "outbox::Runbook",
             "Check that a relay runs (no-relay, relay-degraded) and read its log for replay errors.")},
        {"deliver",
         QT_TRANSLATE_NOOP("outbox::Runbook", "Deliver them now without a relay (prepared below, with the "
                                              "broker this database's relays publish "
                                              "to); "
                                              "the command says which dead letters fail and why.")},
        {"topic",
         QT_TRANSLATE_NOOP(
             "outbox::Runbook",
             "If the topic is wrong, fix it outside the product (create it, grant the ACL); a replay "
             "that finally goes out marks the dead letters REPLAYED.")},
    };
    return r;
}

} // namespace outbox
