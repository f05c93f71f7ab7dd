#include "core/support/PayloadMasker.h"

#include <QHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QVector>
#include <algorithm>

namespace outbox {

namespace {

// What may stand between the digit groups of a card number: spaces, dashes and dots, and the
// spaces a text editor or a form puts there (no-break, figure, thin, narrow no-break, zero-width,
// word joiner, byte-order mark).
const QString& cardSeparator()
{
    static const QString s =
        QStringLiteral("[ \\-.\\x{00A0}\\x{2007}\\x{2009}\\x{200A}\\x{200B}\\x{202F}\\x{2060}\\x{FEFF}]");
    return s;
}

// Runs of digits (any script's: full-width "\uFF14\uFF11\uFF11\uFF11" is a card number too) with up to
// three separators between them ("2024-05-01 4111 1111 1111 1111" is one run). A card number is
// any 13 to 19 consecutive digits of a run that pass the Luhn check, wherever they start: a card
// glued into a longer number is found too. Every group a card touches is hidden, so a neighbouring
// date or count may be hidden with it: too much, never too little.
const QRegularExpression& digitRuns()
{
    static const QRegularExpression re(QStringLiteral("\\p{Nd}+(?:%1{1,3}\\p{Nd}+)*").arg(cardSeparator()));
    return re;
}

bool passesLuhn(QStringView digits)
{
    int sum = 0;
    for (qsizetype i = 0; i < digits.size(); ++i) {
        int d = digits.at(digits.size() - 1 - i).digitValue();
        if (i % 2 == 1)
            d = d * 2 > 9 ? d * 2 - 9 : d * 2;
        sum += d;
    }
    return sum % 10 == 0;
}

struct Group
{
    qsizetype start; // in the text
    qsizetype end;
};

// Masks the card numbers of one run: every 13 to 19 digit part that passes the Luhn check; appends
// the run, masked, to `out`.
void maskRun(QStringView run, qsizetype offset, const QString& text, QString& out)
{
    QVector<Group> groups;
    QVector<int> digits;  // values, in order
    QVector<int> groupOf; // per digit
    for (qsizetype i = 0; i < run.size();) {
        if (!run.at(i).isDigit()) {
            ++i;
            continue;
        }
        const qsizetype start = i;
        while (i < run.size() && run.at(i).isDigit()) {
            digits.push_back(run.at(i).digitValue());
            groupOf.push_back(int(groups.size()));
            ++i;
        }
        groups.push_back({offset + start, offset + i});
    }
    // Luhn sums of every window in constant time: doubled[p][i] is the sum of the first i digits
    // with the digits at positions of parity p doubled; a window's last digit is never doubled, so
    // the digits of the other parity are.
    const qsizetype n = digits.size();
    QVector<int> doubled[2] = {QVector<int>(n + 1, 0), QVector<int>(n + 1, 0)};
    for (qsizetype i = 0; i < n; ++i) {
        const int twice = digits[i] * 2 > 9 ? digits[i] * 2 - 9 : digits[i] * 2;
        for (int p = 0; p < 2; ++p)
            doubled[p][i + 1] = doubled[p][i] + (i % 2 == p ? twice : digits[i]);
    }
    QVector<bool> hidden(groups.size(), false);
    for (qsizetype s = 0; s < n; ++s) {
        // No card number starts with 0 (ISO/IEC 7812 issues no payment card under industry 0):
        // "20240131120000" holds the Luhn-valid "0240131120000", a time, not a card.
        if (digits[s] == 0)
            continue;
        for (qsizetype e = s + 13; e <= std::min(n, s + 19); ++e) { // the digits [s, e)
            const QVector<int>& sums = doubled[(e - 1) % 2 == 0 ? 1 : 0];
            if ((sums[e] - sums[s]) % 10 != 0)
                continue;
            for (int g = groupOf[s]; g <= groupOf[e - 1]; ++g)
                hidden[g] = true;
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
        if (path.value(0).compare(key, Qt::CaseInsensitive) == 0)
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
        // name=value, name: value, "name": "value" (the value up to a separator, or quoted), also
        // as escaped JSON inside a text (\"name\": \"value\") and URL-encoded (name%3Dvalue).
        // Built by concatenation: the pattern's own '%' (URL-encoding) must not meet QString::arg().
        m_namedValues << QRegularExpression(
            QStringLiteral("(?:(?<![\\w.-])|(?<=%[0-9A-Fa-f]{2}))((?:\\\\*[\"']|%22)?") +
                QRegularExpression::escape(name) +
                QStringLiteral("(?:\\\\*[\"']|%22)?\\s*(?:[:=]|%3[AaDd])\\s*)"
                               "(\\\\+\"(?:(?!\\\\+\").)*\\\\+\"|%22(?:(?!%22).)*%22|"
                               "\"(?:[^\"\\\\]|\\\\.)*\"|'[^']*'|"
                               "(?:(?:Bearer|Basic|Digest|Token|Negotiate|NTLM|Bot|ApiKey|AWS4-HMAC-SHA256)"
                               "(?:\\s|%20|\\+)+)?"
                               "[^\\s,;&}\\]]+)"),
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
    // Keys compared without case: a configured "authorization" hides "Authorization" and "SECRET"
    // as well (a bearer token in a header reached every viewer).
    QJsonObject o = value.toObject();
    const QString& name = path.at(index);
    for (auto it = o.begin(); it != o.end(); ++it) {
        if (it.key().compare(name, Qt::CaseInsensitive) != 0)
            continue;
        it.value() = index + 1 == path.size() ? QJsonValue(Mask) : maskPath(it.value(), path, index + 1);
    }
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
    if (value.isDouble() && m_cardNumbers) {
        // A card number stored as a JSON number ({"pan": 4111111111111111}).
        // The number whole, not windows of it: a number is one value (an id, a time in ms).
        const QString digits = QString::number(qAbs(value.toInteger(0)));
        if (digits.size() >= 13 && digits.size() <= 19 && passesLuhn(digits))
            return Mask;
        return value;
    }
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
    static const QRegularExpression numbers(QStringLiteral("\\p{Nd}(?:\\p{Nd}|%1)*$").arg(cardSeparator()));
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

QJsonArray PayloadMasker::maskGroups(const QJsonArray& rows, const QStringList& keys) const
{
    if (isEmpty())
        return rows;
    QJsonArray out;
    QHash<QString, qsizetype> index; // the masked keys' values -> the row in `out`
    for (const QJsonValue& v : rows) {
        const QJsonObject row = maskRow(v.toObject());
        QJsonArray key;
        for (const QString& k : keys)
            key.append(row.value(k));
        const QString id = QString::fromUtf8(QJsonDocument(key).toJson(QJsonDocument::Compact));
        const auto found = index.constFind(id);
        if (found == index.constEnd()) {
            index.insert(id, out.size());
            out.append(row);
            continue;
        }
        QJsonObject merged = out.at(*found).toObject();
        merged[QStringLiteral("count")] = merged.value(QStringLiteral("count")).toInteger() +
                                          row.value(QStringLiteral("count")).toInteger();
        merged[QStringLiteral("first_id")] = std::min(merged.value(QStringLiteral("first_id")).toInteger(),
                                                      row.value(QStringLiteral("first_id")).toInteger());
        out[*found] = merged;
    }
    // Largest first again: a merged group may have grown past others.
    QVector<QJsonObject> sorted;
    for (const QJsonValue& v : std::as_const(out))
        sorted.append(v.toObject());
    std::stable_sort(sorted.begin(), sorted.end(), [](const QJsonObject& a, const QJsonObject& b) {
        return a.value(QStringLiteral("count")).toInteger() > b.value(QStringLiteral("count")).toInteger();
    });
    QJsonArray result;
    for (const QJsonObject& o : std::as_const(sorted))
        result.append(o);
    return result;
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
