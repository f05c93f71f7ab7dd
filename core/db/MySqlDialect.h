#pragma once

#include "core/db/Dialect.h"

namespace outbox {

// MySQL 8 and MariaDB 10.6+ (both have SKIP LOCKED; neither has partial indexes nor UPDATE … RETURNING).
class MySqlDialect final : public Dialect
{
public:
    explicit MySqlDialect(QString prefix) : Dialect(std::move(prefix)) {}

    DatabaseKind kind() const override { return DatabaseKind::MySql; }
    QString driverName() const override { return QStringLiteral("QMYSQL"); }
    int defaultPort() const override { return 3306; }
    QStringList urlOptions() const override;
    QStringList connectOptions(const DatabaseUrl& url, int connectTimeoutSeconds) const override;
    QStringList sessionSetup() const override;
    QStringList statementTimeout(int ms) const override;
    QString beginWrite() const override { return QStringLiteral("START TRANSACTION"); }
    QString beginRead() const override { return QStringLiteral("START TRANSACTION"); }
    QString now() const override { return QStringLiteral("UTC_TIMESTAMP(6)"); }
    QString nowPlusMillis(const QString& placeholder) const override;
    QString forUpdate() const override { return QStringLiteral(" FOR UPDATE"); }
    QString forUpdateSkipLocked() const override { return QStringLiteral(" FOR UPDATE SKIP LOCKED"); }
    bool hasUpdateReturning() const override { return false; }
    QString containsIgnoringCase(const QString& column, const QString& placeholder) const override;
    QString textPrefix(const QString& column, const QString& placeholder) const override
    {
        return QStringLiteral("LEFT(%1, %2)").arg(column, placeholder);
    }
    QString textBytes(const QString& column) const override
    {
        return QStringLiteral("LENGTH(%1)").arg(column);
    }
    QString binaryPrefix(const QString& column, const QString& placeholder) const override
    {
        return QStringLiteral("SUBSTRING(%1, 1, %2)").arg(column, placeholder);
    }
    QString jsonArrayContainsInteger(const QString& column, const QString& placeholder) const override;
    QString jsonTextEquals(const QString& column, const QString& pathPlaceholder,
                           const QString& valuePlaceholder) const override;
    // The indexed virtual column migration 13 added (MariaDB indexes no expression).
    QString traceIdExpression() const override { return QStringLiteral("trace_id"); }
    QString boundedDelete(const QString& table, const QString& condition) const override
    {
        // MariaDB cannot select from the table it deletes from, but has DELETE … ORDER BY … LIMIT.
        return QStringLiteral("DELETE FROM %1 WHERE %2 ORDER BY id LIMIT :limit").arg(table, condition);
    }
    QString insertIfAbsent(const QString& table, const QString& columns, const QString& values,
                           const QString&) const override
    {
        // IGNORE only downgrades the duplicate-key error here: every value is bound and well-formed.
        return QStringLiteral("INSERT IGNORE INTO %1 (%2) VALUES (%3)").arg(table, columns, values);
    }
    QStringList migrationLock() const override;
    QStringList migrationUnlock() const override;
    bool transactionalDdl() const override { return false; }
    QVector<Migration> migrations() const override;
    QString timestampType() const override { return QStringLiteral("DATETIME(6)"); }
    QString estimatedRowCount() const override;
    QStringList runtimeGrants(const QString& role, const QString& databaseName) const override;
};

} // namespace outbox
