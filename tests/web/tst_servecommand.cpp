// `outboxctl serve` as a process: tokens it prints work, bad settings fail with exit code 2,
// binding beyond loopback without TLS warns, SIGTERM ends it cleanly.
#include "tests/support/OutboxctlProcess.h"
#include "tests/support/ServeProcess.h"
#include "tests/support/TestDatabases.h"
#include "tests/web/HttpTestClient.h"

#include <QProcess>
#include <QRegularExpression>
#include <QTcpServer>
#include <QTemporaryDir>
#include <QTest>

using namespace outbox;
using namespace outbox::test;

namespace {

QString outboxctl()
{
    return qEnvironmentVariable("OUTBOXCTL");
}

struct Run
{
    int exitCode = -1;
    QString out;
    QString err;
};

Run run(const QStringList& args)
{
    const OutboxctlRun r = runOutboxctl(args, {}, 30000);
    return {r.exitCode, QString::fromUtf8(r.out), QString::fromUtf8(r.err)};
}

} // namespace

class TestServeCommand : public QObject
{
    Q_OBJECT

private slots:
    void newTokenPrintsAWorkingConfigLine()
    {
        QVERIFY(!outboxctl().isEmpty());
        const Run r = run({QStringLiteral("serve"), QStringLiteral("--new-token"), QStringLiteral("ops"),
                           QStringLiteral("--role"), QStringLiteral("operator")});
        QCOMPARE(r.exitCode, 0);
        const auto m =
            QRegularExpression(QStringLiteral("\\n  (\\S+)\\n.*\\n  (ops = operator:[0-9a-f]{64})\\n"))
                .match(r.out);
        QVERIFY2(m.hasMatch(), qPrintable(r.out));
        const QString secret = m.captured(1);
        const QString line = m.captured(2);

        auto db = TestDatabases::fresh(QStringLiteral("sqlite"), QStringLiteral("serve"));
        const auto ids = insertEvents(*db, 2);
        forceStatus(*db, ids, QStringLiteral("FAILED"), QStringLiteral("x"));
        ServeProcess serve;
        QVERIFY2(serve.start("[database]\nurl = " + TestDatabases::urlText(db->url()).toUtf8() +
                             "\n[tokens]\n" + line.toUtf8() + "\n"),
                 serve.output.constData());
        QProcess& server = *serve.process;
        const quint16 port = serve.port;
        HttpTestClient http(QUrl(QStringLiteral("http://127.0.0.1:%1/").arg(port)));
        const auto reply = http.post(
            QStringLiteral("/api/v1/events/requeue"),
            "{\"filter\":{\"status\":\"FAILED\"},\"reason\":\"from the serve test\"}", secret.toUtf8());
        QCOMPARE(reply.status, 200);
        QCOMPARE(reply.json().value(QStringLiteral("affected")).toInteger(), 2);
        QCOMPARE(countRows(*db, QStringLiteral("{audit}"), QStringLiteral("actor = 'ops'")), qint64(1));
        server.terminate(); // SIGTERM: a clean exit, threads joined
        QVERIFY(server.waitForFinished(15000));
        QCOMPARE(server.exitStatus(), QProcess::NormalExit);
        QCOMPARE(server.exitCode(), 0);
        const QString all = QString::fromUtf8(serve.output + server.readAll());
        QVERIFY(!all.contains(secret)); // the secret never shows up in its output
        QVERIFY(!all.contains(QStringLiteral("warning")));
    }

    void beyondLoopbackWithoutTlsWarns()
    {
        auto db = TestDatabases::fresh(QStringLiteral("sqlite"), QStringLiteral("servewarn"));
        auto started = startOutboxctl({QStringLiteral("serve"), QStringLiteral("--db"),
                                       TestDatabases::urlText(db->url()), QStringLiteral("--listen"),
                                       QStringLiteral("0.0.0.0:%1").arg(freeLocalPort())});
        QProcess& server = *started;
        QByteArray output; // stdout and stderr merged
        QTRY_VERIFY_WITH_TIMEOUT((output += server.readAll()).contains("without TLS"), 15000);
        server.terminate();
        QVERIFY(server.waitForFinished(15000));
    }

    void badSettingsAreUsageErrors_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("message");
        QTest::newRow("listen") << QStringList{QStringLiteral("--listen"), QStringLiteral("nowhere:99999")}
                                << QStringLiteral("invalid listen");
        QTest::newRow("tls half") << QStringList{QStringLiteral("--tls-cert"),
                                                 QStringLiteral("/nonexistent.crt")}
                                  << QStringLiteral("both a certificate and a key");
        QTest::newRow("tls files") << QStringList{QStringLiteral("--tls-cert"),
                                                  QStringLiteral("/nonexistent.crt"),
                                                  QStringLiteral("--tls-key"),
                                                  QStringLiteral("/nonexistent.key")}
                                   << QStringLiteral("cannot read the TLS certificate");
        QTest::newRow("config") << QStringList{QStringLiteral("--config"), QStringLiteral("/nonexistent.ini")}
                                << QStringLiteral("cannot read the configuration file");
        QTest::newRow("role") << QStringList{QStringLiteral("--new-token"), QStringLiteral("x"),
                                             QStringLiteral("--role"), QStringLiteral("admin")}
                              << QStringLiteral("--role");
    }
    void badSettingsAreUsageErrors()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, message);
        auto db = TestDatabases::fresh(QStringLiteral("sqlite"), QStringLiteral("servebad"));
        const Run r = run(
            QStringList{QStringLiteral("serve"), QStringLiteral("--db"), TestDatabases::urlText(db->url())} +
            args);
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(message), qPrintable(r.err));
        QCOMPARE(r.err.count(QLatin1Char('\n')), 1); // one line
    }
};

QTEST_GUILESS_MAIN(TestServeCommand)
#include "tst_servecommand.moc"
