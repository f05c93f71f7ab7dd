#pragma once

#include <QJsonObject>
#include <QStringList>

namespace outbox::web {

// Hides configured payload fields from viewers. A field is a dotted path into the JSON payload
// ("card.number"); arrays on the way are searched element by element.
class PayloadMasker
{
public:
    static inline const QString Mask = QStringLiteral("***");

    explicit PayloadMasker(QStringList fields = {});

    bool isEmpty() const { return m_paths.isEmpty(); }
    // An event or dead-letter object as the API renders it; its "payload" (object, or JSON text
    // for dead letters) is masked.
    QJsonObject maskRow(QJsonObject row) const;
    QJsonValue maskValue(const QJsonValue& payload) const;

private:
    static QJsonValue maskPath(const QJsonValue& value, const QStringList& path, int index);

    QList<QStringList> m_paths;
};

} // namespace outbox::web
