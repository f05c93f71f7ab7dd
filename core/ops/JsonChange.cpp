#include "core/ops/JsonChange.h"

#include "core/support/JsonText.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <functional>

namespace outbox {

namespace {

constexpr int MaxPathDepth = 32;
constexpr int MaxDifferences = 50; // listed per payload; the count says the rest

QJsonValue valueOf(const QString& text)
{
    QJsonParseError error{};
    const QJsonDocument doc = QJsonDocument::fromJson(QByteArray("[") + text.toUtf8() + ']', &error);
    if (error.error == QJsonParseError::NoError && doc.isArray() && doc.array().size() == 1)
        return doc.array().at(0);
    return QJsonValue(text); // not JSON: the text itself
}

// A value as JSON text ("\"a\"", 42, null).
QString jsonText(const QJsonValue& v)
{
    const QString text = QString::fromUtf8(QJsonDocument(QJsonArray{v}).toJson(QJsonDocument::Compact));
    return text.mid(1, text.size() - 2); // without the array's brackets
}

// The same, shortened for a preview line.
QString render(const QJsonValue& v)
{
    const QString text = jsonText(v);
    return text.size() > 200 ? text.left(199) + QChar(0x2026) : text;
}

Result<QStringList> parsePath(const QString& text, bool emptyAllowed)
{
    if (text.trimmed().isEmpty()) {
        if (emptyAllowed)
            return QStringList();
        return Error::usage(JsonChange::tr("a path is required (members separated by dots, e.g. "
                                           "customer.email or items.0.sku)"));
    }
    const QStringList parts = text.trimmed().split(QLatin1Char('.'));
    if (parts.size() > MaxPathDepth)
        return Error::usage(JsonChange::tr("the path is deeper than %1 members").arg(MaxPathDepth));
    for (const QString& p : parts)
        if (p.isEmpty())
            return Error::usage(JsonChange::tr("the path \"%1\" has an empty member").arg(text));
    return parts;
}

QString joinPath(const QString& base, const QString& member)
{
    return base.isEmpty() ? member : base + QLatin1Char('.') + member;
}

// Sets `path` (from index `at`) in `node` to `value`; returns false with `why` when it cannot.
bool setAt(QJsonValue& node, const QStringList& path, int at, const QJsonValue& value, const QString& where,
           JsonChange::Outcome& out)
{
    const QString key = path.at(at);
    const QString here = joinPath(where, key);
    const bool last = at == path.size() - 1;
    if (node.isObject()) {
        QJsonObject o = node.toObject();
        if (last) {
            const QJsonValue old = o.value(key);
            if (old != value || !o.contains(key)) {
                out.differences << QStringLiteral("%1: %2 \u2192 %3")
                                       .arg(here, o.contains(key) ? render(old) : JsonChange::tr("(missing)"),
                                            render(value));
                o.insert(key, value);
                out.changed = true;
            }
        } else {
            if (!o.contains(key)) {
                out.why = JsonChange::tr("%1 is missing").arg(here);
                return false;
            }
            QJsonValue child = o.value(key);
            if (!setAt(child, path, at + 1, value, here, out))
                return false;
            o.insert(key, child);
        }
        node = o;
        return true;
    }
    if (node.isArray()) {
        bool ok = false;
        const int index = key.toInt(&ok);
        QJsonArray a = node.toArray();
        if (!ok || index < 0 || index >= a.size()) {
            out.why = JsonChange::tr("%1 is not an element of an array of %2").arg(here).arg(a.size());
            return false;
        }
        QJsonValue child = a.at(index);
        if (last) {
            if (child != value) {
                out.differences << QStringLiteral("%1: %2 \u2192 %3").arg(here, render(child), render(value));
                a.replace(index, value);
                out.changed = true;
            }
        } else {
            if (!setAt(child, path, at + 1, value, here, out))
                return false;
            a.replace(index, child);
        }
        node = a;
        return true;
    }
    out.why = JsonChange::tr("%1 is inside a value that is neither an object nor an array")
                  .arg(where.isEmpty() ? key : where);
    return false;
}

// Replaces every value equal to `from` below `node` by `to`.
void replaceAll(QJsonValue& node, const QJsonValue& from, const QJsonValue& to, const QString& where,
                JsonChange::Outcome& out)
{
    if (node == from) {
        if (out.differences.size() < MaxDifferences)
            out.differences << QStringLiteral("%1: %2 \u2192 %3")
                                   .arg(where.isEmpty() ? QStringLiteral("(payload)") : where, render(from),
                                        render(to));
        node = to;
        out.changed = true;
        return;
    }
    if (node.isObject()) {
        QJsonObject o = node.toObject();
        for (auto it = o.begin(); it != o.end(); ++it) {
            QJsonValue child = it.value();
            replaceAll(child, from, to, joinPath(where, it.key()), out);
            it.value() = child;
        }
        node = o;
    } else if (node.isArray()) {
        QJsonArray a = node.toArray();
        for (int i = 0; i < a.size(); ++i) {
            QJsonValue child = a.at(i);
            replaceAll(child, from, to, joinPath(where, QString::number(i)), out);
            a.replace(i, child);
        }
        node = a;
    }
}

// The value at `path`, for replace with a path; false with `why` when it is not there.
bool findAt(QJsonValue& root, const QStringList& path,
            const std::function<void(QJsonValue&, const QString&)>& visit, JsonChange::Outcome& out)
{
    // Walk down, remembering the way, then write back up.
    QVector<QJsonValue> chain{root};
    QString where;
    for (const QString& key : path) {
        const QJsonValue& node = chain.last();
        where = joinPath(where, key);
        if (node.isObject() && node.toObject().contains(key)) {
            chain << node.toObject().value(key);
        } else if (node.isArray()) {
            bool ok = false;
            const int index = key.toInt(&ok);
            if (!ok || index < 0 || index >= node.toArray().size()) {
                out.why = JsonChange::tr("%1 is missing").arg(where);
                return false;
            }
            chain << node.toArray().at(index);
        } else {
            out.why = JsonChange::tr("%1 is missing").arg(where);
            return false;
        }
    }
    visit(chain.last(), where);
    for (int i = path.size() - 1; i >= 0; --i) {
        QJsonValue& parent = chain[i];
        if (parent.isObject()) {
            QJsonObject o = parent.toObject();
            o.insert(path.at(i), chain.at(i + 1));
            parent = o;
        } else {
            QJsonArray a = parent.toArray();
            a.replace(path.at(i).toInt(), chain.at(i + 1));
            parent = a;
        }
    }
    root = chain.first();
    return true;
}

} // namespace

Result<JsonChange> JsonChange::at(Kind kind, const QString& path)
{
    auto parts = parsePath(path, kind == Kind::Replace);
    if (!parts)
        return parts.error();
    JsonChange c;
    c.m_kind = kind;
    c.m_path = *parts;
    return c;
}

Result<JsonChange> JsonChange::set(const QString& path, const QString& value)
{
    auto c = at(Kind::Set, path);
    if (c)
        c->m_value = valueOf(value);
    return c;
}

Result<JsonChange> JsonChange::replace(const QString& path, const QString& from, const QString& to)
{
    auto c = at(Kind::Replace, path);
    if (!c)
        return c;
    c->m_from = valueOf(from);
    c->m_value = valueOf(to);
    if (c->m_from == c->m_value)
        return Error::usage(tr("replacing a value with itself changes nothing"));
    return c;
}

Result<JsonChange> JsonChange::fromJson(const QJsonObject& json)
{
    const auto text = [](const QJsonValue& v) { return jsonText(v); };
    if (json.contains(QStringLiteral("set"))) {
        if (!json.value(QStringLiteral("set")).isString() || !json.contains(QStringLiteral("value")))
            return Error::usage(tr("a set change needs \"set\" (a path) and \"value\""))
                .about(QStringLiteral("change"));
        return set(json.value(QStringLiteral("set")).toString(), text(json.value(QStringLiteral("value"))));
    }
    if (json.contains(QStringLiteral("replace"))) {
        if (!json.value(QStringLiteral("replace")).isString() || !json.contains(QStringLiteral("from")) ||
            !json.contains(QStringLiteral("to")))
            return Error::usage(
                       tr("a replace change needs \"replace\" (a path, or \"\" for anywhere), \"from\" "
                          "and \"to\""))
                .about(QStringLiteral("change"));
        return replace(json.value(QStringLiteral("replace")).toString(),
                       text(json.value(QStringLiteral("from"))), text(json.value(QStringLiteral("to"))));
    }
    return Error::usage(tr("the change is {\"set\": PATH, \"value\": V} or {\"replace\": PATH, \"from\": V, "
                           "\"to\": V}"))
        .about(QStringLiteral("change"));
}

QString JsonChange::describe() const
{
    if (m_kind == Kind::Set)
        return tr("set %1 = %2").arg(path(), render(m_value));
    if (m_path.isEmpty())
        return tr("replace %1 with %2 anywhere in the payload").arg(render(m_from), render(m_value));
    return tr("replace %1 with %2 in %3").arg(render(m_from), render(m_value), path());
}

QJsonObject JsonChange::toJson() const
{
    if (m_kind == Kind::Set)
        return QJsonObject{{QStringLiteral("set"), path()}, {QStringLiteral("value"), m_value}};
    return QJsonObject{{QStringLiteral("replace"), path()},
                       {QStringLiteral("from"), m_from},
                       {QStringLiteral("to"), m_value}};
}

JsonChange::Outcome JsonChange::apply(const QByteArray& payload) const
{
    Outcome out;
    QJsonParseError error{};
    const QJsonDocument doc = QJsonDocument::fromJson(payload, &error);
    if (error.error != QJsonParseError::NoError || doc.isNull()) {
        out.why = tr("the payload is not JSON (%1 at byte %2)")
                      .arg(JsonText::parseError(error.error))
                      .arg(error.offset);
        return out;
    }
    QJsonValue root = doc.isObject() ? QJsonValue(doc.object()) : QJsonValue(doc.array());
    if (m_kind == Kind::Set) {
        if (!setAt(root, m_path, 0, m_value, QString(), out))
            return out;
    } else if (m_path.isEmpty()) {
        replaceAll(root, m_from, m_value, QString(), out);
    } else if (!findAt(
                   root, m_path,
                   [&](QJsonValue& v, const QString& where) { replaceAll(v, m_from, m_value, where, out); },
                   out)) {
        return out;
    }
    out.applies = true;
    if (!out.changed) {
        out.why = m_kind == Kind::Set ? tr("%1 has that value already").arg(path())
                                      : tr("no value %1 in the payload").arg(render(m_from));
        return out;
    }
    out.payload = (root.isObject() ? QJsonDocument(root.toObject()) : QJsonDocument(root.toArray()))
                      .toJson(QJsonDocument::Compact);
    return out;
}

} // namespace outbox
