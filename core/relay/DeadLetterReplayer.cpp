#include "core/relay/DeadLetterReplayer.h"

#include "core/db/Database.h"
#include "core/db/DeadLetterStore.h"
#include "core/support/Failpoints.h"

#include <QJsonDocument>
#include <QJsonObject>

namespace outbox {

DeadLetterReplayer::DeadLetterReplayer(Database& db, KafkaPublisher& publisher, Logger log)
    : m_db(db), m_publisher(publisher), m_log(std::move(log))
{
    if (!m_log)
        m_log = [](const QString&) {};
}

Result<ReplayRound> DeadLetterReplayer::deliver(int limit, qint64 timeoutMs, const QString& token)
{
    DeadLetterStore store(m_db);
    auto letters = store.replaying(limit, token);
    if (!letters)
        return Error::runtime(
            QStringLiteral("cannot read the dead letters to replay: %1").arg(letters.message()));
    ReplayRound round;
    if (letters->isEmpty())
        return round;

    QVector<KafkaMessage> messages;
    messages.reserve(letters->size());
    for (const DeadLetter& l : *letters) {
        KafkaMessage m;
        m.topic = l.replayTopic.isEmpty() ? l.topic : l.replayTopic;
        m.key = l.messageKey.toUtf8();
        m.payload = l.payload;
        const QJsonObject headers = QJsonDocument::fromJson(l.headers).object();
        for (auto it = headers.begin(); it != headers.end(); ++it) {
            if (it.key() == QLatin1String("x-replay-count") || it.key() == QLatin1String("x-replayed-by"))
                continue;
            m.headers.append({it.key().toUtf8(), it->toString().toUtf8()});
        }
        if (!l.eventId.isEmpty() && !headers.contains(QStringLiteral("event_id")))
            m.headers.append({"event_id", l.eventId.toUtf8()});
        m.headers.append({"x-replay-count", QByteArray::number(l.replayCount + 1)});
        m.headers.append(
            {"x-replayed-by", l.replayedBy.isEmpty() ? QByteArray("unknown") : l.replayedBy.toUtf8()});
        messages << m;
    }
    auto pending = m_publisher.enqueue(messages);
    m_publisher.await(*pending, timeoutMs);
    for (int i = 0; i < letters->size(); ++i) {
        const DeadLetter& l = letters->at(i);
        const DeliveryReport& r = pending->reports().at(i);
        if (r.deliveryClass != DeliveryClass::Success) {
            ++round.failed;
            round.lastError = r.message;
            m_log(QStringLiteral("replay of dead letter #%1 to %2 not acknowledged (%3); it stays REPLAYING "
                                 "and is retried")
                      .arg(l.id)
                      .arg(messages.at(i).topic, r.message));
            continue;
        }
        // Crash here: delivered but still REPLAYING; the next round delivers it again.
        if (Status s = Failpoints::hit("replay.after_ack_before_mark"); !s) {
            ++round.failed;
            round.lastError = s.message();
            continue;
        }
        auto marked = store.markReplayed(l.id, l.replayToken);
        if (!marked) {
            ++round.failed;
            round.lastError = marked.message();
            m_log(marked.message());
        } else if (*marked) {
            ++round.delivered;
            m_log(QStringLiteral("dead letter #%1 replayed to %2 (partition %3, offset %4)")
                      .arg(l.id)
                      .arg(messages.at(i).topic)
                      .arg(r.partition)
                      .arg(r.offset));
        } else {
            ++round.fenced;
            m_log(QStringLiteral("dead letter #%1 was replayed, but its replay was re-armed or finished "
                                 "elsewhere meanwhile")
                      .arg(l.id));
        }
    }
    return round;
}

} // namespace outbox
