#pragma once

#include "core/db/Dialect.h"

namespace outbox {

// SQLite 3.35+ (RETURNING). Timestamps are UTC text 'YYYY-MM-DD HH:MM:SS.SSS', which sorts as time.
// Writers serialise on BEGIN IMMEDIATE; WAL lets readers run beside them.
class SqliteDialect final : public Dialect
{
public:
    explicit SqliteDialect(QString prefix) : Dialect(std::move(prefix)) {}

    DatabaseKind kind() const override { return DatabaseKind::Sqlite; }
    QString driverName() const override { return QStringLiteral("QSQLITE"); }
    bool hasServer() const override { return false; }
    Status checkBeforeOpen(const DatabaseUrl& url) const override;
    QStringList connectOptions(const DatabaseUrl& url, int connectTimeoutSeconds) const override;
    QStringList sessionSetup() const override;
    QString beginWrite() const override { return QStringLiteral("BEGIN IMMEDIATE"); }
    QString now() const override;
    QString nowPlusMillis(const QString& placeholder) const override;
    QString forUpdate() const override { return {}; }
    QString forUpdateSkipLocked() const override { return {}; }
    QString changeCounter() const override { return QStringLiteral("PRAGMA data_version"); }
    bool hasUpdateReturning() const override { return true; }
    QVector<Migration> migrations() const override;
    QString timestampType() const override { return QStringLiteral("TEXT"); }
    QDateTime toDateTime(const QVariant& value) const override;
    QVariant fromDateTime(const QDateTime& value) const override;
};

} // namespace outbox
