#pragma once

#include "core/support/Result.h"

#include <QString>

namespace outbox {

enum class DatabaseKind { PostgreSql, MySql, Sqlite };

// A parsed database URL:
//   postgresql://user[:password]@host[:port]/db[?sslmode=require]
//   mysql://user[:password]@host[:port]/db        (MySQL 8 and MariaDB 10.6+)
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
    // The URL without its password, for logs, titles and audit rows.
    QString redacted() const;
    QString kindName() const;
    // True for a database server (host, port, user, password); false for a file (SQLite).
    bool hasServer() const;
};

} // namespace outbox
