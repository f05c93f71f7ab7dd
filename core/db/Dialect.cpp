#include "core/db/Dialect.h"

#include "core/db/MySqlDialect.h"
#include "core/db/PostgresDialect.h"
#include "core/db/SqliteDialect.h"

#include <QRegularExpression>
#include <QTimeZone>

namespace outbox {

std::unique_ptr<Dialect> Dialect::create(DatabaseKind kind, const QString& tablePrefix)
{
    switch (kind) {
    case DatabaseKind::PostgreSql:
        return std::make_unique<PostgresDialect>(tablePrefix);
    case DatabaseKind::MySql:
        return std::make_unique<MySqlDialect>(tablePrefix);
    case DatabaseKind::Sqlite:
        return std::make_unique<SqliteDialect>(tablePrefix);
    }
    return nullptr;
}

QString Dialect::containsIgnoringCase(const QString& column, const QString& placeholder) const
{
    return QStringLiteral("LOWER(%1) LIKE LOWER(%2) ESCAPE '!'").arg(column, placeholder);
}

QString Dialect::insertIfAbsent(const QString& table, const QString& columns, const QString& values,
                                const QString& uniqueColumns) const
{
    return QStringLiteral("INSERT INTO %1 (%2) VALUES (%3) ON CONFLICT (%4) DO NOTHING")
        .arg(table, columns, values, uniqueColumns);
}

QString Dialect::jsonArrayContainsInteger(const QString& column, const QString& placeholder) const
{
    return QStringLiteral("EXISTS (SELECT 1 FROM json_each(%1) WHERE json_each.value = %2)")
        .arg(column, placeholder);
}

QString Dialect::jsonTextEquals(const QString& column, const QString& pathPlaceholder,
                                const QString& valuePlaceholder) const
{
    // SQLite: json_extract hands back SQL values (1 for true, 42 for 42); compare their JSON text.
    return QStringLiteral("(CASE json_type(%1, %2) WHEN 'true' THEN 'true' WHEN 'false' THEN 'false' "
                          "WHEN 'object' THEN NULL WHEN 'array' THEN NULL "
                          "ELSE CAST(json_extract(%1, %2) AS TEXT) END) = %3")
        .arg(column, pathPlaceholder, valuePlaceholder);
}

QString Dialect::traceIdExpression() const
{
    // SQLite: an index on this expression (migration 13); headers are checked JSON.
    return QStringLiteral("substr(json_extract(headers, '$.traceparent'), 4, 32)");
}

QVariant Dialect::jsonPath(const QStringList& segments, bool arrayIndexes) const
{
    // MariaDB and SQLite: $."key"[0]."key" (segments hold no quote: see JsonPath).
    QString path = QStringLiteral("$");
    for (const QString& s : segments) {
        bool isIndex = false;
        if (arrayIndexes)
            s.toUInt(&isIndex);
        path += isIndex ? QStringLiteral("[%1]").arg(s) : QStringLiteral(".\"%1\"").arg(s);
    }
    return path;
}

QString Dialect::boundedDelete(const QString& table, const QString& condition) const
{
    return QStringLiteral("DELETE FROM %1 WHERE id IN (SELECT id FROM %1 WHERE %2 ORDER BY id LIMIT :limit)")
        .arg(table, condition);
}

QDateTime Dialect::toDateTime(const QVariant& value) const
{
    if (value.isNull())
        return {};
    QDateTime dt = value.toDateTime();
    if (!dt.isValid())
        return {};
    if (dt.timeSpec() == Qt::LocalTime) // driver dropped the zone; the column holds UTC
        dt = QDateTime(dt.date(), dt.time(), QTimeZone::utc());
    return dt.toUTC();
}

QVariant Dialect::fromDateTime(const QDateTime& value) const
{
    return value.toUTC();
}

QString Dialect::integerArrayText(const QVector<qint64>& values)
{
    QString text = QStringLiteral("{");
    for (int i = 0; i < values.size(); ++i) {
        if (i > 0)
            text += QLatin1Char(',');
        text += QString::number(values.at(i));
    }
    return text + QLatin1Char('}');
}

QString Dialect::textArrayText(const QStringList& values, EmptyText empty)
{
    QString text = QStringLiteral("{");
    for (int i = 0; i < values.size(); ++i) {
        if (i > 0)
            text += QLatin1Char(',');
        QString v = values.at(i);
        if (v.isEmpty() && empty == EmptyIsNull) {
            text += QLatin1String("NULL");
            continue;
        }
        text += QLatin1Char('"') +
                v.replace(QLatin1Char('\\'), QLatin1String("\\\\"))
                    .replace(QLatin1Char('"'), QLatin1String("\\\"")) +
                QLatin1Char('"');
    }
    return text + QLatin1Char('}');
}

QString Dialect::sql(QString statement) const
{
    static const char* const names[][2] = {
        {"{events}", "outbox_events"},
        {"{inbox}", "inbox_events"},
        {"{dead_letters}", "dead_letters"},
        {"{audit}", "outbox_audit_log"},
        {"{relays}", "outbox_relays"},
        {"{migrations}", "outbox_schema_migrations"},
        {"{consumer_counters}", "outbox_consumer_counters"},
        {"{held_claims}", "outbox_held_claims"},
    };
    for (const auto& n : names)
        statement.replace(QLatin1String(n[0]), m_prefix + QLatin1String(n[1]));
    return statement;
}

bool Dialect::validRuntimeRole(const QString& role, DatabaseKind kind)
{
    static const QRegularExpression name(QStringLiteral("^[A-Za-z_][A-Za-z0-9_]{0,62}$"));
    static const QRegularExpression userAtHost(
        QStringLiteral("^[A-Za-z_][A-Za-z0-9_]{0,62}@[A-Za-z0-9_.%:-]{1,255}$"));
    return name.match(role).hasMatch() || (kind == DatabaseKind::MySql && userAtHost.match(role).hasMatch());
}

QString Dialect::likePattern(const QString& text)
{
    QString escaped;
    escaped.reserve(text.size() + 2);
    escaped += QLatin1Char('%');
    for (const QChar c : text) {
        if (c == QLatin1Char('!') || c == QLatin1Char('%') || c == QLatin1Char('_'))
            escaped += QLatin1Char('!');
        escaped += c;
    }
    escaped += QLatin1Char('%');
    return escaped;
}

} // namespace outbox
