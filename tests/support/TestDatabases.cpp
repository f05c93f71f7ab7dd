#include "tests/support/TestDatabases.h"

#include "core/db/Migrator.h"
#include "core/db/RelayStore.h"
#include "core/db/SqlCondition.h"

#include <QAtomicInteger>
#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QUrl>

namespace outbox::test {
namespace {

QString serverOf(const QString& kind)
{
    if (kind == QLatin1String("postgresql"))
        return qEnvironmentVariable("OUTBOX_TEST_PG");
    if (kind == QLatin1String("mysql"))
        return qEnvironmentVariable("OUTBOX_TEST_MYSQL");
    return QStringLiteral("sqlite");
}

// One directory per test process for its SQLite databases, removed when the process exits: they
// were kept before, and 938 of them (4.8 GB, the 10M-row browser's at 266 MB each) had piled up in
// /tmp of a machine that runs the suite a few times a day.
QString sqliteDir()
{
    static QTemporaryDir dir = [] {
        QString base = qEnvironmentVariable("OUTBOX_TEST_TMP");
        if (base.isEmpty())
            base = QDir::tempPath();
        QDir().mkpath(base);
        return QTemporaryDir(
            QStringLiteral("%1/outbox-test-%2-XXXXXX").arg(base, QCoreApplication::applicationName()));
    }();
    if (!dir.isValid())
        qFatal("cannot create a directory for the test databases: %s", qPrintable(dir.errorString()));
    return dir.path();
}

void adminExec(const QString& kind, const QStringList& statements)
{
    const QString server = serverOf(kind);
    const QString host = server.section(QLatin1Char(':'), 0, 0);
    const int port = server.section(QLatin1Char(':'), 1, 1).toInt();
    const QString name = QStringLiteral("test-admin");
    {
        QSqlDatabase db = QSqlDatabase::addDatabase(
            kind == QLatin1String("postgresql") ? QStringLiteral("QPSQL") : QStringLiteral("QMYSQL"), name);
        db.setHostName(host);
        db.setPort(port);
        db.setUserName(QStringLiteral("outbox"));
        db.setPassword(kind == QLatin1String("mysql") ? QStringLiteral("outbox") : QString());
        db.setDatabaseName(kind == QLatin1String("postgresql") ? QStringLiteral("postgres")
                                                               : QStringLiteral("outbox_admin"));
        if (!db.open())
            qFatal("cannot reach the %s test server at %s: %s", qPrintable(kind), qPrintable(server),
                   qPrintable(db.lastError().text()));
        QStringList all = statements;
        if (kind == QLatin1String("postgresql"))
            all.prepend(QStringLiteral("SET client_min_messages = warning"));
        for (const QString& s : all) {
            QSqlQuery q(db);
            if (!q.exec(s))
                qFatal("admin statement failed: %s: %s", qPrintable(s), qPrintable(q.lastError().text()));
        }
    }
    QSqlDatabase::removeDatabase(name);
}

} // namespace

void TestDatabases::addKinds()
{
    QTest::addColumn<QString>("kind");
    for (const QString& k : kinds()) {
        if (available(k))
            QTest::newRow(qPrintable(k)) << k;
        else
            qWarning("no %s test server configured (CTest starts one): skipping its rows", qPrintable(k));
    }
}

bool TestDatabases::available(const QString& kind)
{
    return !serverOf(kind).isEmpty();
}

QString TestDatabases::uniqueName(const QString& hint)
{
    static QAtomicInteger<int> counter;
    QString app = QCoreApplication::applicationName().toLower();
    app.remove(QStringLiteral("tst_"));
    QString name = QStringLiteral("t_%1_%2_%3").arg(app, hint.toLower()).arg(counter.fetchAndAddRelaxed(1));
    for (QChar& c : name)
        if (!c.isLetterOrNumber())
            c = QLatin1Char('_');
    return name.left(60);
}

DatabaseUrl TestDatabases::create(const QString& kind, const QString& name)
{
    DatabaseUrl url;
    if (kind == QLatin1String("sqlite")) {
        url.kind = DatabaseKind::Sqlite;
        url.database = sqliteDir() + QLatin1Char('/') + name + QStringLiteral(".db");
        for (const QString& suffix : {QString(), QStringLiteral("-wal"), QStringLiteral("-shm")})
            QFile::remove(url.database + suffix);
        return url;
    }
    const QString server = serverOf(kind);
    url.host = server.section(QLatin1Char(':'), 0, 0);
    url.port = server.section(QLatin1Char(':'), 1, 1).toInt();
    url.user = QStringLiteral("outbox");
    url.database = name;
    if (kind == QLatin1String("postgresql")) {
        url.kind = DatabaseKind::PostgreSql;
        adminExec(kind, {QStringLiteral("DROP DATABASE IF EXISTS %1 WITH (FORCE)").arg(name),
                         QStringLiteral("CREATE DATABASE %1").arg(name)});
    } else {
        url.kind = DatabaseKind::MySql;
        url.password = QStringLiteral("outbox");
        adminExec(kind, {QStringLiteral("DROP DATABASE IF EXISTS %1").arg(name),
                         QStringLiteral("CREATE DATABASE %1").arg(name)});
    }
    return url;
}

std::unique_ptr<Database> TestDatabases::open(const DatabaseUrl& url, const QString& purpose)
{
    Database::Options options;
    options.purpose = purpose;
    auto db = Database::open(url, options);
    if (!db)
        qFatal("cannot open %s: %s", qPrintable(url.redacted()), qPrintable(db.message()));
    return std::move(db).value();
}

std::unique_ptr<Database> TestDatabases::fresh(const QString& kind, const QString& name)
{
    auto db = open(create(kind, uniqueName(name)));
    auto report = Migrator(*db).migrate();
    if (!report)
        qFatal("migration failed on %s: %s", qPrintable(db->url().redacted()), qPrintable(report.message()));
    return db;
}

QString TestDatabases::urlText(const DatabaseUrl& url)
{
    if (url.kind == DatabaseKind::Sqlite)
        return QStringLiteral("sqlite://") + url.database;
    QString auth = url.user;
    if (!url.password.isEmpty())
        auth += QLatin1Char(':') + url.password;
    return QStringLiteral("%1://%2@%3:%4/%5")
        .arg(url.kindName(), auth, url.host)
        .arg(url.port)
        .arg(url.database);
}

QVector<qint64> insertEvents(Database& db, int count, const QString& type, const QString& aggregatePrefix)
{
    QVector<NewEvent> events;
    events.reserve(count);
    for (int i = 0; i < count; ++i) {
        NewEvent e;
        e.eventType = type;
        e.aggregateType = QStringLiteral("Order");
        e.aggregateId = aggregatePrefix + QString::number(i);
        e.payload = QByteArrayLiteral("{\"order_id\":\"") + e.aggregateId.toUtf8() +
                    QByteArrayLiteral("\",\"total\":199}");
        e.headers = QJsonObject{{QStringLiteral("trace_id"), QStringLiteral("t-%1").arg(i)}};
        events << e;
    }
    if (!db.beginWrite())
        qFatal("begin failed");
    auto ids = EventWriter(db).appendBatch(events);
    if (!ids)
        qFatal("insert failed: %s", qPrintable(ids.message()));
    if (!db.commit())
        qFatal("commit failed");
    SqlCondition c;
    QVariantList eventIds;
    for (const QString& id : *ids)
        eventIds << id;
    QVector<qint64> out;
    for (int start = 0; start < eventIds.size(); start += 500) {
        SqlCondition chunk;
        chunk.addIn(QStringLiteral("event_id"), QStringLiteral("e"), eventIds.mid(start, 500));
        auto q = db.exec(QStringLiteral("SELECT id FROM {events} WHERE %1 ORDER BY id").arg(chunk.where()),
                         chunk.binds);
        if (!q)
            qFatal("select failed: %s", qPrintable(q.message()));
        while (q->next())
            out << q->value(0).toLongLong();
    }
    std::sort(out.begin(), out.end());
    return out;
}

void registerRelay(Database& db, const QString& worker, qint64 heartbeatAgeMs)
{
    RelayRecord r;
    r.workerId = worker;
    r.host = QStringLiteral("relay-host");
    r.state = QStringLiteral("RUNNING");
    if (!RelayStore(db).heartbeat(r))
        qFatal("heartbeat failed");
    if (!db.exec(QStringLiteral("UPDATE {relays} SET heartbeat_at = %1 WHERE worker_id = :w")
                     .arg(db.dialect().nowPlusMillis(QStringLiteral(":age"))),
                 {{QStringLiteral(":age"), -heartbeatAgeMs}, {QStringLiteral(":w"), worker}}))
        qFatal("ageing the heartbeat failed");
}

void forceStatus(Database& db, const QVector<qint64>& ids, const QString& status, const QString& lastError)
{
    QVariantList v;
    for (qint64 id : ids)
        v << id;
    SqlCondition c;
    c.addIn(QStringLiteral("id"), QStringLiteral("i"), v);
    c.binds.insert(QStringLiteral(":status"), status);
    c.binds.insert(QStringLiteral(":error"),
                   lastError.isEmpty() ? QVariant(QMetaType::fromType<QString>()) : QVariant(lastError));
    QString extra;
    if (status == QLatin1String("SENT"))
        extra = QStringLiteral(", sent_at = ") + db.dialect().now();
    auto q = db.exec(QStringLiteral("UPDATE {events} SET status = :status, last_error = :error%1 WHERE %2")
                         .arg(extra, c.where()),
                     c.binds);
    if (!q)
        qFatal("forceStatus failed: %s", qPrintable(q.message()));
}

QString statusOf(Database& db, qint64 id)
{
    auto v = db.scalar(QStringLiteral("SELECT status FROM {events} WHERE id = :id"),
                       {{QStringLiteral(":id"), id}});
    return v ? v->toString() : QString();
}

qint64 countRows(Database& db, const QString& table, const QString& where)
{
    auto v = db.scalar(QStringLiteral("SELECT COUNT(*) FROM %1 WHERE %2").arg(table, where));
    if (!v)
        qFatal("count failed: %s", qPrintable(v.message()));
    return v->toLongLong();
}

void exec(Database& db, const QString& statement, const QVariantMap& binds)
{
    auto q = db.exec(statement, binds);
    if (!q)
        qFatal("%s: %s", qPrintable(statement), qPrintable(q.message()));
}

} // namespace outbox::test
