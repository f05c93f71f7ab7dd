#pragma once

#include "core/db/Database.h"

#include <QByteArray>
#include <QProcessEnvironment>
#include <QString>
#include <QTcpServer>
#include <QTemporaryDir>
#include <memory>

namespace outbox::test {

// Fleet test setup shared by the fleet's CLI, API and browser tests.

// Migrates the outbox tables with `prefix` into the database at `url` and opens them (fatal when
// that fails): two members in one database are told apart by their table prefix.
std::unique_ptr<Database> migratedWithPrefix(const DatabaseUrl& url, const QString& prefix);
// Writes `text` to `name` in `dir` and returns its path (fatal when it cannot).
QString writeTestFile(const QTemporaryDir& dir, const QString& name, const QByteArray& text);
// The URL as a fleet file names it: without the password (that comes from OUTBOX_DB_PASSWORD_<MEMBER>).
QString urlWithoutPassword(DatabaseUrl url);

// The fleet of issue 27's "Done when": three PostgreSQL members (orders and billing in one database
// with different table prefixes, inventory in another), a MariaDB member (payments), a SQLite member
// (edge) and a member whose port accepts TCP and never answers (black-hole). billing is sick: its
// relay stopped (a heartbeat ten minutes old) with a backlog of 4 PENDING and 2 FAILED events; every
// other member has sent all its events. Tags: billing and payments are team=payments, orders and
// black-hole team=checkout, inventory team=warehouse, edge team=edge.
struct SickFleet
{
    DatabaseUrl pg;          // orders (no prefix) and billing (b_)
    DatabaseUrl pgInventory; // inventory
    DatabaseUrl mysql;       // payments
    DatabaseUrl sqlite;      // edge
    std::unique_ptr<Database> orders, billing, inventory, payments, edge;
    QTcpServer blackHole;          // listens and never answers
    QString file;                  // the fleet file
    QProcessEnvironment passwords; // OUTBOX_DB_PASSWORD_<MEMBER> for the server members

    static constexpr int BillingFailed = 2;
    static constexpr int BillingPending = 4;

    // True when the PostgreSQL and MariaDB test servers are there (otherwise the test should QSKIP).
    static bool available();
    // Creates the databases and writes the fleet file into `dir` with `fleetSection` as its [fleet]
    // keys (e.g. "interval = 1s\ntimeout = 2s\n"). Fatal when a database cannot be made.
    void build(const QTemporaryDir& dir, const QByteArray& fleetSection);
};

} // namespace outbox::test
