#include "core/db/Database.h"

#include "core/config/Config.h"
#include "core/db/NewEventsHub.h"

#include <QAtomicInteger>
#include <QCoreApplication>
#include <QRegularExpression>
#include <QSqlDriver>
#include <QSqlError>
#include <QThread>

namespace outbox {
namespace {

QString firstLine(QString text)
{
    text = text.trimmed();
    const int nl = text.indexOf(QLatin1Char('\n'));
    if (nl >= 0)
        text.truncate(nl);
    // libpq prefixes messages with its own severity; the sentence reads better without it.
    for (const char* prefix : {"ERROR:  ", "FATAL:  ", "ERROR: ", "FATAL: "}) {
        if (text.startsWith(QLatin1String(prefix)))
            text.remove(0, int(qstrlen(prefix)));
    }
    return text.trimmed();
}

QString nextConnectionName(const QString& purpose)
{
    static QAtomicInteger<quint64> counter;
    return QStringLiteral("outbox-%1-%2").arg(purpose).arg(counter.fetchAndAddRelaxed(1));
}

} // namespace

Database::Database(DatabaseUrl url, std::unique_ptr<Dialect> dialect, QString connectionName)
    : m_url(std::move(url)), m_dialect(std::move(dialect)), m_connectionName(std::move(connectionName))
{
}

Database::~Database()
{
    if (m_inTransaction)
        rollback();
    m_prepared.clear();
    m_db.close();
    m_db = QSqlDatabase();
    QSqlDatabase::removeDatabase(m_connectionName);
}

Result<std::unique_ptr<Database>> Database::open(const DatabaseUrl& url)
{
    return open(url, Options{});
}

Result<std::unique_ptr<Database>> Database::open(const DatabaseUrl& url, const Options& options)
{
    // The configuration key's pattern, the one definition (lower case only: PostgreSQL folds
    // unquoted names to lower case, and the catalogue lookups compare the names as written).
    static const QRegularExpression prefixRe(QRegularExpression::anchoredPattern(
        config::Config::find(QStringLiteral("database.table_prefix"))->pattern));
    if (!options.tablePrefix.isEmpty() && !prefixRe.match(options.tablePrefix).hasMatch())
        return Error::usage(
            QStringLiteral("invalid table prefix \"%1\": use lower-case letters, digits and _")
                .arg(options.tablePrefix));

    auto dialect = Dialect::create(url.kind, options.tablePrefix);
    if (!QSqlDatabase::isDriverAvailable(dialect->driverName()))
        return Error::runtime(QStringLiteral("the Qt SQL driver %1 is not installed (needed for %2)")
                                  .arg(dialect->driverName(), url.kindName()));

    if (Status s = dialect->checkBeforeOpen(url); !s)
        return s.error();

    const QString name = nextConnectionName(options.purpose);
    std::unique_ptr<Database> db(new Database(url, std::move(dialect), name));
    db->m_db = QSqlDatabase::addDatabase(db->m_dialect->driverName(), name);
    db->m_db.setDatabaseName(url.database);
    if (db->m_dialect->hasServer()) {
        db->m_db.setHostName(url.host);
        db->m_db.setPort(url.port);
        db->m_db.setUserName(url.user);
        db->m_db.setPassword(url.password);
    }
    const QStringList connectOptions = db->m_dialect->connectOptions(url, options.connectTimeoutSeconds);
    db->m_db.setConnectOptions(connectOptions.join(QLatin1Char(';')));
    // A read-only SQLite connection (SqliteDialect::connectOptions) skips the writer's settings:
    // journal_mode = WAL would need a write.
    const bool readOnly = connectOptions.contains(QStringLiteral("QSQLITE_OPEN_READONLY"));

    if (!db->m_db.open())
        // In the user's language (core's catalogue): the desktop shows it as it is, the web console
        // translates the server's English from the same catalogue.
        return Error::runtime(QCoreApplication::translate("outbox::Database", "cannot connect to %1: %2")
                                  .arg(url.redacted(), describe(db->m_db.lastError())));

    for (const QString& statement : readOnly ? QStringList() : db->m_dialect->sessionSetup()) {
        QSqlQuery q(db->m_db);
        if (!q.exec(statement))
            return Error::runtime(
                QCoreApplication::translate("outbox::Database", "cannot prepare the session on %1: %2")
                    .arg(url.redacted(), describe(q.lastError())));
    }
    return db;
}

QString Database::describe(const QSqlError& error)
{
    QString text = firstLine(error.databaseText());
    if (text.isEmpty())
        text = firstLine(error.driverText());
    if (text.isEmpty())
        text = QStringLiteral("unknown database error");
    return text;
}

Result<QSqlQuery> Database::exec(const QString& statement, const QVariantMap& binds)
{
    QSqlQuery q(m_db);
    q.setForwardOnly(true);
    const QString sql = m_dialect->sql(statement);
    ++m_statements;
    if (binds.isEmpty()) {
        if (!q.exec(sql))
            return Error::runtime(QStringLiteral("database error: %1").arg(describe(q.lastError())));
        return q;
    }
    if (!q.prepare(sql))
        return Error::runtime(QStringLiteral("database error: %1").arg(describe(q.lastError())));
    for (auto it = binds.cbegin(); it != binds.cend(); ++it)
        q.bindValue(it.key(), it.value());
    if (!q.exec())
        return Error::runtime(QStringLiteral("database error: %1").arg(describe(q.lastError())));
    return q;
}

Status Database::finished(QSqlQuery& query)
{
    while (query.isActive() && query.next()) {
    }
    const QSqlError error = query.lastError();
    query.finish();
    if (error.isValid())
        return Error::runtime(QStringLiteral("database error: %1").arg(describe(error)));
    return {};
}

Result<QSqlQuery*> Database::preparedQuery(const QString& statement)
{
    auto it = m_prepared.find(statement);
    if (it == m_prepared.end()) {
        if (m_prepared.size() >= 64) // a handful of hot statements; never grows without bound
            m_prepared.clear();
        auto q = std::make_unique<QSqlQuery>(m_db);
        q->setForwardOnly(true);
        ++m_statements;
        if (!q->prepare(m_dialect->sql(statement)))
            return Error::runtime(QStringLiteral("database error: %1").arg(describe(q->lastError())));
        it = m_prepared.emplace(statement, std::move(q)).first;
    }
    QSqlQuery* q = it->second.get();
    q->finish();
    return q;
}

Result<QSqlQuery*> Database::execute(QSqlQuery* query)
{
    ++m_statements;
    if (!query->exec())
        return Error::runtime(QStringLiteral("database error: %1").arg(describe(query->lastError())));
    return query;
}

Result<QSqlQuery*> Database::execPrepared(const QString& statement, const QVariantMap& binds)
{
    auto q = preparedQuery(statement);
    if (!q)
        return q.error();
    for (auto b = binds.cbegin(); b != binds.cend(); ++b)
        (*q)->bindValue(b.key(), b.value());
    return execute(*q);
}

Result<QSqlQuery*> Database::execPreparedPositional(const QString& statement, const QVariantList& values)
{
    auto q = preparedQuery(statement);
    if (!q)
        return q.error();
    for (int i = 0; i < values.size(); ++i)
        (*q)->bindValue(i, values.at(i));
    return execute(*q);
}

Result<QSqlQuery> Database::execPositional(const QString& statement, const QVariantList& values)
{
    QSqlQuery q(m_db);
    q.setForwardOnly(true);
    ++m_statements;
    if (!q.prepare(m_dialect->sql(statement)))
        return Error::runtime(QStringLiteral("database error: %1").arg(describe(q.lastError())));
    for (const QVariant& v : values)
        q.addBindValue(v);
    if (auto done = execute(&q); !done)
        return done.error();
    return q;
}

Result<QVariant> Database::scalar(const QString& statement, const QVariantMap& binds)
{
    auto q = exec(statement, binds);
    if (!q)
        return q.error();
    if (!q->next())
        return QVariant();
    return q->value(0);
}

Status Database::beginWrite()
{
    QSqlQuery q(m_db);
    ++m_statements;
    if (!q.exec(m_dialect->beginWrite()))
        return Error::runtime(QStringLiteral("cannot begin a transaction: %1").arg(describe(q.lastError())));
    m_inTransaction = true;
    return {};
}

Status Database::beginRead()
{
    QSqlQuery q(m_db);
    ++m_statements;
    if (!q.exec(m_dialect->beginRead()))
        return Error::runtime(QStringLiteral("cannot begin a transaction: %1").arg(describe(q.lastError())));
    m_inTransaction = true;
    return {};
}

bool Database::listenForNewEvents()
{
    if (!m_dialect->supportsNotifications())
        return false;
    return m_db.driver()->subscribeToNotification(m_dialect->newEventsChannel());
}

QMetaObject::Connection Database::onNotification(QObject* context, std::function<void()> callback)
{
    return QObject::connect(m_db.driver(), &QSqlDriver::notification, context,
                            [callback = std::move(callback)] { callback(); });
}

Status Database::commit()
{
    QSqlQuery q(m_db);
    ++m_statements;
    const bool ok = q.exec(QStringLiteral("COMMIT"));
    if (!ok) {
        const QString why = describe(q.lastError());
        rollback();
        return Error::runtime(QStringLiteral("commit failed: %1").arg(why));
    }
    m_inTransaction = false;
    if (m_eventsWritten) {
        m_eventsWritten = false;
        emit NewEventsHub::instance().committed(eventsKey());
    }
    return {};
}

void Database::rollback()
{
    QSqlQuery q(m_db);
    ++m_statements;
    q.exec(QStringLiteral("ROLLBACK"));
    m_inTransaction = false;
    m_eventsWritten = false;
}

QString Database::eventsKey() const
{
    return QStringLiteral("%1|%2|%3|%4|%5")
        .arg(m_dialect->driverName(), m_url.host)
        .arg(m_url.port)
        .arg(m_url.database, m_dialect->tablePrefix());
}

} // namespace outbox
