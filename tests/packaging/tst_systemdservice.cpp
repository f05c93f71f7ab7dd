// The real outboxctl under a service manager's eyes, as the Type=notify units run it: READY=1
// only once the relay (or the web server) really runs, WATCHDOG=1 pings at half WatchdogSec,
// STOPPING=1 when a SIGTERM starts the drain, journal priorities ("<3>", "<5>") only when
// stderr is the journal, and the database password from a systemd credential.
#include "core/broker/kafka/EmbeddedBroker.h"
#include "tests/support/OutboxctlProcess.h"
#include "tests/support/TestDatabases.h"

#include <QElapsedTimer>
#include <QFile>
#include <QProcess>
#include <QRegularExpression>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTemporaryDir>
#include <QTest>
#include <poll.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

using namespace outbox;
using namespace outbox::test;

namespace {

// The receiving end of NOTIFY_SOCKET: a datagram socket, as systemd has.
class NotifySocket
{
public:
    explicit NotifySocket(const QString& path) : m_path(path)
    {
        m_fd = ::socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
        sockaddr_un address{};
        address.sun_family = AF_UNIX;
        const QByteArray bytes = QFile::encodeName(path);
        ::strncpy(address.sun_path, bytes.constData(), sizeof(address.sun_path) - 1);
        m_bound = m_fd >= 0 && ::bind(m_fd, reinterpret_cast<sockaddr*>(&address), sizeof(address)) == 0;
    }
    ~NotifySocket()
    {
        if (m_fd >= 0)
            ::close(m_fd);
    }
    bool bound() const { return m_bound; }
    QString path() const { return m_path; }

    // Every message received until one contains `field` (then true) or `ms` pass (false).
    bool waitFor(const QString& field, int ms)
    {
        QElapsedTimer t;
        t.start();
        while (t.elapsed() < ms) {
            pollfd p{m_fd, POLLIN, 0};
            if (::poll(&p, 1, 50) <= 0)
                continue;
            char buffer[4096];
            const ssize_t n = ::recv(m_fd, buffer, sizeof(buffer), 0);
            if (n <= 0)
                continue;
            const QString message = QString::fromUtf8(buffer, int(n));
            messages << message;
            if (message.split(QLatin1Char('\n')).contains(field))
                return true;
        }
        return false;
    }
    int count(const QString& field) const
    {
        int n = 0;
        for (const QString& m : messages)
            n += m.split(QLatin1Char('\n')).count(field);
        return n;
    }
    QString status() const
    {
        for (auto it = messages.crbegin(); it != messages.crend(); ++it)
            for (const QString& line : it->split(QLatin1Char('\n')))
                if (line.startsWith(QLatin1String("STATUS=")))
                    return line.mid(7);
        return {};
    }

    QStringList messages;

private:
    QString m_path;
    int m_fd = -1;
    bool m_bound = false;
};

// JOURNAL_STREAM for a file: its "device:inode", as systemd sets it for the journal's socket.
QString journalStreamOf(const QString& file)
{
    struct stat st;
    if (::stat(QFile::encodeName(file).constData(), &st) != 0)
        return {};
    return QStringLiteral("%1:%2").arg(qulonglong(st.st_dev)).arg(qulonglong(st.st_ino));
}

// outboxctl with a clean environment (no password, no database from the test's own environment),
// stdout and stderr into files.
std::unique_ptr<QProcess> startOutboxctl(const QStringList& arguments, const QProcessEnvironment& extra,
                                         const QString& outFile, const QString& errFile)
{
    OutboxctlStart options;
    options.removedVariables = {QStringLiteral("OUTBOX_DB_PASSWORD"),   QStringLiteral("OUTBOX_DB_URL"),
                                QStringLiteral("NOTIFY_SOCKET"),        QStringLiteral("WATCHDOG_USEC"),
                                QStringLiteral("WATCHDOG_PID"),         QStringLiteral("JOURNAL_STREAM"),
                                QStringLiteral("CREDENTIALS_DIRECTORY")};
    options.extraEnv = extra;
    options.outFile = outFile;
    options.errFile = errFile;
    return outbox::test::startOutboxctl(arguments, options);
}

QString readFile(const QString& path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readAll()) : QString();
}

quint16 freePort()
{
    QTcpServer server;
    server.listen(QHostAddress::LocalHost, 0);
    return server.serverPort();
}

} // namespace

class TestSystemdService : public QObject
{
    Q_OBJECT

private slots:
    void relayIsReadyWhenItsWorkersRunAndDrainsOnStop()
    {
        QTemporaryDir dir;
        auto db = TestDatabases::fresh(QStringLiteral("sqlite"),
                                       TestDatabases::uniqueName(QStringLiteral("notify")));
        QVERIFY(db);
        auto broker = EmbeddedBroker::start(1);
        QVERIFY2(broker, broker ? "" : qPrintable(broker.error().message));
        NotifySocket notify(dir.filePath(QStringLiteral("notify")));
        QVERIFY(notify.bound());
        const QString errFile = dir.filePath(QStringLiteral("stderr"));
        QFile(errFile).open(QIODevice::WriteOnly); // exists before, so its inode names the "journal"

        QProcessEnvironment env;
        env.insert(QStringLiteral("NOTIFY_SOCKET"), notify.path());
        env.insert(QStringLiteral("WATCHDOG_USEC"), QStringLiteral("1000000"));
        env.insert(QStringLiteral("JOURNAL_STREAM"), journalStreamOf(errFile));
        auto relay = startOutboxctl({QStringLiteral("relay"), QStringLiteral("--db"),
                                     TestDatabases::urlText(db->url()), QStringLiteral("--kafka-bootstrap"),
                                     (*broker)->bootstrap(), QStringLiteral("--workers"), QStringLiteral("2"),
                                     QStringLiteral("--worker-id"), QStringLiteral("notify-test")},
                                    env, dir.filePath(QStringLiteral("stdout")), errFile);

        QVERIFY2(notify.waitFor(QStringLiteral("READY=1"), 20000), qPrintable(readFile(errFile)));
        // Ready means running: both workers have registered their heartbeat by then.
        QCOMPARE(
            countRows(*db, QStringLiteral("outbox_relays"), QStringLiteral("worker_id LIKE 'notify-test-%'")),
            qint64(2));
        QCOMPARE(notify.count(QStringLiteral("READY=1")), 1);
        QVERIFY(notify.status().contains(QLatin1String("2 worker(s) running")));

        // WatchdogSec=1s: a ping every half second.
        const int pingsBefore = notify.count(QStringLiteral("WATCHDOG=1"));
        QTest::qWait(2600);
        notify.waitFor(QStringLiteral("-"), 100);
        QVERIFY2(notify.count(QStringLiteral("WATCHDOG=1")) - pingsBefore >= 4,
                 qPrintable(notify.messages.join(QLatin1String(" | "))));

        relay->terminate();
        QVERIFY(notify.waitFor(QStringLiteral("STOPPING=1"), 10000));
        QVERIFY(relay->waitForFinished(30000));
        QCOMPARE(relay->exitStatus(), QProcess::NormalExit);
        QCOMPARE(relay->exitCode(), 0);

        // Journal priorities: state changes are notices.
        const QString journal = readFile(errFile);
        QVERIFY2(journal.contains(QLatin1String("<5>outboxctl relay: 2 worker(s)")), qPrintable(journal));
        QVERIFY2(QRegularExpression(QStringLiteral("(^|\\n)<5>\\S+ relay notify-test-1: STARTING -> RUNNING"))
                     .match(journal)
                     .hasMatch(),
                 qPrintable(journal));
        QVERIFY2(journal.contains(QLatin1String("<5>outboxctl relay: stopped")), qPrintable(journal));
    }

    void relayThatCannotStartIsNeverReady()
    {
        QTemporaryDir dir;
        NotifySocket notify(dir.filePath(QStringLiteral("notify")));
        QVERIFY(notify.bound());
        const QString errFile = dir.filePath(QStringLiteral("stderr"));
        QFile(errFile).open(QIODevice::WriteOnly);
        QProcessEnvironment env;
        env.insert(QStringLiteral("NOTIFY_SOCKET"), notify.path());
        env.insert(QStringLiteral("JOURNAL_STREAM"), journalStreamOf(errFile));
        auto relay =
            startOutboxctl({QStringLiteral("relay"), QStringLiteral("--db"),
                            QStringLiteral("sqlite://") + dir.filePath(QStringLiteral("missing/none.db")),
                            QStringLiteral("--kafka-bootstrap"), QStringLiteral("127.0.0.1:1")},
                           env, dir.filePath(QStringLiteral("stdout")), errFile);
        QVERIFY(relay->waitForFinished(30000));
        QCOMPARE(relay->exitCode(), 1);
        QVERIFY(!notify.waitFor(QStringLiteral("READY=1"), 200));
        // Errors are filed as err.
        const QString journal = readFile(errFile);
        QVERIFY2(journal.startsWith(QLatin1String("<3>outboxctl: ")), qPrintable(journal));
    }

    void noPrioritiesWhenStderrIsNotTheJournal()
    {
        QTemporaryDir dir;
        const QString errFile = dir.filePath(QStringLiteral("stderr"));
        const QString other = dir.filePath(QStringLiteral("other"));
        QFile(other).open(QIODevice::WriteOnly);
        QProcessEnvironment env;
        env.insert(QStringLiteral("JOURNAL_STREAM"), journalStreamOf(other)); // another file's inode
        auto relay =
            startOutboxctl({QStringLiteral("relay"), QStringLiteral("--db"),
                            QStringLiteral("sqlite://") + dir.filePath(QStringLiteral("missing/none.db")),
                            QStringLiteral("--kafka-bootstrap"), QStringLiteral("127.0.0.1:1")},
                           env, dir.filePath(QStringLiteral("stdout")), errFile);
        QVERIFY(relay->waitForFinished(30000));
        QCOMPARE(relay->exitCode(), 1);
        const QString text = readFile(errFile);
        QVERIFY2(text.startsWith(QLatin1String("outboxctl: ")), qPrintable(text));
    }

    void serveIsReadyWhenItAcceptsConnections()
    {
        QTemporaryDir dir;
        auto db = TestDatabases::fresh(QStringLiteral("sqlite"),
                                       TestDatabases::uniqueName(QStringLiteral("serve")));
        QVERIFY(db);
        NotifySocket notify(dir.filePath(QStringLiteral("notify")));
        QVERIFY(notify.bound());
        const quint16 port = freePort();
        QProcessEnvironment env;
        env.insert(QStringLiteral("NOTIFY_SOCKET"), notify.path());
        env.insert(QStringLiteral("WATCHDOG_USEC"), QStringLiteral("600000"));
        auto serve = startOutboxctl(
            {QStringLiteral("serve"), QStringLiteral("--db"), TestDatabases::urlText(db->url()),
             QStringLiteral("--listen"), QStringLiteral("127.0.0.1:%1").arg(port),
             QStringLiteral("--public-dashboard")},
            env, dir.filePath(QStringLiteral("stdout")), dir.filePath(QStringLiteral("stderr")));
        QVERIFY2(notify.waitFor(QStringLiteral("READY=1"), 20000),
                 qPrintable(readFile(dir.filePath(QStringLiteral("stderr")))));
        QCOMPARE(notify.status(), QStringLiteral("serving on http://127.0.0.1:%1/").arg(port));
        // Right after READY=1 the server answers.
        QTcpSocket socket;
        socket.connectToHost(QHostAddress::LocalHost, port);
        QVERIFY(socket.waitForConnected(2000));
        socket.write("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n");
        QVERIFY(socket.waitForReadyRead(5000));
        const QByteArray statusLine = socket.readLine();
        QVERIFY2(statusLine.startsWith("HTTP/1.1 200"), statusLine.constData());
        QVERIFY(notify.waitFor(QStringLiteral("WATCHDOG=1"), 2000));

        serve->terminate();
        QVERIFY(notify.waitFor(QStringLiteral("STOPPING=1"), 10000));
        QVERIFY(serve->waitForFinished(30000));
        QCOMPARE(serve->exitCode(), 0);
    }

    void passwordFromSystemdCredential()
    {
        if (!TestDatabases::available(QStringLiteral("mysql")))
            QSKIP("no MariaDB test server");
        // The MariaDB test server wants a password ("outbox"); the URL has none.
        const DatabaseUrl url =
            TestDatabases::create(QStringLiteral("mysql"), TestDatabases::uniqueName(QStringLiteral("cred")));
        const QString urlText = QStringLiteral("mysql://outbox@%1/%2")
                                    .arg(qEnvironmentVariable("OUTBOX_TEST_MYSQL"), url.database);
        QTemporaryDir dir;
        const QString credentials = dir.filePath(QStringLiteral("credentials"));
        QDir().mkpath(credentials);
        auto run = [&](const QByteArray& password) {
            QFile file(QDir(credentials).filePath(QStringLiteral("db-password")));
            file.open(QIODevice::WriteOnly | QIODevice::Truncate);
            file.write(password + '\n');
            file.close();
            QProcessEnvironment env;
            env.insert(QStringLiteral("CREDENTIALS_DIRECTORY"), credentials);
            auto p = startOutboxctl({QStringLiteral("migrate"), QStringLiteral("--db"), urlText}, env,
                                    dir.filePath(QStringLiteral("stdout")),
                                    dir.filePath(QStringLiteral("stderr")));
            p->waitForFinished(60000);
            return p->exitCode();
        };
        QCOMPARE(run("not-the-password"), 1);
        QVERIFY(readFile(dir.filePath(QStringLiteral("stderr"))).contains(QLatin1String("denied")));
        QCOMPARE(run("outbox"), 0);
    }
};

QTEST_GUILESS_MAIN(TestSystemdService)
#include "tst_systemdservice.moc"
