#pragma once

#include "core/support/Result.h"

#include <QString>

namespace outbox {

enum class DatabaseKind { PostgreSql, MySql, Sqlite };

// A parsed database URL:
//   postgresql://user[:password]@host[:port]/db[?sslmode=verify-full&sslrootcert=/path/ca.pem]
//   mysql://user[:password]@host[:port]/db[?SSL_CA=/path/ca.pem]   (MySQL 8 and MariaDB 10.6+)
//   postgresql://user@[::1]:5432/db                                  (IPv6 host in brackets)
//   sqlite:///absolute/path/file.db  or  sqlite://relative/path.db
// The password comes from the URL; when it has none, the configuration (core/config) supplies
// [database] password (OUTBOX_DB_PASSWORD).
struct DatabaseUrl
{
    DatabaseKind kind = DatabaseKind::Sqlite;
    QString host;
    int port = 0;
    QString user;
    QString password;
    QString database; // database name, or the file path for SQLite
    QString connectOptions;

    static Result<DatabaseUrl> parse(const QString& text);
    // The whole URL without its password: host (IPv6 in brackets), port, user, database and every
    // connection option (sslmode, SSL_CA, …), percent-encoded so that parse() gives back the same
    // URL. Safe for logs, titles and audit rows, and what a child process (relay, serve) is given;
    // the password travels separately (OUTBOX_DB_PASSWORD), never in a command line.
    QString redacted() const;
    QString kindName() const;
    // True for a database server (host, port, user, password); false for a file (SQLite).
    bool hasServer() const;
};

} // namespace outbox
