#include "core/broker/kafka/EmbeddedBroker.h"
#include "core/db/EventStore.h"
#include "tests/support/OutboxctlProcess.h"
#include "tests/support/TestDatabases.h"

#include <QCoreApplication>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTest>

using namespace outbox;
using namespace outbox::test;

// The separate runtime role of `outboxctl migrate --print-grants ROLE`, created on the fixture
// servers: an operator action and the relay work under it, and it cannot rewrite the audit log
// (UPDATE, DELETE, TRUNCATE, DROP TRIGGER are refused), which the owning role on MariaDB could.
namespace {

using Cli = OutboxctlRun;

Cli outboxctl(const QStringList& args, const QString& password = {})
{
    QProcessEnvironment env;
    if (!password.isEmpty())
        env.insert(QStringLiteral("OUTBOX_DB_PASSWORD"), password);
    return runOutboxctl(args, env, 60000);
}

// The statements of a --print-grants output (comments dropped).
QStringList statementsOf(const QByteArray& output)
{
    QStringList statements;
    for (const QString& line : QString::fromUtf8(output).split(QLatin1Char('\n'))) {
        const QString s = line.trimmed();
        if (!s.isEmpty() && !s.startsWith(QLatin1String("--")))
            statements << s.chopped(s.endsWith(QLatin1Char(';')) ? 1 : 0);
    }
    return statements;
}

} // namespace

class TestRuntimeRole : public QObject
{
    Q_OBJECT

private slots:
    void runtimeRoleWorksAndCannotRewriteTheAuditLog_data()
    {
        QTest::addColumn<QString>("kind");
        for (const QString& k : {QStringLiteral("postgresql"), QStringLiteral("mysql")})
            if (TestDatabases::available(k))
                QTest::newRow(qPrintable(k)) << k;
    }
    void runtimeRoleWorksAndCannotRewriteTheAuditLog()
    {
        QFETCH(QString, kind);
        const bool pg = kind == QLatin1String("postgresql");
        auto owner = TestDatabases::fresh(kind, QStringLiteral("role"));
        const QString ownerUrl = TestDatabases::urlText(owner->url());
        const QString role = QStringLiteral("outbox_rt_%1").arg(QCoreApplication::applicationPid());
        const QString password = QStringLiteral("rt-secret");
        if (pg) {
            (void)owner->exec(QStringLiteral("DROP OWNED BY %1").arg(role));
            (void)owner->exec(QStringLiteral("DROP ROLE IF EXISTS %1").arg(role));
            QVERIFY(owner->exec(QStringLiteral("CREATE ROLE %1 LOGIN").arg(role)).ok());
        } else {
            (void)owner->exec(QStringLiteral("DROP USER IF EXISTS '%1'@'127.0.0.1'").arg(role));
            QVERIFY(
                owner
                    ->exec(
                        QStringLiteral("CREATE USER '%1'@'127.0.0.1' IDENTIFIED BY '%2'").arg(role, password))
                    .ok());
        }
        const QString grantee = pg ? role : role + QStringLiteral("@127.0.0.1");
        const Cli grants = outboxctl({QStringLiteral("migrate"), QStringLiteral("--print-grants"), grantee,
                                      QStringLiteral("--db"), ownerUrl});
        QVERIFY2(grants.exitCode == 0, grants.err.constData());
        const QStringList statements = statementsOf(grants.out);
        QVERIFY2(statements.size() >= 6, grants.out.constData());
        for (const QString& s : statements) {
            auto done = owner->exec(s);
            QVERIFY2(done.ok(), qPrintable(s + QStringLiteral(": ") + done.message()));
        }
        QVERIFY2(grants.out.contains(pg ? "GRANT SELECT, INSERT ON TABLE outbox_audit_log TO "
                                        : "`outbox_audit_log`"),
                 grants.out.constData());

        DatabaseUrl runtimeUrl = owner->url();
        runtimeUrl.user = role;
        runtimeUrl.password.clear();
        const QString runtime = TestDatabases::urlText(runtimeUrl);
        const QString runtimePassword = pg ? QString() : password;

        // An operator action and the relay, as the runtime role.
        const auto ids = insertEvents(*owner, 20);
        forceStatus(*owner, {ids[0], ids[1]}, QStringLiteral("FAILED"), QStringLiteral("boom"));
        const Cli requeue =
            outboxctl({QStringLiteral("requeue"), QString::number(ids[0]), QString::number(ids[1]),
                       QStringLiteral("--db"), runtime, QStringLiteral("--reason"),
                       QStringLiteral("broker fixed"), QStringLiteral("--yes")},
                      runtimePassword);
        QVERIFY2(requeue.exitCode == 0, requeue.err.constData());
        QCOMPARE(countRows(*owner, QStringLiteral("{audit}")), qint64(1));
        auto b = EmbeddedBroker::start(1);
        QVERIFY(b.ok() && (*b)->createTopic(QStringLiteral("order"), 2).ok());
        auto relay = [&] {
            qputenv("OUTBOX_DB_PASSWORD", runtimePassword.toUtf8());
            auto p = startOutboxctl({QStringLiteral("relay"), QStringLiteral("--db"), runtime,
                                     QStringLiteral("--kafka-bootstrap"), (*b)->bootstrap(),
                                     QStringLiteral("--worker-id"), QStringLiteral("runtime-role"),
                                     QStringLiteral("--poll-ms"), QStringLiteral("100")});
            qunsetenv("OUTBOX_DB_PASSWORD");
            return p;
        }();
        QTRY_COMPARE_WITH_TIMEOUT(
            countRows(*owner, QStringLiteral("{events}"), QStringLiteral("status = 'SENT'")), qint64(20),
            30000);
        QCOMPARE(terminateAndWait(*relay), 0);
        QCOMPARE(countRows(*owner, QStringLiteral("{relays}")), qint64(0)); // it deregistered itself

        // The audit log, as the runtime role: appended to, never rewritten.
        auto rt = TestDatabases::open([&] {
            DatabaseUrl u = runtimeUrl;
            u.password = runtimePassword;
            return u;
        }());
        QVERIFY(rt->exec(QStringLiteral("SELECT COUNT(*) FROM {audit}")).ok());
        const QStringList refused{
            QStringLiteral("UPDATE {audit} SET reason = 'rewritten'"),
            QStringLiteral("DELETE FROM {audit}"),
            QStringLiteral("TRUNCATE TABLE {audit}"),
            pg ? QStringLiteral("DROP TRIGGER {audit}_append_only ON {audit}")
               : QStringLiteral("DROP TRIGGER {audit}_no_update"),
            QStringLiteral("DROP TABLE {audit}"),
            QStringLiteral("ALTER TABLE {audit} ADD COLUMN x INTEGER"),
        };
        for (const QString& statement : refused) {
            auto q = rt->exec(statement);
            QVERIFY2(!q.ok(), qPrintable(statement + QStringLiteral(" was allowed")));
            qInfo("%s: refused: %s", qPrintable(statement), qPrintable(q.message()));
        }
        QCOMPARE(countRows(*owner, QStringLiteral("{audit}"), QStringLiteral("reason = 'broker fixed'")),
                 qint64(1));
        rt.reset();
        if (pg) {
            (void)owner->exec(QStringLiteral("DROP OWNED BY %1").arg(role));
            (void)owner->exec(QStringLiteral("DROP ROLE IF EXISTS %1").arg(role));
        }
    }

    // On PostgreSQL even the owner cannot TRUNCATE the audit log: a statement trigger refuses it.
    void postgresRefusesTruncateEvenToTheOwner()
    {
        if (!TestDatabases::available(QStringLiteral("postgresql")))
            QSKIP("no PostgreSQL test server configured");
        auto db = TestDatabases::fresh(QStringLiteral("postgresql"), QStringLiteral("truncate"));
        QVERIFY(db->exec(QStringLiteral(
                             "INSERT INTO {audit} (actor, action, target_kind, reason, outcome) VALUES "
                             "('alice', 'events.requeue', 'event', 'kept', 'ok')"))
                    .ok());
        auto q = db->exec(QStringLiteral("TRUNCATE {audit}"));
        QVERIFY(!q.ok());
        QVERIFY2(q.message().contains(QStringLiteral("append-only")), qPrintable(q.message()));
        QCOMPARE(countRows(*db, QStringLiteral("{audit}")), qint64(1));
    }

    void sqliteHasNoRolesAndSaysSo()
    {
        auto db = TestDatabases::fresh(QStringLiteral("sqlite"), QStringLiteral("grants"));
        const Cli out = outboxctl({QStringLiteral("migrate"), QStringLiteral("--print-grants"),
                                   QStringLiteral("outbox_runtime"), QStringLiteral("--db"),
                                   TestDatabases::urlText(db->url())});
        QCOMPARE(out.exitCode, 0);
        QVERIFY2(out.out.contains("SQLite has no roles"), out.out.constData());
        const Cli bad = outboxctl({QStringLiteral("migrate"), QStringLiteral("--print-grants"),
                                   QStringLiteral("x; DROP TABLE y"), QStringLiteral("--db"),
                                   TestDatabases::urlText(db->url())});
        QCOMPARE(bad.exitCode, 2);
        QVERIFY2(bad.err.contains("invalid role"), bad.err.constData());
    }
};

QTEST_GUILESS_MAIN(TestRuntimeRole)
#include "tst_runtimerole.moc"
