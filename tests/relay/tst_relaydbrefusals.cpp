// A relay whose PostgreSQL or MariaDB database refuses its writes (read-only) or its connections
// (too many): its claims cannot commit, so it must send nothing, say DEGRADED with the database's
// own error and back off; once the database accepts again, every event goes out exactly once.
// The relay runs as a runtime account (no superuser: those are exempt from both refusals).
#include "core/broker/kafka/EmbeddedBroker.h"
#include "core/db/Dialect.h"
#include "tests/support/OutboxctlProcess.h"
#include "tests/support/RelayChecks.h"
#include "tests/support/TestDatabases.h"
#include "tests/support/TopicReader.h"

#include <QProcess>
#include <QRandomGenerator>
#include <QTest>
#include <functional>

using namespace outbox;
using namespace outbox::test;

namespace {

const QString RuntimePassword = QStringLiteral("runtime-pw");

void run(Database& db, const QString& statement)
{
    auto q = db.exec(statement);
    QVERIFY2(q.ok(), qPrintable(statement + QStringLiteral(": ") + q.message()));
}

} // namespace

class TestRelayDbRefusals : public QObject
{
    Q_OBJECT

    struct Setup
    {
        std::unique_ptr<Database> db; // the owner (a superuser): keeps writing whatever happens
        QString role;
        QString relayUrl;
    };

    // A fresh database, and an account with the runtime grants for the relay.
    static Setup prepare(const QString& kind, const QString& hint)
    {
        Setup s;
        s.db = TestDatabases::fresh(kind, hint);
        s.role = QStringLiteral("relay_%1").arg(QRandomGenerator::global()->bounded(1u << 30));
        const bool pg = kind == QLatin1String("postgresql");
        const QString grantee = pg ? s.role : s.role + QStringLiteral("@127.0.0.1");
        if (pg)
            run(*s.db, QStringLiteral("CREATE ROLE %1 LOGIN PASSWORD '%2'").arg(s.role, RuntimePassword));
        else
            run(*s.db, QStringLiteral("CREATE USER '%1'@'127.0.0.1' IDENTIFIED BY '%2'")
                           .arg(s.role, RuntimePassword));
        for (const QString& grant : s.db->dialect().runtimeGrants(grantee, s.db->url().database))
            run(*s.db, grant);
        DatabaseUrl url = s.db->url();
        url.user = s.role;
        url.password = RuntimePassword;
        s.relayUrl = TestDatabases::urlText(url);
        return s;
    }

    static std::unique_ptr<QProcess> startRelay(const QString& url, const QString& bootstrap)
    {
        return startOutboxctl({QStringLiteral("relay"), QStringLiteral("--db"), url,
                               QStringLiteral("--kafka-bootstrap"), bootstrap, QStringLiteral("--worker-id"),
                               QStringLiteral("refused"), QStringLiteral("--lease-ms"),
                               QStringLiteral("3000"), QStringLiteral("--poll-ms"), QStringLiteral("100"),
                               QStringLiteral("--backoff-base-ms"), QStringLiteral("100"),
                               QStringLiteral("--backoff-cap-ms"), QStringLiteral("500"),
                               QStringLiteral("-X"), QStringLiteral("message.timeout.ms=800")});
    }

    // The relay's own sessions end; it opens new ones (under the database's new rules).
    static void dropRelaySessions(Setup& s, qint64 exceptId = -1)
    {
        if (s.db->url().kind == DatabaseKind::PostgreSql) {
            run(*s.db,
                QStringLiteral("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE usename = '%1'")
                    .arg(s.role));
            return;
        }
        auto ids = s.db->exec(
            QStringLiteral("SELECT id FROM information_schema.processlist WHERE user = '%1' AND id <> %2")
                .arg(s.role)
                .arg(exceptId));
        QVERIFY(ids.ok());
        QList<qint64> list;
        while (ids->next())
            list << ids->value(0).toLongLong();
        for (qint64 id : list)
            (void)s.db->exec(QStringLiteral("KILL CONNECTION %1").arg(id)); // may have ended meanwhile
    }

    // While the database refuses, events become due: nothing may reach the topic; afterwards all
    // of them, once, and the relay's log named the database's refusal.
    static void expectNothingSentThenAll(Setup& s, EmbeddedBroker& broker, QProcess& relay,
                                         const std::function<void()>& accept, const QString& refusal)
    {
        insertEvents(*s.db, 4);
        QTest::qWait(4000);
        QCOMPARE(readTopic(broker.bootstrap(), QStringLiteral("order"), -1, 1500).size(), 0);
        QCOMPARE(countStatus(*s.db, "PENDING"), qint64(4));
        QVERIFY(relay.state() == QProcess::Running);
        accept();
        QTRY_VERIFY_WITH_TIMEOUT(countStatus(*s.db, "SENT") == 4, 30000);
        QCOMPARE(terminateAndWait(relay), 0);
        const QString log = QString::fromUtf8(relay.readAll());
        QVERIFY2(log.contains(QLatin1String("DEGRADED")) && log.contains(refusal, Qt::CaseInsensitive),
                 qPrintable(log.right(2500)));
        QCOMPARE(duplicatesOnTopic(*s.db, broker.bootstrap(), 4), 0);
    }

private slots:
    void readOnlyDatabase_data()
    {
        QTest::addColumn<QString>("kind");
        QTest::newRow("postgresql") << QStringLiteral("postgresql");
        QTest::newRow("mysql") << QStringLiteral("mysql");
    }
    void readOnlyDatabase()
    {
        QFETCH(QString, kind);
        if (!TestDatabases::available(kind))
            QSKIP("no test server for this database");
        auto broker = startOrderBroker();
        Setup s = prepare(kind, QStringLiteral("readonly"));
        auto relay = startRelay(s.relayUrl, broker->bootstrap());
        QTRY_VERIFY_WITH_TIMEOUT(countRows(*s.db, QStringLiteral("{relays}")) == 1, 10000);
        const bool pg = kind == QLatin1String("postgresql");
        if (pg) {
            run(*s.db, QStringLiteral("ALTER ROLE %1 SET default_transaction_read_only = on").arg(s.role));
            dropRelaySessions(s);
        } else {
            run(*s.db, QStringLiteral("SET GLOBAL read_only = 1")); // the owner has SUPER; the relay not
        }
        auto accept = [&] {
            if (pg) {
                run(*s.db, QStringLiteral("ALTER ROLE %1 RESET default_transaction_read_only").arg(s.role));
                dropRelaySessions(s);
            } else {
                run(*s.db, QStringLiteral("SET GLOBAL read_only = 0"));
            }
        };
        expectNothingSentThenAll(s, *broker, *relay, accept, QStringLiteral("read-only"));
        if (!pg)
            (void)s.db->exec(QStringLiteral("SET GLOBAL read_only = 0")); // also after a failure above
    }

    // PostgreSQL: the role's CONNECTION LIMIT 0 refuses every new session ("too many connections for
    // role"). MariaDB: MAX_USER_CONNECTIONS 0 means unlimited, so the account gets a limit of 1 that a
    // session of its own, opened by the test after the limit and before the relay's are cut, uses ("has
    // exceeded the 'max_user_connections' resource"); the server-wide max_connections would refuse the other
    // tests.
    void tooManyConnections_data()
    {
        QTest::addColumn<QString>("kind");
        QTest::newRow("postgresql") << QStringLiteral("postgresql");
        QTest::newRow("mysql") << QStringLiteral("mysql");
    }
    void tooManyConnections()
    {
        QFETCH(QString, kind);
        if (!TestDatabases::available(kind))
            QSKIP("no test server for this database");
        auto broker = startOrderBroker();
        Setup s = prepare(kind, QStringLiteral("connlimit"));
        auto relay = startRelay(s.relayUrl, broker->bootstrap());
        QTRY_VERIFY_WITH_TIMEOUT(countRows(*s.db, QStringLiteral("{relays}")) == 1, 10000);
        if (kind == QLatin1String("postgresql")) {
            run(*s.db, QStringLiteral("ALTER ROLE %1 CONNECTION LIMIT 0").arg(s.role));
            dropRelaySessions(s);
            auto accept = [&] {
                run(*s.db, QStringLiteral("ALTER ROLE %1 CONNECTION LIMIT -1").arg(s.role));
            };
            expectNothingSentThenAll(s, *broker, *relay, accept, QStringLiteral("too many connections"));
            return;
        }
        const QString account = QStringLiteral("'%1'@'127.0.0.1'").arg(s.role);
        // MariaDB counts an account's sessions only from those opened after it has a limit.
        run(*s.db, QStringLiteral("ALTER USER %1 WITH MAX_USER_CONNECTIONS 1").arg(account));
        auto holder = Database::open(DatabaseUrl::parse(s.relayUrl).value()); // as the relay's account
        QVERIFY2(holder.ok(), qPrintable(holder.message()));
        auto holderId = (*holder)->exec(QStringLiteral("SELECT CONNECTION_ID()"));
        QVERIFY(holderId.ok() && holderId->next());
        const qint64 held = holderId->value(0).toLongLong();
        dropRelaySessions(s, held);
        auto accept = [&] {
            run(*s.db, QStringLiteral("ALTER USER %1 WITH MAX_USER_CONNECTIONS 0").arg(account));
        };
        expectNothingSentThenAll(s, *broker, *relay, accept, QStringLiteral("max_user_connections"));
    }
};

QTEST_GUILESS_MAIN(TestRelayDbRefusals)
#include "tst_relaydbrefusals.moc"
