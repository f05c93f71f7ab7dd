#pragma once

#include "core/db/DatabaseUrl.h"
#include "core/db/Dialect.h"
#include "core/support/Result.h"

#include <QSqlDatabase>
#include <QSqlQuery>
#include <QVariantMap>
#include <functional>
#include <memory>
#include <unordered_map>

class QSqlError;

namespace outbox {

// One open connection, owned by the thread that opened it (QtSql connections are per thread).
// Every statement is prepared with bound values; driver errors come back as one readable sentence.
class Database
{
public:
    struct Options
    {
        QString purpose = QStringLiteral("main"); // shows in the connection name
        QString tablePrefix;
        int connectTimeoutSeconds = 5;
    };

    static Result<std::unique_ptr<Database>> open(const DatabaseUrl& url, const Options& options);
    static Result<std::unique_ptr<Database>> open(const DatabaseUrl& url);
    ~Database();
    Database(const Database&) = delete;
    Database& operator=(const Database&) = delete;

    const Dialect& dialect() const { return *m_dialect; }
    const DatabaseUrl& url() const { return m_url; }
    DatabaseKind kind() const { return m_url.kind; }
    QSqlDatabase& handle() { return m_db; }

    // Runs one statement; {events}-style table names are expanded, values bound by name.
    Result<QSqlQuery> exec(const QString& statement, const QVariantMap& binds = {});
    // Like exec(), but keeps the statement prepared for the next call with the same text: one round
    // trip per call instead of prepare, execute and deallocate (PostgreSQL). For hot paths; the
    // returned query belongs to the connection and is re-executed by the next call with the same
    // statement, so read it first.
    Result<QSqlQuery*> execPrepared(const QString& statement, const QVariantMap& binds);
    // The same with `?` placeholders bound in order (batch statements with many values: the drivers
    // look named placeholders up in time that grows with the square of their number).
    Result<QSqlQuery*> execPreparedPositional(const QString& statement, const QVariantList& values);
    // A statement with `?` placeholders bound in order, prepared for this one execution (its text
    // varies, e.g. with the number of rows of a batch).
    Result<QSqlQuery> execPositional(const QString& statement, const QVariantList& values);
    // After reading the rows a writing statement returned (UPDATE … RETURNING): steps it to its end
    // and returns the error it ended with. SQLite commits such a statement (outside a transaction)
    // only when it ends: a full disk fails that commit after every row was read, and the rows read
    // describe changes that were rolled back. Every RETURNING write checks this before using its rows.
    static Status finished(QSqlQuery& query);
    // Runs a statement that is expected to return one row; returns the first column.
    Result<QVariant> scalar(const QString& statement, const QVariantMap& binds = {});

    Status beginWrite();
    Status beginRead();

    // Subscribes this connection to the notification sent when events are inserted (PostgreSQL:
    // LISTEN on the channel the migration's trigger notifies). False when the database sends none
    // or the subscription failed: poll instead.
    bool listenForNewEvents();
    // Calls `callback` in this connection's thread for every notification while `context` lives.
    QMetaObject::Connection onNotification(QObject* context, std::function<void()> callback);

    Status commit();
    void rollback();
    // EventWriter calls this after writing events in the open transaction: commit() then tells
    // NewEventsHub, so that a relay in this process wakes at once.
    void noteEventsWritten() { m_eventsWritten = true; }
    // Names this database and table prefix for NewEventsHub (no credentials).
    QString eventsKey() const;
    bool inTransaction() const { return m_inTransaction; }
    // Statements sent on this connection so far (each one is a round trip on a server database;
    // a statement prepared by exec() counts once). Tests and benchmarks watch a path's cost with it.
    quint64 statementsSent() const { return m_statements; }

    // Turns a driver error into one sentence an operator can act on.
    static QString describe(const QSqlError& error);

private:
    Database(DatabaseUrl url, std::unique_ptr<Dialect> dialect, QString connectionName);
    Result<QSqlQuery*> preparedQuery(const QString& statement);
    Result<QSqlQuery*> execute(QSqlQuery* query);

    DatabaseUrl m_url;
    std::unique_ptr<Dialect> m_dialect;
    QString m_connectionName;
    QSqlDatabase m_db;
    bool m_inTransaction = false;
    std::unordered_map<QString, std::unique_ptr<QSqlQuery>> m_prepared; // execPrepared() (bounded)
    bool m_eventsWritten = false;
    quint64 m_statements = 0;
};

// Rolls back on scope exit unless committed.
class Transaction
{
public:
    explicit Transaction(Database& db) : m_db(db) {}
    ~Transaction()
    {
        if (m_open)
            m_db.rollback();
    }
    Status beginWrite()
    {
        Status s = m_db.beginWrite();
        m_open = s.ok();
        return s;
    }
    Status beginRead()
    {
        Status s = m_db.beginRead();
        m_open = s.ok();
        return s;
    }
    Status commit()
    {
        m_open = false;
        return m_db.commit();
    }
    void rollback()
    {
        if (m_open)
            m_db.rollback();
        m_open = false;
    }

private:
    Database& m_db;
    bool m_open = false;
};

} // namespace outbox
