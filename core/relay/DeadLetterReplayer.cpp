#include "core/relay/DeadLetterReplayer.h"

#include "core/db/Database.h"
#include "core/db/DeadLetterStore.h"
#include "core/relay/RelayLogText.h"
#include "core/support/Backoff.h"
#include "core/support/Failpoints.h"

#include <QElapsedTimer>
#include <algorithm>

namespace outbox {

DeadLetterReplayer::DeadLetterReplayer(Database& db, Publisher& publisher, Logger log)
    : DeadLetterReplayer(db, publisher, ReplayOptions(), std::move(log))
{
}

DeadLetterReplayer::DeadLetterReplayer(Database& db, Publisher& publisher, ReplayOptions options, Logger log)
    : m_db(db), m_publisher(publisher), m_options(std::move(options)), m_log(std::move(log))
{
    if (!m_log)
        m_log = [](const QString&) {};
}

Result<ReplayRound> DeadLetterReplayer::deliver(int limit, qint64 timeoutMs, const QString& token)
{
    DeadLetterStore store(m_db);
    // The lease must outlast the produce, the wait for the ack and the mark.
    const qint64 leaseMs =
        m_options.leaseMs > 0 ? std::max(m_options.leaseMs, timeoutMs + 1000) : timeoutMs + 5000;
    QElapsedTimer sinceClaim;
    sinceClaim.start();
    ReplayClaimRequest request;
    request.workerId = m_options.workerId;
    request.limit = limit;
    request.leaseMs = leaseMs;
    request.maxAttempts = m_options.maxAttempts;
    request.replayToken = token;
    request.ignoreBackoff = m_options.ignoreBackoff;
    auto claim = store.claimReplays(request);
    if (!claim)
        return Error::runtime(
            QStringLiteral("cannot claim the dead letters to replay: %1").arg(claim.message()));
    ReplayRound round;
    round.gaveUp = claim->gaveUp;
    if (claim->gaveUp > 0)
        m_log(RelayLogText::english(RelayLogText::ReplayGaveUp).arg(claim->gaveUp));
    const QVector<DeadLetter>& letters = claim->letters;
    round.claimed = int(letters.size());
    if (letters.isEmpty())
        return round;

    QVector<BrokerMessage> messages;
    messages.reserve(letters.size());
    for (const DeadLetter& l : letters) {
        BrokerMessage m;
        m.topic = l.replayTopic.isEmpty() ? l.topic : l.replayTopic;
        m.key = l.exactKey();
        m.payload = l.payload;
        bool hasEventId = false;
        for (const DeadLetter::Header& h : l.exactHeaders()) {
            if (h.first == "x-replay-count" || h.first == "x-replayed-by")
                continue;
            hasEventId = hasEventId || h.first == "event_id";
            if (h.first == "event_type")
                m.type = QString::fromUtf8(h.second);
            m.headers.append({h.first, h.second});
        }
        m.messageId = l.eventId;
        if (!l.eventId.isEmpty() && !hasEventId)
            m.headers.append({"event_id", l.eventId.toUtf8()});
        m.headers.append({"x-replay-count", QByteArray::number(l.replayCount + 1)});
        m.headers.append(
            {"x-replayed-by", l.replayedBy.isEmpty() ? QByteArray("unknown") : l.replayedBy.toUtf8()});
        messages << m;
    }
    // Queue only while the lease leaves room for the ack and the mark; the rest is released.
    auto pending =
        m_publisher.enqueue(messages, std::max<qint64>(0, leaseMs - timeoutMs - sinceClaim.elapsed()));
    m_publisher.await(*pending, timeoutMs);
    const Backoff backoff(m_options.backoffBaseMs, m_options.backoffCapMs);
    for (int i = 0; i < letters.size(); ++i) {
        const DeadLetter& l = letters.at(i);
        const DeliveryReport& r = pending->reports().at(i);
        const QString topic = messages.at(i).topic;
        if (r.deliveryClass != DeliveryClass::Success) {
            ++round.failed;
            round.lastError = r.message;
            ReplayFailure how = ReplayFailure::RetryLater;
            qint64 delay = 0;
            QString error = r.message;
            QString outcome;
            const bool neverSent = r.notQueued || r.deliveryClass == DeliveryClass::ConnectionWide ||
                                   (m_publisher.connectionDown() &&
                                    r.deliveryClass != DeliveryClass::Deterministic && !r.possiblyPersisted);
            if (neverSent) {
                how = ReplayFailure::Release;
                delay = backoff.delayFor(std::max(1, l.replayAttempts));
                outcome =
                    QStringLiteral("it stays REPLAYING and is tried again in %1 ms (attempt not counted)")
                        .arg(delay);
            } else if (r.deliveryClass == DeliveryClass::Deterministic) {
                how = ReplayFailure::GiveUp;
                error =
                    QStringLiteral("refused by the broker, it cannot go through as it is: %1").arg(r.message);
                outcome =
                    QStringLiteral("it goes back to NEW (discard it, or fix the cause and replay it again)");
            } else if (l.replayAttempts >= m_options.maxAttempts) {
                how = ReplayFailure::GiveUp;
                error = QStringLiteral("gave up after %1 replay attempts: %2")
                            .arg(l.replayAttempts)
                            .arg(r.message);
                outcome =
                    QStringLiteral("attempt %1 of %2: it goes back to NEW (discard it, or replay it again)")
                        .arg(l.replayAttempts)
                        .arg(m_options.maxAttempts);
            } else {
                delay = backoff.delayFor(l.replayAttempts);
                outcome = QStringLiteral("attempt %1 of %2: it stays REPLAYING and is tried again in %3 ms")
                              .arg(l.replayAttempts)
                              .arg(m_options.maxAttempts)
                              .arg(delay);
            }
            auto recorded = store.markReplayFailed(l.id, claim->leaseToken, how, error, delay);
            if (how == ReplayFailure::GiveUp && recorded && *recorded)
                ++round.gaveUp;
            m_log(RelayLogText::english(RelayLogText::ReplayNotAcknowledged)
                      .arg(l.id)
                      .arg(topic, r.message, recorded ? outcome : recorded.message()));
            continue;
        }
        // Crash here: delivered but still REPLAYING; once the lease expires it is delivered again.
        if (Status s = Failpoints::hit("replay.after_ack_before_mark"); !s) {
            ++round.failed;
            round.lastError = s.message();
            continue;
        }
        auto marked = store.markReplayed(l.id, claim->leaseToken);
        if (!marked) {
            ++round.failed;
            round.lastError = marked.message();
            m_log(marked.message());
        } else if (*marked) {
            ++round.delivered;
            m_log(RelayLogText::english(RelayLogText::Replayed)
                      .arg(l.id)
                      .arg(topic)
                      .arg(r.partition)
                      .arg(r.offset));
        } else {
            ++round.fenced;
            m_log(RelayLogText::english(RelayLogText::ReplayLeaseExpired).arg(l.id));
        }
    }
    return round;
}

} // namespace outbox
