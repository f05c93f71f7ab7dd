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

    explicit Migrator(Database& db) : m_db(db) {}
    Result<Report> migrate();
    // The highest applied version, 0 on an empty database.
    Result<int> currentVersion();
    int latestVersion() const;

private:
    Status ensureVersionTable();
    Status applyLocked(Report& report);

    Database& m_db;
};

} // namespace outbox
