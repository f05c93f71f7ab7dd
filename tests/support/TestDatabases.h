#pragma once

#include "core/db/Database.h"
#include "core/db/EventWriter.h"

#include <QString>
#include <QStringList>
#include <memory>

namespace outbox::test {

// Fresh databases on the servers the CTest fixtures started (OUTBOX_TEST_PG / OUTBOX_TEST_MYSQL,
// "host:port") and SQLite files in a temporary directory.
class TestDatabases
{
public:
    // Adds a "kind" column and one row per database kind to a QtTest _data() function.
    static void addKinds();
    static QStringList kinds()
    {
        return {QStringLiteral("sqlite"), QStringLiteral("postgresql"), QStringLiteral("mysql")};
    }

    // True when the server for `kind` was configured; otherwise the test should QSKIP.
    static bool available(const QString& kind);
    // Creates an empty database (dropping one of the same name) and returns its URL.
    static DatabaseUrl create(const QString& kind, const QString& name);
    // create() + migrate + open.
    static std::unique_ptr<Database> fresh(const QString& kind, const QString& name);
    static std::unique_ptr<Database> open(const DatabaseUrl& url,
                                          const QString& purpose = QStringLiteral("test"));
    // The URL as text, password included (for child processes).
    static QString urlText(const DatabaseUrl& url);
    // A unique, valid database name for this test function and kind.
    static QString uniqueName(const QString& hint);
};

// Inserts `count` events in one transaction; returns their ids in order.
QVector<qint64> insertEvents(Database& db, int count, const QString& type = QStringLiteral("OrderCreated"),
                             const QString& aggregatePrefix = QStringLiteral("order-"));
// A RUNNING relay `worker` (host relay-host) registered through RelayStore, its last heartbeat
// `heartbeatAgeMs` ago (0: now). Fatal when the database refuses.
void registerRelay(Database& db, const QString& worker, qint64 heartbeatAgeMs);
// Forces rows into a status (test setup only; production code goes through the stores).
void forceStatus(Database& db, const QVector<qint64>& ids, const QString& status,
                 const QString& lastError = {});
QString statusOf(Database& db, qint64 id);
qint64 countRows(Database& db, const QString& table, const QString& where = QStringLiteral("1 = 1"));
// Runs one setup statement ({events}-style names, values bound by name); fatal when it fails.
void exec(Database& db, const QString& statement, const QVariantMap& binds = {});

} // namespace outbox::test
