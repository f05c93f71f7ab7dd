#include "core/db/Migrator.h"

#include "core/db/Database.h"

#include <QSqlRecord>
#include <algorithm>

namespace outbox {

int Migrator::latestVersion() const
{
    int latest = 0;
    for (const Migration& m : m_db.dialect().migrations())
        latest = std::max(latest, m.version);
    return latest;
}

Status Migrator::ensureVersionTable()
{
    const QString ts = m_db.dialect().timestampType();
    auto q = m_db.exec(QStringLiteral("CREATE TABLE IF NOT EXISTS {migrations} (version INTEGER PRIMARY KEY, "
                                      "description VARCHAR(255) NOT NULL, applied_at %1 NOT NULL)")
                           .arg(ts));
    if (!q)
        return q.error();
    return {};
}

Result<int> Migrator::currentVersion()
{
    // A database without the version table is simply at version 0.
    auto exists = m_db.handle().tables().contains(m_db.dialect().sql(QStringLiteral("{migrations}")));
    if (!exists)
        return 0;
    auto v = m_db.scalar(QStringLiteral("SELECT COALESCE(MAX(version), 0) FROM {migrations}"));
    if (!v)
        return v.error();
    return v->toInt();
}

Result<Migrator::Check> Migrator::check(int expectedVersion)
{
    auto current = currentVersion();
    if (!current)
        return current.error();
    Check c;
    c.currentVersion = *current;
    c.expectedVersion = expectedVersion > 0 ? expectedVersion : latestVersion();
    c.ok = c.currentVersion >= c.expectedVersion;
    const QString where = m_db.url().redacted();
    if (c.ok)
        c.message = QStringLiteral("schema of %1 is at version %2 (at least %3 expected): ok")
                        .arg(where)
                        .arg(c.currentVersion)
                        .arg(c.expectedVersion);
    else if (c.currentVersion == 0)
        c.message =
            QStringLiteral("%1 has no outbox schema (version %2 expected): run outboxctl migrate with an "
                           "account that may change the schema")
                .arg(where)
                .arg(c.expectedVersion);
    else
        c.message =
            QStringLiteral("schema of %1 is at version %2, version %3 expected: run outboxctl migrate "
                           "with an account that may change the schema%4")
                .arg(where)
                .arg(c.currentVersion)
                .arg(c.expectedVersion)
                .arg(c.expectedVersion > latestVersion()
                         ? QStringLiteral(" (from a release that knows version %1; this one knows up "
                                          "to %2)")
                               .arg(c.expectedVersion)
                               .arg(latestVersion())
                         : QString());
    return c;
}

Result<Migrator::Report> Migrator::migrate()
{
    if (Status s = ensureVersionTable(); !s)
        return Error::runtime(QStringLiteral("cannot create the migrations table: %1").arg(s.message()));
    for (const QString& lock : m_db.dialect().migrationLock()) {
        if (auto q = m_db.exec(lock); !q)
            return Error::runtime(QStringLiteral("cannot take the migration lock: %1").arg(q.message()));
    }
    Report report;
    Status applied = applyLocked(report);
    for (const QString& unlock : m_db.dialect().migrationUnlock())
        (void)m_db.exec(unlock);
    if (!applied)
        return applied.error();
    return report;
}

Status Migrator::applyLocked(Report& report)
{
    auto current = currentVersion();
    if (!current)
        return current.error();
    report.latestVersion = latestVersion();
    report.currentVersion = *current;
    if (*current > report.latestVersion)
        return Error::runtime(
            QStringLiteral("the database schema is at version %1, newer than this program knows (%2); "
                           "upgrade outboxctl")
                .arg(*current)
                .arg(report.latestVersion));

    const Dialect& dialect = m_db.dialect();
    for (const Migration& migration : dialect.migrations()) {
        if (migration.version <= report.currentVersion)
            continue;
        Transaction tx(m_db);
        if (dialect.transactionalDdl()) {
            if (Status s = tx.beginWrite(); !s)
                return s;
        }
        for (const QString& statement : migration.statements) {
            if (auto q = m_db.exec(statement); !q)
                return Error::runtime(QStringLiteral("migration %1 (%2) failed: %3")
                                          .arg(migration.version)
                                          .arg(migration.description, q.message()));
        }
        auto recorded =
            m_db.exec(QStringLiteral("INSERT INTO {migrations} (version, description, applied_at) "
                                     "VALUES (:version, :description, %1)")
                          .arg(dialect.now()),
                      {{QStringLiteral(":version"), migration.version},
                       {QStringLiteral(":description"), migration.description}});
        if (!recorded)
            return Error::runtime(QStringLiteral("cannot record migration %1: %2")
                                      .arg(migration.version)
                                      .arg(recorded.message()));
        if (dialect.transactionalDdl()) {
            if (Status s = tx.commit(); !s)
                return s;
        }
        report.applied << migration.version;
        report.currentVersion = migration.version;
    }
    return {};
}

} // namespace outbox
