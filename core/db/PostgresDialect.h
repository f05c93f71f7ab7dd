#pragma once

#include "core/db/Dialect.h"

namespace outbox {

class PostgresDialect final : public Dialect
{
public:
    explicit PostgresDialect(QString prefix) : Dialect(std::move(prefix)) {}

    DatabaseKind kind() const override { return DatabaseKind::PostgreSql; }
    QString driverName() const override { return QStringLiteral("QPSQL"); }
    int defaultPort() const override { return 5432; }
    QStringList urlOptions() const override;
    QStringList connectOptions(const DatabaseUrl& url, int connectTimeoutSeconds) const override;
    QStringList sessionSetup() const override;
    QStringList statementTimeout(int ms) const override;
    QString beginWrite() const override { return QStringLiteral("BEGIN"); }
    QString now() const override { return QStringLiteral("now()"); }
    QString nowPlusMillis(const QString& placeholder) const override;
    QString forUpdate() const override { return QStringLiteral(" FOR UPDATE"); }
    QString forUpdateSkipLocked() const override { return QStringLiteral(" FOR UPDATE SKIP LOCKED"); }
    bool hasUpdateReturning() const override { return true; }
    QString jsonValue(const QString& placeholder) const override;
    QString integerValue(const QString& placeholder) const override
    {
        return QStringLiteral("CAST(%1 AS bigint)").arg(placeholder);
    }
    QString bigintArray(const QString& placeholder) const override
    {
        return QStringLiteral("CAST(%1 AS bigint[])").arg(placeholder);
    }
    QString textArray(const QString& placeholder) const override
    {
        return QStringLiteral("CAST(%1 AS text[])").arg(placeholder);
    }
    QString containsIgnoringCase(const QString& column, const QString& placeholder) const override;
    // jsonb payloads are cut as their text.
    QString textPrefix(const QString& column, const QString& placeholder) const override
    {
        return QStringLiteral("left(%1::text, %2)").arg(column, placeholder);
    }
    QString textBytes(const QString& column) const override
    {
        return QStringLiteral("octet_length(%1::text)").arg(column);
    }
    QString binaryBytes(const QString& column) const override
    {
        return QStringLiteral("octet_length(%1)").arg(column);
    }
    QString jsonArrayContainsInteger(const QString& column, const QString& placeholder) const override;
    QString jsonTextEquals(const QString& column, const QString& pathPlaceholder,
                           const QString& valuePlaceholder) const override;
    QString traceIdExpression() const override;
    QVariant jsonPath(const QStringList& segments, bool arrayIndexes) const override;
    QString tableStatistics() const override;
    QStringList migrationLock() const override;
    QStringList migrationUnlock() const override;
    QVector<Migration> migrations() const override;
    QString timestampType() const override { return QStringLiteral("timestamptz"); }
    // Every timestamp column is timestamptz, which the driver hands back as an instant in the
    // process's local time zone: converted, never relabelled (see Dialect::toDateTime()).
    QDateTime toDateTime(const QVariant& value) const override;
    QString estimatedRowCount() const override;
    bool supportsNotifications() const override { return true; }
    QString newEventsTriggerState() const override;
    QString switchNewEventsTrigger(bool enabled) const override;
    QStringList lockTimeout(int ms) const override;
    bool supportsHeldClaims() const override { return true; }
    bool supportsTableHealth() const override { return true; }
    QStringList runtimeGrants(const QString& role, const QString& databaseName) const override;
};

} // namespace outbox
