#pragma once

#include "core/db/DatabaseUrl.h"

#include <QDateTime>
#include <QString>
#include <QStringList>
#include <QVariant>
#include <QVector>
#include <memory>

namespace outbox {

struct Migration
{
    int version = 0;
    QString description;
    QStringList statements; // with {events}, {inbox}, {dead_letters}, {audit}, {relays}, {migrations},
                            // {consumer_counters}, {held_claims}
};

// Everything that differs between PostgreSQL, MariaDB/MySQL and SQLite lives behind this interface;
// the rest of core writes portable SQL with the fragments it returns.
class Dialect
{
public:
    virtual ~Dialect() = default;

    static std::unique_ptr<Dialect> create(DatabaseKind kind, const QString& tablePrefix = {});

    virtual DatabaseKind kind() const = 0;
    virtual QString driverName() const = 0;

    // Connecting. A server database takes host, port, user and password; SQLite opens a file.
    virtual bool hasServer() const { return true; }
    virtual int defaultPort() const { return 0; }
    // URL query options (?key=value) handed to the driver; the URL parser refuses any other.
    virtual QStringList urlOptions() const { return {}; }
    // What can be checked before the driver tries, so the error says what is wrong.
    virtual Status checkBeforeOpen(const DatabaseUrl&) const { return {}; }
    // The driver's connect options: ours (connect or busy timeout) unless the URL sets them, then
    // the URL's own.
    virtual QStringList connectOptions(const DatabaseUrl& url, int connectTimeoutSeconds) const = 0;
    // Statements run once on every new connection.
    virtual QStringList sessionSetup() const = 0;
    // Statements that make the server end any statement of this session (lock waits included) after
    // `ms`, for sessions that must not hang (the fleet's samples). Each is tried on its own: a server
    // that does not know one (MySQL lacks MariaDB's max_statement_time) skips it. SQLite: none (its
    // readers never wait for the writer in WAL mode).
    virtual QStringList statementTimeout(int ms) const
    {
        Q_UNUSED(ms);
        return {};
    }

    // Opens a write transaction (SQLite takes the write lock at once).
    virtual QString beginWrite() const = 0;
    // Opens a read-only transaction: one consistent view for several statements.
    virtual QString beginRead() const { return QStringLiteral("BEGIN"); }
    // Current UTC time, and current UTC time plus a bound number of milliseconds.
    virtual QString now() const = 0;
    virtual QString nowPlusMillis(const QString& placeholder) const = 0;
    // Row locking suffixes for SELECT; empty where the write transaction already serialises.
    virtual QString forUpdate() const = 0;
    virtual QString forUpdateSkipLocked() const = 0;
    virtual bool hasUpdateReturning() const = 0;
    // Suffix for an INSERT that hands back the new id as a result row; empty: use lastInsertId().
    virtual QString returningId() const
    {
        return hasUpdateReturning() ? QStringLiteral(" RETURNING id") : QString();
    }
    // A bound JSON value as the column type expects it.
    virtual QString jsonValue(const QString& placeholder) const { return placeholder; }
    // A bound integer where the context gives the server no type (e.g. CASE … THEN :p).
    virtual QString integerValue(const QString& placeholder) const { return placeholder; }
    // A bound text "{1,2,3}" (see integerArrayText()) as an array of bigint, for `= ANY(…)` and
    // unnest(): one parameter for a whole batch. Empty where the database has no arrays; then
    // statements bind one parameter per value.
    virtual QString bigintArray(const QString& placeholder) const
    {
        Q_UNUSED(placeholder);
        return {};
    }
    static QString integerArrayText(const QVector<qint64>& values);
    // A bound text "{\"a\",\"b\"}" (see textArrayText()) as an array of text; empty where the
    // database has no arrays.
    virtual QString textArray(const QString& placeholder) const
    {
        Q_UNUSED(placeholder);
        return {};
    }
    // Every element quoted and escaped: any text (commas, quotes, braces, "NULL") stays one element;
    // with EmptyIsNull an empty string is a NULL element instead.
    enum EmptyText { EmptyIsText, EmptyIsNull };
    static QString textArrayText(const QStringList& values, EmptyText empty = EmptyIsText);
    // Case-insensitive containment with a bound, escaped pattern (see likePattern()).
    virtual QString containsIgnoringCase(const QString& column, const QString& placeholder) const;
    // A list's preview of a large text column: its first (bound) `placeholder` characters, cut by
    // the database so that the whole value never leaves it; and the value's full size in bytes.
    virtual QString textPrefix(const QString& column, const QString& placeholder) const
    {
        return QStringLiteral("substr(%1, 1, %2)").arg(column, placeholder);
    }
    virtual QString textBytes(const QString& column) const
    {
        return QStringLiteral("length(CAST(%1 AS BLOB))").arg(column);
    }
    // The same for a binary column: its first `placeholder` bytes and its size.
    virtual QString binaryPrefix(const QString& column, const QString& placeholder) const
    {
        return QStringLiteral("substr(%1, 1, %2)").arg(column, placeholder);
    }
    virtual QString binaryBytes(const QString& column) const { return textBytes(column); }
    // INSERT that silently does nothing when a row with the same unique key exists; the number of
    // affected rows tells which happened (1 inserted, 0 already there).
    virtual QString insertIfAbsent(const QString& table, const QString& columns, const QString& values,
                                   const QString& uniqueColumns) const;
    // True when the JSON array in `column` holds the bound integer (audit target_ids lookups).
    virtual QString jsonArrayContainsInteger(const QString& column, const QString& placeholder) const;
    // True when the JSON document in `column` holds, at the path bound as `pathPlaceholder` (a value
    // from jsonPath()), a scalar whose text equals the bound `valuePlaceholder`, case-sensitively.
    // Strings compare unquoted; numbers and true/false as their JSON text.
    virtual QString jsonTextEquals(const QString& column, const QString& pathPlaceholder,
                                   const QString& valuePlaceholder) const;
    // The trace id (characters 4-35 of the `traceparent` header: "00-<trace id>-…") of an outbox
    // row, as an SQL expression over its columns: the very expression migration 13 indexed.
    virtual QString traceIdExpression() const;
    // The bound path value for jsonTextEquals(). `segments` passed JsonPath validation; with
    // `arrayIndexes` an all-digit segment indexes an array, otherwise every segment is an object key.
    virtual QVariant jsonPath(const QStringList& segments, bool arrayIndexes) const;
    // DELETE of at most :limit rows of `table` matching `condition`, oldest id first.
    virtual QString boundedDelete(const QString& table, const QString& condition) const;
    // The doctor's table-health statistics of one table (bound as :table, e.g. sql("{events}")): one
    // row of live_rows, dead_rows, total_bytes, last_vacuum, table autovacuum options (text) and the
    // server's autovacuum setting. Empty where the database keeps no such statistics.
    virtual QString tableStatistics() const { return {}; }
    // Serialises concurrent migrators.
    virtual QStringList migrationLock() const { return {}; }
    virtual QStringList migrationUnlock() const { return {}; }
    virtual bool transactionalDdl() const { return true; }
    // GRANT statements for a separate runtime role (relay, consumer, console, serve): reads and
    // writes on the outbox tables, only SELECT and INSERT on the append-only audit log, no DDL.
    // `role` must have passed validRuntimeRole(); empty where the database has no roles (SQLite).
    virtual QStringList runtimeGrants(const QString& role, const QString& databaseName) const
    {
        Q_UNUSED(role);
        Q_UNUSED(databaseName);
        return {};
    }
    // A role name safe to print into GRANT statements: name, or name@host on MySQL/MariaDB.
    static bool validRuntimeRole(const QString& role, DatabaseKind kind);
    virtual QVector<Migration> migrations() const = 0;
    // Column type of a UTC timestamp, for tables created outside migrations() (the version table).
    virtual QString timestampType() const = 0;

    // A statement with one bound :table that answers the planner's estimate of the table's rows
    // and its size in bytes (cheap, possibly stale); empty where the database keeps no estimate
    // (SQLite).
    virtual QString estimatedRowCount() const { return {}; }

    // True when inserting events notifies listeners on newEventsChannel() (PostgreSQL: the
    // migration's trigger calls pg_notify); Database::listenForNewEvents() subscribes.
    virtual bool supportsNotifications() const { return false; }
    // True when a relay may hold its claims as row locks across a publish (HeldClaim): SKIP LOCKED,
    // UPDATE … FROM unnest(…) and a server that ends sessions idle in a transaction (PostgreSQL).
    virtual bool supportsHeldClaims() const { return false; }
    QString newEventsChannel() const { return table(QStringLiteral("outbox_events")); }
    // The trigger that notifies newEventsChannel() on every INSERT of events (PostgreSQL's migration
    // 2), which an operator may switch off for writer throughput (relays then poll). A statement
    // answering one row when the trigger exists: enabled (boolean), and may_alter (boolean: the
    // session may switch it, as the table's owner or a superuser); no row when it is missing. Empty
    // where the database has no such trigger.
    virtual QString newEventsTriggerState() const { return {}; }
    // The statement that enables or disables that trigger (identifiers from the prefix, quoted);
    // empty where there is none.
    virtual QString switchNewEventsTrigger(bool enabled) const
    {
        Q_UNUSED(enabled);
        return {};
    }
    // Statements that bound how long the switch waits for the table's lock; empty where none.
    virtual QStringList lockTimeout(int ms) const
    {
        Q_UNUSED(ms);
        return {};
    }
    QString newEventsTrigger() const { return table(QStringLiteral("outbox_events_notify")); }

    // A cheap statement whose one value changes whenever another connection commits (SQLite:
    // PRAGMA data_version); empty where there is none. The relay polls it between claims.
    virtual QString changeCounter() const { return {}; }

    // True when the database reports table health (dead tuples, size, autovacuum): PostgreSQL.
    virtual bool supportsTableHealth() const { return false; }

    // Reads a timestamp column as UTC whatever the driver hands back.
    virtual QDateTime toDateTime(const QVariant& value) const;
    // A bound parameter value for a UTC timestamp.
    virtual QVariant fromDateTime(const QDateTime& value) const;

    // Replaces {events} etc. with the (prefixed) table names.
    QString sql(QString statement) const;
    QString table(const QString& base) const { return m_prefix + base; }
    QString tablePrefix() const { return m_prefix; }

    // Escapes user text for containsIgnoringCase(): the text is matched literally.
    static QString likePattern(const QString& text);

protected:
    explicit Dialect(QString prefix) : m_prefix(std::move(prefix)) {}

private:
    QString m_prefix;
};

} // namespace outbox
