#include "core/db/DeadLetterStore.h"

#include "core/db/Database.h"
#include "core/db/EventStatus.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSqlQuery>
#include <QUuid>
#include <algorithm>

namespace outbox {

namespace {

// Text that is stored as it is: valid UTF-8 without NUL (PostgreSQL refuses NUL in text and jsonb).
bool isCleanText(const QByteArray& bytes)
{
    return !bytes.contains('\0') && QString::fromUtf8(bytes).toUtf8() == bytes;
}

QString withoutNul(QString text)
{
    return text.replace(QChar(0), QChar(0xFFFD));
}

QString capped(const QString& text, int maxChars)
{
    return text.size() <= maxChars ? text : QString(text.left(maxChars) + QStringLiteral("…"));
}

// A readable rendering of bytes that are not clean text (invalid sequences and NUL shown as U+FFFD).
QString rendering(const QByteArray& bytes, int maxChars)
{
    return capped(withoutNul(QString::fromUtf8(bytes)), maxChars);
}

QJsonValue withoutNul(const QJsonValue& v)
{
    if (v.isString())
        return withoutNul(v.toString());
    if (v.isArray()) {
        QJsonArray a;
        for (const QJsonValue& item : v.toArray())
            a.append(withoutNul(item));
        return a;
    }
    if (v.isObject()) {
        QJsonObject o;
        const QJsonObject in = v.toObject();
        for (auto it = in.begin(); it != in.end(); ++it)
            o.insert(withoutNul(it.key()), withoutNul(*it));
        return o;
    }
    return v;
}

QJsonValue rawPart(const QByteArray& bytes)
{
    if (isCleanText(bytes))
        return QString::fromUtf8(bytes);
    return QJsonObject{{QStringLiteral("base64"), QString::fromLatin1(bytes.toBase64())}};
}

constexpr int MaxKeyTextBytes = 16384;   // longer keys: exact bytes in message_key_bytes
constexpr int MaxRenderingChars = 65536; // readable renderings of binary values
constexpr int MaxErrorChars = 8000;      // error is TEXT (64 KB) on MariaDB
constexpr int MaxStacktraceChars = 1000000;
constexpr int MaxTopicChars = 249;
constexpr int MaxConsumerChars = 191;

} // namespace

Result<qint64> DeadLetterStore::insert(const DeadLetter& l)
{
    const Dialect& d = m_db.dialect();
    const QVariant nullText(QMetaType::fromType<QString>());
    const QVariant nullBytes(QMetaType::fromType<QByteArray>());
    QStringList notes;
    if (!l.storageNote.isEmpty())
        notes << l.storageNote;

    const QString eventId = l.eventId.isNull() ? QString() : DeadLetter::storableEventId(l.eventId);
    if (eventId != l.eventId)
        notes << QStringLiteral("event_id of %1 characters shortened to fit (prefix and SHA-256); the full "
                                "value is in the event_id header")
                     .arg(l.eventId.size());

    // Key: text when it is clean and not too long, else exact bytes beside a rendering.
    const QByteArray key = l.exactKey();
    QVariant keyText = nullText, keyBytes = nullBytes;
    if (!key.isNull()) {
        if (isCleanText(key) && key.size() <= MaxKeyTextBytes) {
            keyText = QString::fromUtf8(key);
        } else {
            keyText = QString(rendering(key.left(MaxKeyTextBytes), MaxKeyTextBytes) +
                              (key.size() > MaxKeyTextBytes ? QStringLiteral("…") : QString()));
            keyBytes = key;
            notes << QStringLiteral("the key (%1 bytes, %2) is kept exactly in message_key_bytes; "
                                    "message_key shows a readable rendering")
                         .arg(key.size())
                         .arg(isCleanText(key) ? QStringLiteral("longer than %1").arg(MaxKeyTextBytes)
                                               : QStringLiteral("not UTF-8 text"));
        }
    }

    // Payload: text when clean, else exact bytes beside a rendering.
    QVariant payloadText = QString::fromUtf8(l.payload), payloadBytes = nullBytes;
    if (!isCleanText(l.payload)) {
        payloadText = rendering(l.payload, MaxRenderingChars);
        payloadBytes = l.payload.isNull() ? QByteArray("") : l.payload;
        notes << QStringLiteral("the payload (%1 bytes) is not UTF-8 text: kept exactly in payload_bytes")
                     .arg(l.payload.size());
    }

    // Headers: a JSON object of strings for people and filters; the exact list (wire order,
    // repeated names, binary values) in raw_headers when the object cannot hold it.
    QJsonObject headerObject;
    QVariant rawHeaders = nullText;
    if (!l.rawHeaders.isEmpty()) {
        bool exact = true;
        QJsonArray raw;
        for (const DeadLetter::Header& h : l.rawHeaders) {
            const QString name = rendering(h.first, MaxRenderingChars);
            exact = exact && isCleanText(h.first) && isCleanText(h.second) && !headerObject.contains(name);
            headerObject.insert(name, rendering(h.second, MaxRenderingChars));
            raw.append(QJsonArray{rawPart(h.first), rawPart(h.second)});
        }
        if (!exact) {
            rawHeaders = QString::fromUtf8(QJsonDocument(raw).toJson(QJsonDocument::Compact));
            notes << QStringLiteral(
                "headers with binary values or repeated names: kept exactly in raw_headers");
        }
    } else if (!l.headers.isEmpty()) {
        const QJsonDocument doc = QJsonDocument::fromJson(l.headers);
        if (doc.isObject())
            headerObject = withoutNul(doc.object()).toObject();
        else
            notes << QStringLiteral("the headers were not a JSON object and are not kept");
    }

    QString error = withoutNul(l.error);
    if (error.size() > MaxErrorChars) {
        notes << QStringLiteral("error of %1 characters cut to %2").arg(error.size()).arg(MaxErrorChars);
        error = capped(error, MaxErrorChars);
    }
    QString stacktrace = l.stacktrace.isNull() ? QString() : withoutNul(l.stacktrace);
    if (stacktrace.size() > MaxStacktraceChars) {
        notes << QStringLiteral("stack trace of %1 characters cut to %2")
                     .arg(stacktrace.size())
                     .arg(MaxStacktraceChars);
        stacktrace = capped(stacktrace, MaxStacktraceChars);
    }

    QVariantMap binds{
        {QStringLiteral(":consumer"), capped(withoutNul(l.consumerName), MaxConsumerChars)},
        {QStringLiteral(":event"), eventId.isNull() ? nullText : QVariant(eventId)},
        {QStringLiteral(":topic"), capped(withoutNul(l.topic), MaxTopicChars)},
        {QStringLiteral(":partition"),
         l.sourcePartition ? QVariant(*l.sourcePartition) : QVariant(QMetaType::fromType<int>())},
        {QStringLiteral(":offset"),
         l.sourceOffset ? QVariant(*l.sourceOffset) : QVariant(QMetaType::fromType<qint64>())},
        {QStringLiteral(":key"), keyText},
        {QStringLiteral(":key_bytes"), keyBytes},
        {QStringLiteral(":headers"),
         QString::fromUtf8(QJsonDocument(headerObject).toJson(QJsonDocument::Compact))},
        {QStringLiteral(":raw_headers"), rawHeaders},
        {QStringLiteral(":payload"), payloadText},
        {QStringLiteral(":payload_bytes"), payloadBytes},
        {QStringLiteral(":error"), error},
        {QStringLiteral(":stack"), stacktrace.isNull() ? nullText : QVariant(stacktrace)},
        {QStringLiteral(":attempts"), std::max(1, l.attempts)},
        {QStringLiteral(":note"), notes.isEmpty() ? nullText : QVariant(notes.join(QStringLiteral("; ")))}};
    // The failure times default to now; a consumer that retried first passes when it began failing.
    QString timeColumns, timeValues;
    if (l.firstFailedAt.isValid()) {
        timeColumns += QStringLiteral(", first_failed_at");
        timeValues += QStringLiteral(", :first_failed");
        binds.insert(QStringLiteral(":first_failed"), d.fromDateTime(l.firstFailedAt));
    }
    if (l.lastFailedAt.isValid()) {
        timeColumns += QStringLiteral(", last_failed_at");
        timeValues += QStringLiteral(", :last_failed");
        binds.insert(QStringLiteral(":last_failed"), d.fromDateTime(l.lastFailedAt));
    }
    auto q = m_db.exec(
        QStringLiteral(
            "INSERT INTO {dead_letters} (consumer_name, event_id, topic, source_partition, "
            "source_offset, message_key, message_key_bytes, headers, raw_headers, payload, "
            "payload_bytes, error, stacktrace, attempts, storage_note%3) VALUES (:consumer, :event, "
            ":topic, :partition, :offset, :key, :key_bytes, %1, :raw_headers, :payload, "
            ":payload_bytes, :error, :stack, :attempts, :note%4)%2")
            .arg(d.jsonValue(QStringLiteral(":headers")), d.returningId(), timeColumns, timeValues),
        binds);
    if (!q)
        return Error::runtime(QStringLiteral("cannot record the dead letter: %1").arg(q.message()));
    const qint64 id = q->next() ? q->value(0).toLongLong() : q->lastInsertId().toLongLong();
    if (Status s = Database::finished(q.value()); !s)
        return Error::runtime(QStringLiteral("cannot record the dead letter: %1").arg(s.message()));
    return id;
}

Result<DeadLetterPage> DeadLetterStore::list(const DeadLetterFilter& filter, qint64 afterId, int limit,
                                             int previewChars)
{
    if (limit <= 0 || limit > 10000)
        return Error::usage(QStringLiteral("page size must be between 1 and 10000"));
    SqlCondition c = filter.toCondition(m_db.dialect());
    if (afterId > 0)
        c.add(QStringLiteral("id < :after"), QStringLiteral(":after"), afterId);
    c.binds.insert(QStringLiteral(":limit"), limit);
    const bool summaries = previewChars > 0;
    if (summaries)
        c.binds.insert(QStringLiteral(":preview"), previewChars);
    auto q =
        m_db.exec(QStringLiteral("SELECT %1 FROM {dead_letters} WHERE %2 ORDER BY id DESC LIMIT :limit")
                      .arg(summaries ? DeadLetter::summaryColumns(m_db.dialect(), QStringLiteral(":preview"))
                                     : DeadLetter::columns(),
                           c.where()),
                  c.binds);
    if (!q)
        return q.error();
    DeadLetterPage page;
    while (q->next())
        page.letters << (summaries ? DeadLetter::fromSummary(*q, m_db.dialect())
                                   : DeadLetter::fromQuery(*q, m_db.dialect()));
    if (page.letters.size() == limit)
        page.nextAfterId = page.letters.last().id;
    return page;
}

Result<DeadLetter> DeadLetterStore::find(qint64 id)
{
    auto q =
        m_db.exec(QStringLiteral("SELECT %1 FROM {dead_letters} WHERE id = :id").arg(DeadLetter::columns()),
                  {{QStringLiteral(":id"), id}});
    if (!q)
        return q.error();
    if (!q->next())
        return Error::notFound(QStringLiteral("no dead letter with id %1").arg(id));
    return DeadLetter::fromQuery(*q, m_db.dialect());
}

Result<QMap<QString, qint64>> DeadLetterStore::countsByStatus()
{
    QMap<QString, qint64> counts;
    for (const QString& s : DeadLetterStatus::all())
        counts.insert(s, 0);
    auto q = m_db.exec(QStringLiteral("SELECT status, COUNT(*) FROM {dead_letters} GROUP BY status"));
    if (!q)
        return q.error();
    while (q->next())
        counts.insert(q->value(0).toString(), q->value(1).toLongLong());
    return counts;
}

Result<bool> DeadLetterStore::existsForSource(const QString& consumerName, const QString& eventId,
                                              const QString& topic, int partition, qint64 offset)
{
    QVariantMap binds{{QStringLiteral(":consumer"), consumerName},
                      {QStringLiteral(":topic"), topic},
                      {QStringLiteral(":partition"), partition},
                      {QStringLiteral(":offset"), offset}};
    QString condition =
        QStringLiteral("consumer_name = :consumer AND topic = :topic AND source_partition = :partition "
                       "AND source_offset = :offset");
    if (!eventId.isEmpty()) { // uses the event_id index
        condition += QStringLiteral(" AND event_id = :event");
        binds.insert(QStringLiteral(":event"), eventId);
    }
    auto q = m_db.exec(QStringLiteral("SELECT id FROM {dead_letters} WHERE %1").arg(condition), binds);
    if (!q)
        return q.error();
    return q->next();
}

Result<QVector<DeadLetter>> DeadLetterStore::replaying(int limit, const QString& token, qint64 afterId)
{
    QVariantMap binds{{QStringLiteral(":limit"), limit}, {QStringLiteral(":after"), afterId}};
    QString condition = QStringLiteral("status = 'REPLAYING' AND id > :after");
    if (!token.isEmpty()) {
        condition += QStringLiteral(" AND replay_token = :token");
        binds.insert(QStringLiteral(":token"), token);
    }
    auto q = m_db.exec(QStringLiteral("SELECT %1 FROM {dead_letters} WHERE %2 ORDER BY id LIMIT :limit")
                           .arg(DeadLetter::columns(), condition),
                       binds);
    if (!q)
        return q.error();
    QVector<DeadLetter> letters;
    while (q->next())
        letters << DeadLetter::fromQuery(*q, m_db.dialect());
    return letters;
}

Result<ReplayClaim> DeadLetterStore::claimReplays(const ReplayClaimRequest& request)
{
    if (request.limit <= 0 || request.maxAttempts < 1 || request.leaseMs < 1)
        return Error::usage(QStringLiteral("a replay claim needs a positive limit, attempt limit and lease"));
    const Dialect& d = m_db.dialect();
    ReplayClaim claim;
    claim.leaseToken = QUuid::createUuid().toString(QUuid::WithoutBraces);

    const QString leaseFree =
        QStringLiteral("(replay_lease_until IS NULL OR replay_lease_until < %1)").arg(d.now());
    QString due = QStringLiteral("status = 'REPLAYING' AND %1 AND replay_attempts < :max").arg(leaseFree);
    QVariantMap dueBinds{{QStringLiteral(":max"), request.maxAttempts}};
    if (!request.ignoreBackoff)
        due += QStringLiteral(" AND (replay_available_at IS NULL OR replay_available_at <= %1)").arg(d.now());
    if (!request.replayToken.isEmpty()) {
        due += QStringLiteral(" AND replay_token = :replay_token");
        dueBinds.insert(QStringLiteral(":replay_token"), request.replayToken);
    }
    const QString set =
        QStringLiteral("replay_lease_token = :lease, replay_lease_until = %1, replay_worker = "
                       ":worker, replay_attempts = replay_attempts + 1")
            .arg(d.nowPlusMillis(QStringLiteral(":lease_ms")));
    const QVariantMap setBinds{{QStringLiteral(":lease"), claim.leaseToken},
                               {QStringLiteral(":lease_ms"), request.leaseMs},
                               {QStringLiteral(":worker"), request.workerId}};

    Transaction tx(m_db);
    if (Status s = tx.beginWrite(); !s)
        return s.error();
    // A replay whose replayer died on every try (crash while producing it) would otherwise be
    // claimed for ever: out of attempts and no live lease, it goes back to NEW for an operator.
    {
        QString stale =
            QStringLiteral("status = 'REPLAYING' AND %1 AND replay_attempts >= :max").arg(leaseFree);
        QVariantMap binds{{QStringLiteral(":max"), request.maxAttempts},
                          {QStringLiteral(":why"),
                           QStringLiteral("gave up after %1 replay attempts: the last one was never answered "
                                          "(the replayer stopped or crashed while delivering it)")
                               .arg(request.maxAttempts)}};
        if (!request.replayToken.isEmpty()) {
            stale += QStringLiteral(" AND replay_token = :replay_token");
            binds.insert(QStringLiteral(":replay_token"), request.replayToken);
        }
        auto q = m_db.exec(QStringLiteral("UPDATE {dead_letters} SET status = 'NEW', replay_error = :why, "
                                          "replay_token = NULL, replay_available_at = NULL, "
                                          "replay_lease_token = NULL, replay_lease_until = NULL, "
                                          "replay_worker = NULL WHERE %1")
                               .arg(stale),
                           binds);
        if (!q)
            return Error::runtime(QStringLiteral("cannot claim dead letters to replay: %1").arg(q.message()));
        claim.gaveUp = q->numRowsAffected();
    }

    QVariantMap binds = dueBinds;
    binds.insert(QStringLiteral(":limit"), request.limit);
    if (d.hasUpdateReturning()) {
        binds.insert(setBinds);
        auto q = m_db.exec(
            QStringLiteral("UPDATE {dead_letters} SET %1 WHERE id IN (SELECT id FROM {dead_letters} "
                           "WHERE %2 ORDER BY id LIMIT :limit%3) RETURNING %4")
                .arg(set, due, d.forUpdateSkipLocked(), DeadLetter::columns()),
            binds);
        if (!q)
            return Error::runtime(QStringLiteral("cannot claim dead letters to replay: %1").arg(q.message()));
        while (q->next())
            claim.letters << DeadLetter::fromQuery(*q, d);
        if (Status s = Database::finished(q.value()); !s)
            return Error::runtime(QStringLiteral("cannot claim dead letters to replay: %1").arg(s.message()));
    } else {
        auto ids =
            m_db.exec(QStringLiteral("SELECT id FROM {dead_letters} WHERE %1 ORDER BY id LIMIT :limit%2")
                          .arg(due, d.forUpdateSkipLocked()),
                      binds);
        if (!ids)
            return Error::runtime(
                QStringLiteral("cannot claim dead letters to replay: %1").arg(ids.message()));
        QVariantList idList;
        while (ids->next())
            idList << ids->value(0);
        if (!idList.isEmpty()) {
            SqlCondition c;
            c.addIn(QStringLiteral("id"), QStringLiteral("c"), idList);
            c.binds.insert(setBinds);
            auto upd =
                m_db.exec(QStringLiteral("UPDATE {dead_letters} SET %1 WHERE %2 AND status = 'REPLAYING'")
                              .arg(set, c.where()),
                          c.binds);
            if (!upd)
                return Error::runtime(
                    QStringLiteral("cannot claim dead letters to replay: %1").arg(upd.message()));
            SqlCondition mine;
            mine.addIn(QStringLiteral("id"), QStringLiteral("c"), idList);
            mine.add(QStringLiteral("replay_lease_token = :lease"), QStringLiteral(":lease"),
                     claim.leaseToken);
            auto rows = m_db.exec(QStringLiteral("SELECT %1 FROM {dead_letters} WHERE %2")
                                      .arg(DeadLetter::columns(), mine.where()),
                                  mine.binds);
            if (!rows)
                return Error::runtime(
                    QStringLiteral("cannot claim dead letters to replay: %1").arg(rows.message()));
            while (rows->next())
                claim.letters << DeadLetter::fromQuery(*rows, d);
        }
    }
    if (Status s = tx.commit(); !s)
        return Error::runtime(QStringLiteral("cannot claim dead letters to replay: %1").arg(s.message()));
    std::sort(claim.letters.begin(), claim.letters.end(),
              [](const DeadLetter& a, const DeadLetter& b) { return a.id < b.id; });
    return claim;
}

Result<bool> DeadLetterStore::markReplayed(qint64 id, const QString& leaseToken)
{
    auto q =
        m_db.exec(QStringLiteral("UPDATE {dead_letters} SET status = 'REPLAYED', replay_count = "
                                 "replay_count + 1, replayed_at = %1, replay_error = NULL, "
                                 "replay_available_at = NULL, replay_lease_token = NULL, "
                                 "replay_lease_until = NULL, replay_worker = NULL "
                                 "WHERE id = :id AND status = 'REPLAYING' AND replay_lease_token = :token")
                      .arg(m_db.dialect().now()),
                  {{QStringLiteral(":id"), id}, {QStringLiteral(":token"), leaseToken}});
    if (!q)
        return Error::runtime(
            QStringLiteral("cannot mark dead letter %1 REPLAYED: %2").arg(id).arg(q.message()));
    return q->numRowsAffected() == 1;
}

Result<bool> DeadLetterStore::markReplayFailed(qint64 id, const QString& leaseToken, ReplayFailure how,
                                               const QString& error, qint64 retryDelayMs)
{
    const Dialect& d = m_db.dialect();
    QString set;
    QVariantMap binds{{QStringLiteral(":id"), id},
                      {QStringLiteral(":token"), leaseToken},
                      {QStringLiteral(":error"), capped(withoutNul(error), 4000)}};
    switch (how) {
    case ReplayFailure::GiveUp:
        set = QStringLiteral("status = 'NEW', replay_token = NULL, replay_available_at = NULL");
        break;
    case ReplayFailure::Release:
        set = QStringLiteral(
                  "replay_attempts = CASE WHEN replay_attempts > 0 THEN replay_attempts - 1 ELSE 0 END, "
                  "replay_available_at = %1")
                  .arg(d.nowPlusMillis(QStringLiteral(":delay")));
        binds.insert(QStringLiteral(":delay"), std::max<qint64>(0, retryDelayMs));
        break;
    case ReplayFailure::RetryLater:
        set = QStringLiteral("replay_available_at = %1").arg(d.nowPlusMillis(QStringLiteral(":delay")));
        binds.insert(QStringLiteral(":delay"), std::max<qint64>(0, retryDelayMs));
        break;
    }
    auto q =
        m_db.exec(QStringLiteral("UPDATE {dead_letters} SET %1, replay_error = :error, replay_lease_token = "
                                 "NULL, replay_lease_until = NULL, replay_worker = NULL "
                                 "WHERE id = :id AND status = 'REPLAYING' AND replay_lease_token = :token")
                      .arg(set),
                  binds);
    if (!q)
        return Error::runtime(
            QStringLiteral("cannot record the failed replay of dead letter %1: %2").arg(id).arg(q.message()));
    return q->numRowsAffected() == 1;
}

Result<int> DeadLetterStore::countReplaying(const QString& token)
{
    QVariantMap binds;
    QString condition = QStringLiteral("status = 'REPLAYING'");
    if (!token.isEmpty()) {
        condition += QStringLiteral(" AND replay_token = :token");
        binds.insert(QStringLiteral(":token"), token);
    }
    auto v =
        m_db.scalar(QStringLiteral("SELECT COUNT(*) FROM {dead_letters} WHERE %1").arg(condition), binds);
    if (!v)
        return v.error();
    return v->toInt();
}

Result<bool> DeadLetterStore::replaceMessage(const DeadLetter& current,
                                             const std::optional<QByteArray>& payload,
                                             const std::optional<QJsonObject>& headers,
                                             const QString& editedBy)
{
    const Dialect& d = m_db.dialect();
    const QVariant nullText(QMetaType::fromType<QString>());
    const QVariant nullBytes(QMetaType::fromType<QByteArray>());
    QStringList set{QStringLiteral("edited_at = %1").arg(d.now()), QStringLiteral("edited_by = :edited_by"),
                    QStringLiteral("edit_count = edit_count + 1")};
    QVariantMap binds{{QStringLiteral(":id"), current.id}, {QStringLiteral(":edited_by"), editedBy}};
    const auto rawHeadersText = [](const QVector<DeadLetter::Header>& list) -> QString {
        QJsonArray raw;
        for (const DeadLetter::Header& h : list)
            raw.append(QJsonArray{rawPart(h.first), rawPart(h.second)});
        return QString::fromUtf8(QJsonDocument(raw).toJson(QJsonDocument::Compact));
    };
    if (current.editCount == 0) {
        // The message as it came, from the row read under the caller's lock.
        set << QStringLiteral("original_payload = :orig_payload")
            << QStringLiteral("original_payload_bytes = :orig_payload_bytes")
            << QStringLiteral("original_headers = :orig_headers")
            << QStringLiteral("original_raw_headers = :orig_raw_headers");
        binds.insert(QStringLiteral(":orig_payload"),
                     current.payloadIsText ? QVariant(QString::fromUtf8(current.payload))
                                           : QVariant(rendering(current.payload, MaxRenderingChars)));
        binds.insert(QStringLiteral(":orig_payload_bytes"),
                     current.payloadIsText ? nullBytes : QVariant(current.payload));
        binds.insert(QStringLiteral(":orig_headers"),
                     QString::fromUtf8(current.headers.isEmpty() ? QByteArray("{}") : current.headers));
        binds.insert(QStringLiteral(":orig_raw_headers"),
                     current.rawHeaders.isEmpty() ? nullText : QVariant(rawHeadersText(current.rawHeaders)));
    }
    if (payload) {
        set << QStringLiteral("payload = :payload") << QStringLiteral("payload_bytes = :payload_bytes");
        if (isCleanText(*payload)) {
            binds.insert(QStringLiteral(":payload"), QString::fromUtf8(*payload));
            binds.insert(QStringLiteral(":payload_bytes"), nullBytes);
        } else {
            binds.insert(QStringLiteral(":payload"), rendering(*payload, MaxRenderingChars));
            binds.insert(QStringLiteral(":payload_bytes"), payload->isNull() ? QByteArray("") : *payload);
        }
    }
    if (headers) {
        // The object is now the exact header list (names and values are JSON strings: clean text).
        set << QStringLiteral("headers = %1").arg(d.jsonValue(QStringLiteral(":headers")))
            << QStringLiteral("raw_headers = NULL");
        binds.insert(
            QStringLiteral(":headers"),
            QString::fromUtf8(QJsonDocument(withoutNul(*headers).toObject()).toJson(QJsonDocument::Compact)));
    }
    // Only the version `current` holds (its edit_count): an edit made from an older one changes
    // nothing (false, as for a dead letter that is no longer NEW).
    binds.insert(QStringLiteral(":edit_count"), current.editCount);
    auto q = m_db.exec(
        QStringLiteral(
            "UPDATE {dead_letters} SET %1 WHERE id = :id AND status = 'NEW' AND edit_count = :edit_count")
            .arg(set.join(QStringLiteral(", "))),
        binds);
    if (!q)
        return Error::runtime(
            QStringLiteral("cannot edit dead letter %1: %2").arg(current.id).arg(q.message()));
    return q->numRowsAffected() == 1;
}

} // namespace outbox
