#include "core/db/ReservedHeaders.h"

namespace outbox {

const QStringList& ReservedHeaders::names()
{
    static const QStringList n{QStringLiteral("event_id"),       QStringLiteral("event_type"),
                               QStringLiteral("aggregate_type"), QStringLiteral("aggregate_id"),
                               QStringLiteral("schema_version"), QStringLiteral("aggregate_version")};
    return n;
}

const QStringList& ReservedHeaders::prefixes()
{
    static const QStringList p{QStringLiteral("x-replay-"), QStringLiteral("x-replayed-by")};
    return p;
}

bool ReservedHeaders::isReserved(const QByteArray& name)
{
    const QString n = QString::fromUtf8(name);
    if (names().contains(n))
        return true;
    for (const QString& p : prefixes())
        if (n.startsWith(p))
            return true;
    return false;
}

QString ReservedHeaders::sqlCondition(DatabaseKind kind, const QString& column)
{
    QStringList exact;
    for (const QString& n : names())
        exact << QLatin1Char('\'') + n + QLatin1Char('\'');
    QStringList like;
    for (const QString& p : prefixes())
        like << p + QLatin1Char('%');
    switch (kind) {
    case DatabaseKind::PostgreSql: {
        QStringList prefixed;
        for (const QString& p : like)
            prefixed << QStringLiteral("k LIKE '%1'").arg(p);
        // CASE, not AND: jsonb_object_keys of an array is an error, and AND does not fix the order.
        return QStringLiteral("(CASE WHEN jsonb_typeof(%1) = 'object' THEN EXISTS (SELECT 1 FROM "
                              "jsonb_object_keys(%1) AS keys(k) WHERE k IN (%2) OR %3) ELSE false END)")
            .arg(column, exact.join(QStringLiteral(", ")), prefixed.join(QStringLiteral(" OR ")));
    }
    case DatabaseKind::MySql: {
        // JSON_KEYS gives the member names as a JSON array's text: ["event_id", "traceparent"].
        QStringList any;
        for (const QString& n : names())
            any << QStringLiteral("JSON_CONTAINS(JSON_KEYS(%1), '\"%2\"')").arg(column, n);
        for (const QString& p : like)
            any << QStringLiteral("JSON_KEYS(%1) LIKE '%\"%2'").arg(column, p);
        return QStringLiteral("(CASE WHEN JSON_VALID(%1) AND JSON_TYPE(%1) = 'OBJECT' THEN (%2) ELSE 0 END)")
            .arg(column, any.join(QStringLiteral(" OR ")));
    }
    case DatabaseKind::Sqlite: {
        QStringList prefixed;
        for (const QString& p : like)
            prefixed << QStringLiteral("key LIKE '%1'").arg(p);
        return QStringLiteral("(json_valid(%1) AND json_type(%1) = 'object' AND EXISTS (SELECT 1 FROM "
                              "json_each(%1) WHERE key IN (%2) OR %3))")
            .arg(column, exact.join(QStringLiteral(", ")), prefixed.join(QStringLiteral(" OR ")));
    }
    }
    return QStringLiteral("0 = 1");
}

} // namespace outbox
