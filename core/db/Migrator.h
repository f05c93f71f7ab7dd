#pragma once

#include "core/support/Result.h"

#include <QVector>

namespace outbox {

class Database;

// Applies the dialect's versioned migrations that the database has not seen yet, in order, and
// records each in {migrations}. Running it again is a no-op; concurrent migrators serialise.
class Migrator
{
public:
    struct Report
    {
        QVector<int> applied;
        int currentVersion = 0;
        int latestVersion = 0;
    };

    // Whether the schema a writer or consumer was built against is there (`migrate --check`):
    // versions only add (columns with defaults or nullable, tables, indexes), so any version at or
    // above the expected one serves it (docs/contract.md, "Schema version").
    struct Check
    {
        int currentVersion = 0;
        int expectedVersion = 0;
        bool ok = false;
        QString message; // one sentence for a CI log
    };

    explicit Migrator(Database& db) : m_db(db) {}
    Result<Report> migrate();
    // The highest applied version, 0 on an empty database.
    Result<int> currentVersion();
    int latestVersion() const;
    // expected <= 0: the latest version this binary knows.
    Result<Check> check(int expectedVersion = 0);

private:
    Status ensureVersionTable();
    Status applyLocked(Report& report);

    Database& m_db;
};

} // namespace outbox
