#include "core/db/DeadLetter.h"

#include "core/db/Dialect.h"

#include <QCryptographicHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QSqlQuery>

namespace outbox {
namespace {

// raw_headers: [[name, value], …] in wire order; a name or value that is not clean UTF-8 text is
// {"base64": "…"}.
QByteArray decodeRawPart(const QJsonValue& v)
{
    if (v.isObject())
        return QByteArray::fromBase64(v.toObject().value(QStringLiteral("base64")).toString().toLatin1());
    return v.toString().toUtf8();
}

QVector<DeadLetter::Header> decodeRawHeaders(const QByteArray& json)
{
    QVector<DeadLetter::Header> headers;
    const QJsonArray array = QJsonDocument::fromJson(json).array();
    for (const QJsonValue& pair : array) {
        const QJsonArray p = pair.toArray();
        if (p.size() == 2)
            headers.append({decodeRawPart(p.at(0)), decodeRawPart(p.at(1))});
    }
    return headers;
}

} // namespace

QString DeadLetter::columns()
{
    return QStringLiteral(
        "id, consumer_name, event_id, topic, source_partition, source_offset, message_key, headers, "
        "payload, error, stacktrace, attempts, first_failed_at, last_failed_at, status, replay_token, "
        "replay_topic, replay_count, replayed_at, replayed_by, replay_attempts, replay_error, "
        "replay_available_at, replay_worker, replay_lease_until, replay_lease_token, payload_bytes, "
        "message_key_bytes, raw_headers, storage_note, original_payload, original_payload_bytes, "
        "original_headers, original_raw_headers, edited_at, edited_by, edit_count");
}

QString DeadLetter::summaryColumns(const Dialect& d, const QString& preview)
{
    QStringList list = columns().split(QStringLiteral(", "));
    auto text = [&](const QString& c) { return d.textPrefix(c, preview); };
    auto binary = [&](const QString& c) { return d.binaryPrefix(c, preview); };
    list[8] = text(QStringLiteral("payload"));
    list[10] = text(QStringLiteral("stacktrace"));
    list[26] = binary(QStringLiteral("payload_bytes"));
    list[28] = QStringLiteral("NULL"); // raw_headers: replay reads them, the list does not show them
    list[30] = text(QStringLiteral("original_payload"));
    list[31] = binary(QStringLiteral("original_payload_bytes"));
    list[33] = QStringLiteral("NULL"); // original_raw_headers
    auto size = [&](const QString& bytes, const QString& chars) {
        return QStringLiteral("COALESCE(%1, %2)").arg(d.binaryBytes(bytes), d.textBytes(chars));
    };
    list << size(QStringLiteral("payload_bytes"), QStringLiteral("payload"))
         << d.textBytes(QStringLiteral("stacktrace"))
         << size(QStringLiteral("original_payload_bytes"), QStringLiteral("original_payload"));
    return list.join(QStringLiteral(", "));
}

DeadLetter DeadLetter::fromSummary(const QSqlQuery& q, const Dialect& d)
{
    DeadLetter l = fromQuery(q, d);
    l.payloadSize = q.value(37).isNull() ? 0 : q.value(37).toLongLong();
    l.stacktraceSize = q.value(38).isNull() ? 0 : q.value(38).toLongLong();
    l.originalPayloadSize = q.value(39).isNull() ? 0 : q.value(39).toLongLong();
    return l;
}

DeadLetter DeadLetter::fromQuery(const QSqlQuery& q, const Dialect& d)
{
    DeadLetter l;
    l.id = q.value(0).toLongLong();
    l.consumerName = q.value(1).toString();
    l.eventId = q.value(2).toString();
    l.topic = q.value(3).toString();
    if (!q.value(4).isNull())
        l.sourcePartition = q.value(4).toInt();
    if (!q.value(5).isNull())
        l.sourceOffset = q.value(5).toLongLong();
    if (!q.value(6).isNull()) { // an empty key stays an empty key, not "no key"
        l.messageKey = q.value(6).toString();
        if (l.messageKey.isNull())
            l.messageKey = QStringLiteral("");
    }
    l.headers = q.value(7).toString().toUtf8();
    l.error = q.value(9).toString();
    l.stacktrace = q.value(10).toString();
    l.attempts = q.value(11).toInt();
    l.firstFailedAt = d.toDateTime(q.value(12));
    l.lastFailedAt = d.toDateTime(q.value(13));
    l.status = q.value(14).toString();
    l.replayToken = q.value(15).toString();
    l.replayTopic = q.value(16).toString();
    l.replayCount = q.value(17).toInt();
    l.replayedAt = d.toDateTime(q.value(18));
    l.replayedBy = q.value(19).toString();
    l.replayAttempts = q.value(20).toInt();
    l.replayError = q.value(21).toString();
    l.replayAvailableAt = d.toDateTime(q.value(22));
    l.replayWorker = q.value(23).toString();
    l.replayLeaseUntil = d.toDateTime(q.value(24));
    l.replayLeaseToken = q.value(25).toString();
    if (!q.value(26).isNull()) {
        l.payload = q.value(26).toByteArray();
        l.payloadIsText = false;
    } else {
        l.payload = q.value(8).toString().toUtf8();
    }
    if (!q.value(27).isNull())
        l.key = q.value(27).toByteArray();
    l.key = l.exactKey();
    if (!q.value(28).isNull())
        l.rawHeaders = decodeRawHeaders(q.value(28).toString().toUtf8());
    l.storageNote = q.value(29).toString();
    l.editCount = q.value(36).toInt();
    if (l.editCount > 0) {
        if (!q.value(31).isNull()) {
            l.originalPayload = q.value(31).toByteArray();
            l.originalPayloadIsText = false;
        } else {
            l.originalPayload = q.value(30).toString().toUtf8();
        }
        l.originalHeaders = q.value(32).toString().toUtf8();
        if (!q.value(33).isNull())
            l.originalRawHeaders = decodeRawHeaders(q.value(33).toString().toUtf8());
        l.editedAt = d.toDateTime(q.value(34));
        l.editedBy = q.value(35).toString();
    }
    return l;
}

QByteArray DeadLetter::exactKey() const
{
    if (!key.isNull())
        return key;
    if (messageKey.isNull())
        return {};
    const QByteArray text = messageKey.toUtf8();
    return text.isNull() ? QByteArray("") : text;
}

QVector<DeadLetter::Header> DeadLetter::exactHeaders() const
{
    if (!rawHeaders.isEmpty())
        return rawHeaders;
    QVector<Header> list;
    const QJsonObject o = QJsonDocument::fromJson(headers).object();
    for (auto it = o.begin(); it != o.end(); ++it) {
        const QByteArray value =
            it->isString() ? it->toString().toUtf8()
                           : QJsonDocument(QJsonArray{*it}).toJson(QJsonDocument::Compact).mid(1).chopped(1);
        list.append({it.key().toUtf8(), value});
    }
    return list;
}

QString DeadLetter::storableEventId(const QString& eventId)
{
    if (eventId.size() <= MaxEventIdLength && !eventId.contains(QChar(0)))
        return eventId;
    QString prefix = eventId.left(150);
    prefix.replace(QChar(0), QChar(0xFFFD));
    const QByteArray hash = QCryptographicHash::hash(eventId.toUtf8(), QCryptographicHash::Sha256).toHex();
    return prefix + QStringLiteral("…sha256:") + QString::fromLatin1(hash.left(16));
}

QJsonObject DeadLetter::toJson() const
{
    auto time = [](const QDateTime& t) {
        return t.isValid() ? QJsonValue(t.toString(Qt::ISODateWithMs)) : QJsonValue();
    };
    auto text = [](const QString& s) { return s.isNull() ? QJsonValue() : QJsonValue(s); };
    QJsonObject o;
    o[QStringLiteral("id")] = id;
    o[QStringLiteral("consumer_name")] = consumerName;
    o[QStringLiteral("event_id")] = text(eventId);
    o[QStringLiteral("topic")] = topic;
    o[QStringLiteral("source_partition")] = sourcePartition ? QJsonValue(*sourcePartition) : QJsonValue();
    o[QStringLiteral("source_offset")] = sourceOffset ? QJsonValue(*sourceOffset) : QJsonValue();
    o[QStringLiteral("message_key")] = messageKey.isNull() ? QJsonValue() : QJsonValue(messageKey);
    o[QStringLiteral("headers")] = QJsonDocument::fromJson(headers).object();
    // Binary payloads are not shown here (they are kept exactly and replayed as they came): only
    // their size, so that masking of what viewers see cannot be bypassed through an encoding.
    // A summary's cut payload is "payload_preview" (the detail route has all of it).
    const bool summary = payloadSize >= 0;
    const bool payloadCut = summary && payload.size() < payloadSize;
    o[QStringLiteral("payload")] =
        payloadIsText && !payloadCut ? QJsonValue(QString::fromUtf8(payload)) : QJsonValue();
    if (payloadIsText && payloadCut)
        o[QStringLiteral("payload_preview")] = QString::fromUtf8(payload);
    o[QStringLiteral("payload_is_binary")] = !payloadIsText;
    o[QStringLiteral("payload_bytes")] = summary ? payloadSize : qint64(payload.size());
    if (summary) {
        o[QStringLiteral("payload_size")] = payloadSize;
        o[QStringLiteral("payload_truncated")] = payloadCut;
    }
    o[QStringLiteral("error")] = error;
    o[QStringLiteral("stacktrace")] = text(stacktrace);
    if (summary) // the first characters only when cut
        o[QStringLiteral("stacktrace_truncated")] = stacktrace.toUtf8().size() < stacktraceSize;
    o[QStringLiteral("attempts")] = attempts;
    o[QStringLiteral("first_failed_at")] = time(firstFailedAt);
    o[QStringLiteral("last_failed_at")] = time(lastFailedAt);
    o[QStringLiteral("status")] = status;
    o[QStringLiteral("replay_token")] = text(replayToken);
    o[QStringLiteral("replay_topic")] = text(replayTopic);
    o[QStringLiteral("replay_count")] = replayCount;
    o[QStringLiteral("replayed_at")] = time(replayedAt);
    o[QStringLiteral("replayed_by")] = text(replayedBy);
    o[QStringLiteral("replay_attempts")] = replayAttempts;
    o[QStringLiteral("replay_error")] = text(replayError);
    o[QStringLiteral("replay_next_at")] = time(replayAvailableAt);
    o[QStringLiteral("replay_worker")] = text(replayWorker);
    o[QStringLiteral("replay_lease_until")] = time(replayLeaseUntil);
    o[QStringLiteral("storage_note")] = text(storageNote);
    o[QStringLiteral("edit_count")] = editCount;
    if (edited()) {
        // The message as it came, beside the edited one above (binary: only its size, as above).
        o[QStringLiteral("edited_at")] = time(editedAt);
        o[QStringLiteral("edited_by")] = text(editedBy);
        const bool originalCut = summary && originalPayload.size() < originalPayloadSize;
        QJsonObject original{
            {QStringLiteral("payload"), originalPayloadIsText && !originalCut
                                            ? QJsonValue(QString::fromUtf8(originalPayload))
                                            : QJsonValue()},
            {QStringLiteral("payload_is_binary"), !originalPayloadIsText},
            {QStringLiteral("payload_bytes"), summary ? originalPayloadSize : qint64(originalPayload.size())},
            {QStringLiteral("headers"), QJsonDocument::fromJson(originalHeaders).object()}};
        if (originalPayloadIsText && originalCut)
            original[QStringLiteral("payload_preview")] = QString::fromUtf8(originalPayload);
        if (summary)
            original[QStringLiteral("payload_truncated")] = originalCut;
        o[QStringLiteral("original")] = original;
    }
    return o;
}

} // namespace outbox
