#include "core/support/PayloadMasker.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QVector>

namespace outbox {

namespace {

// Runs of digits with single spaces or dashes between them ("2024-05-01 4111 1111 1111 1111"
// is one run). A card number is any part of a run that starts and ends at a group boundary, holds
// 13 to 19 digits and passes the Luhn check: a date, an item count or an order number written
// before the card does not hide it, and a long unbroken number (an id) is not cut into cards.
const QRegularExpression& digitRuns()
{
    static const QRegularExpression re(QStringLiteral("\\d+(?:[ -]\\d+)*"));
    return re;
}

bool passesLuhn(QStringView digits)
{
    int sum = 0;
    bool twice = false;
    for (qsizetype i = digits.size() - 1; i >= 0; --i) {
        int d = digits.at(i).digitValue();
        if (twice) {
            d *= 2;
            if (d > 9)
                d -= 9;
        }
        sum += d;
        twice = !twice;
    }
    return sum % 10 == 0;
}

struct Group
{
    qsizetype start; // in the text
    qsizetype end;
    qsizetype digitsBefore; // digits of the run before this group
};

// Masks the card numbers of one run: every part that could be a card (so a date or count whose
// digits happen to pass with part of the card cannot leave the rest of it in clear); appends the
// run, masked, to `out`.
void maskRun(QStringView run, qsizetype offset, const QString& text, QString& out)
{
    QString digits;
    QVector<Group> groups;
    qsizetype i = 0;
    while (i < run.size()) {
        const qsizetype start = i;
        while (i < run.size() && run.at(i).isDigit())
            ++i;
        groups.push_back({offset + start, offset + i, digits.size()});
        digits += run.mid(start, i - start);
        ++i; // the separator
    }
    QVector<bool> hidden(groups.size(), false); // per group
    for (qsizetype g = 0; g < groups.size(); ++g) {
        for (qsizetype e = g; e < groups.size(); ++e) {
            const qsizetype count =
                groups[e].digitsBefore + (groups[e].end - groups[e].start) - groups[g].digitsBefore;
            if (count > 19)
                break;
            if (count >= 13 && passesLuhn(QStringView(digits).mid(groups[g].digitsBefore, count)))
                for (qsizetype k = g; k <= e; ++k)
                    hidden[k] = true;
        }
    }
    qsizetype last = offset; // text before it is in `out`
    for (qsizetype g = 0; g < groups.size();) {
        if (!hidden[g]) {
            ++g;
            continue;
        }
        qsizetype e = g;
        while (e + 1 < groups.size() && hidden[e + 1])
            ++e;
        out += QStringView(text).mid(last, groups[g].start - last);
        out += PayloadMasker::Mask;
        last = groups[e].end;
        g = e + 1;
    }
    out += QStringView(text).mid(last, offset + run.size() - last);
}

QString maskCardNumbers(const QString& text)
{
    QString out;
    qsizetype last = 0;
    auto it = digitRuns().globalMatch(text);
    while (it.hasNext()) {
        const auto m = it.next();
        if (m.capturedLength() < 13) // fewer than 13 digits: no card in it
            continue;
        out += QStringView(text).mid(last, m.capturedStart() - last);
        maskRun(m.capturedView(), m.capturedStart(), text, out);
        last = m.capturedEnd();
    }
    if (last == 0)
        return text;
    out += QStringView(text).mid(last);
    return out;
}

} // namespace

bool PayloadMasker::masksHeader(const QString& key) const
{
    for (const QStringList& path : m_headerPaths)
        if (path.value(0) == key)
            return true;
    return false;
}

PayloadMasker::PayloadMasker(QStringList fields, QStringList patterns)
{
    QStringList names;
    for (const QString& f : fields) {
        QString path = f.trimmed();
        bool payload = true;
        bool headers = true;
        if (path.startsWith(QLatin1String("payload."))) {
            path = path.mid(8);
            headers = false;
        } else if (path.startsWith(QLatin1String("headers."))) {
            path = path.mid(8);
            payload = false;
        }
        if (path.isEmpty())
            continue;
        const QStringList segments = path.split(QLatin1Char('.'));
        if (payload)
            m_payloadPaths << segments;
        if (headers)
            m_headerPaths << segments;
        if (!names.contains(segments.last()))
            names << segments.last();
    }
    for (const QString& name : names) {
        // name=value, name: value, "name": "value" (the value up to a separator, or quoted).
        m_namedValues << QRegularExpression(
            QStringLiteral("(?<![\\w.-])([\"']?%1[\"']?\\s*[:=]\\s*)(\"(?:[^\"\\\\]|\\\\.)*\"|'[^']*'|"
                           "(?:(?:Bearer|Basic|Digest|Token|Negotiate|NTLM|Bot|ApiKey|AWS4-HMAC-SHA256)\\s+)?"
                           "[^\\s,;&}\\]]+)")
                .arg(QRegularExpression::escape(name)),
            QRegularExpression::CaseInsensitiveOption);
    }
    for (const QString& p : patterns) {
        if (p.trimmed() == CardNumbers) {
            m_cardNumbers = true;
            continue;
        }
        QRegularExpression re(p);
        if (re.isValid() && !p.isEmpty())
            m_textPatterns << re; // WebConfig refuses invalid ones with a clear error first
    }
}

QJsonValue PayloadMasker::maskPath(const QJsonValue& value, const QStringList& path, int index)
{
    if (value.isArray()) {
        QJsonArray out;
        for (const QJsonValue& v : value.toArray())
            out.append(maskPath(v, path, index));
        return out;
    }
    if (!value.isObject())
        return value;
    QJsonObject o = value.toObject();
    const QString& key = path.at(index);
    if (!o.contains(key))
        return o;
    o[key] = index + 1 == path.size() ? QJsonValue(Mask) : maskPath(o.value(key), path, index + 1);
    return o;
}

QJsonValue PayloadMasker::maskFields(QJsonValue value, const QList<QStringList>& paths) const
{
    for (const QStringList& path : paths)
        value = maskPath(value, path, 0);
    return value;
}

QJsonValue PayloadMasker::maskStrings(const QJsonValue& value) const
{
    if (value.isString())
        return maskText(value.toString());
    if (value.isArray()) {
        QJsonArray out;
        for (const QJsonValue& v : value.toArray())
            out.append(maskStrings(v));
        return out;
    }
    if (value.isObject()) {
        QJsonObject o = value.toObject();
        for (auto it = o.begin(); it != o.end(); ++it)
            it.value() = maskStrings(it.value());
        return o;
    }
    return value;
}

QString PayloadMasker::maskText(const QString& text) const
{
    if (text.isEmpty())
        return text;
    QString out = m_cardNumbers ? maskCardNumbers(text) : text;
    for (const QRegularExpression& re : m_namedValues)
        out.replace(re, QStringLiteral("\\1") + Mask); // keep "name=", hide the value
    for (const QRegularExpression& re : m_textPatterns)
        out.replace(re, Mask);
    return out;
}

QJsonValue PayloadMasker::maskValue(const QJsonValue& payload) const
{
    return maskStrings(maskFields(payload, m_payloadPaths));
}

QString PayloadMasker::maskEncoded(const QString& text, const QList<QStringList>& paths,
                                   bool hideOpaque) const
{
    if (text.isEmpty())
        return text;
    const QJsonDocument doc = QJsonDocument::fromJson(text.toUtf8());
    if (doc.isObject() || doc.isArray()) {
        const QJsonValue masked = maskStrings(
            maskFields(doc.isObject() ? QJsonValue(doc.object()) : QJsonValue(doc.array()), paths));
        const QJsonDocument out =
            masked.isObject() ? QJsonDocument(masked.toObject()) : QJsonDocument(masked.toArray());
        return QString::fromUtf8(out.toJson(QJsonDocument::Compact));
    }
    return hideOpaque ? Mask : maskText(text);
}

QString PayloadMasker::endBeforeCut(QString text)
{
    static const QRegularExpression cutWord(QStringLiteral("[^\\s,;:\"'{}\\[\\]()<>=&]+$"));
    static const QRegularExpression numbers(QStringLiteral("[0-9][0-9 \\-]*$"));
    text.remove(cutWord);
    text.remove(numbers);
    return text;
}

QJsonObject PayloadMasker::maskRow(QJsonObject row) const
{
    if (isEmpty())
        return row;
    for (auto it = row.begin(); it != row.end(); ++it) {
        const QString& key = it.key();
        QJsonValue v = it.value();
        if (key == QLatin1String("payload_preview") ||
            (key == QLatin1String("stacktrace") &&
             row.value(QStringLiteral("stacktrace_truncated")).toBool())) {
            // Cut by the list's preview: a secret cut in half is too short for its pattern (a card
            // number needs 13 digits), so the text ends before the cut word and the numbers before it.
            if (v.isString())
                v = endBeforeCut(v.toString());
        }
        if (key == QLatin1String("payload") || key == QLatin1String("payload_preview")) {
            // A list's preview is cut JSON: not JSON any more, so hidden whole when fields are
            // configured, like opaque bytes.
            // Dead letters keep the original bytes as text: masked as JSON if they are JSON;
            // opaque bytes are hidden whole when fields are configured (they cannot be found).
            v = v.isString()
                    ? QJsonValue(maskEncoded(v.toString(), m_payloadPaths, !m_payloadPaths.isEmpty()))
                    : maskValue(v);
        } else if (key == QLatin1String("headers")) {
            v = v.isString() ? QJsonValue(maskEncoded(v.toString(), m_headerPaths, false))
                             : maskStrings(maskFields(v, m_headerPaths));
        } else if (key == QLatin1String("message_key")) {
            if (v.isString())
                v = maskEncoded(v.toString(), m_payloadPaths, false);
        } else if (key == QLatin1String("last_error") || key == QLatin1String("error") ||
                   key == QLatin1String("stacktrace") || key == QLatin1String("reason") ||
                   key == QLatin1String("summary") || key == QLatin1String("example") ||
                   key == QLatin1String("fingerprint")) {
            // A failure group's example and fingerprint are error texts (the fingerprint keeps a
            // secret's shape); a trace step's summary quotes errors, keys and reasons.
            if (v.isString())
                v = maskText(v.toString());
        } else if (key == QLatin1String("event") && v.isObject()) {
            v = maskRow(v.toObject()); // a trace's event
        } else if (key == QLatin1String("steps") && v.isArray()) {
            QJsonArray steps;
            for (const QJsonValue& step : v.toArray())
                steps.append(step.isObject() ? QJsonValue(maskRow(step.toObject())) : maskStrings(step));
            v = steps;
        } else if (key == QLatin1String("details") && v.isObject()) {
            v = maskStrings(maskRow(v.toObject())); // a trace step's details: errors, audit reasons, filters
        } else if (key == QLatin1String("original") && v.isObject()) {
            v = maskRow(v.toObject()); // an edited dead letter's message as it came
        } else if (key == QLatin1String("payload_base64")) {
            v = Mask; // binary bytes cannot be searched for fields: hidden whole
        } else if ((key == QLatin1String("before") || key == QLatin1String("after")) && v.isObject()) {
            v = maskStrings(maskRow(v.toObject())); // audit states; a dead-letter edit's messages
        } else if (key == QLatin1String("filter") || key == QLatin1String("before") ||
                   key == QLatin1String("after") || key == QLatin1String("target")) {
            v = maskStrings(v); // an audit entry's recorded filter and states, a job's target
        } else {
            continue;
        }
        it.value() = v;
    }
    return row;
}

QJsonObject PayloadMasker::maskSnapshot(QJsonObject snapshot) const
{
    if (isEmpty())
        return snapshot;
    QJsonArray relays = snapshot.value(QStringLiteral("relays")).toArray();
    for (auto it = relays.begin(); it != relays.end(); ++it) {
        QJsonObject r = it->toObject();
        if (r.value(QStringLiteral("last_error")).isString())
            r[QStringLiteral("last_error")] = maskText(r.value(QStringLiteral("last_error")).toString());
        *it = r;
    }
    snapshot[QStringLiteral("relays")] = relays;
    if (snapshot.value(QStringLiteral("sampler_error")).isString())
        snapshot[QStringLiteral("sampler_error")] =
            maskText(snapshot.value(QStringLiteral("sampler_error")).toString());
    return snapshot;
}

} // namespace outbox
