#include "ui/web/PayloadMasker.h"

#include <QJsonArray>
#include <QJsonDocument>

namespace outbox::web {

PayloadMasker::PayloadMasker(QStringList fields)
{
    for (const QString& f : fields) {
        QString path = f.trimmed();
        if (path.startsWith(QLatin1String("payload.")))
            path = path.mid(8);
        if (!path.isEmpty())
            m_paths << path.split(QLatin1Char('.'));
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

QJsonValue PayloadMasker::maskValue(const QJsonValue& payload) const
{
    QJsonValue v = payload;
    for (const QStringList& path : m_paths)
        v = maskPath(v, path, 0);
    return v;
}

QJsonObject PayloadMasker::maskRow(QJsonObject row) const
{
    if (m_paths.isEmpty())
        return row;
    const QJsonValue payload = row.value(QStringLiteral("payload"));
    if (payload.isString()) {
        // Dead letters keep the original bytes as text: mask them if they are JSON, else hide them.
        const QJsonDocument doc = QJsonDocument::fromJson(payload.toString().toUtf8());
        if (doc.isObject() || doc.isArray()) {
            const QJsonValue masked =
                maskValue(doc.isObject() ? QJsonValue(doc.object()) : QJsonValue(doc.array()));
            const QJsonDocument out =
                masked.isObject() ? QJsonDocument(masked.toObject()) : QJsonDocument(masked.toArray());
            row[QStringLiteral("payload")] = QString::fromUtf8(out.toJson(QJsonDocument::Compact));
        } else if (!payload.toString().isEmpty()) {
            row[QStringLiteral("payload")] = Mask;
        }
        return row;
    }
    row[QStringLiteral("payload")] = maskValue(payload);
    return row;
}

} // namespace outbox::web
