#include "core/broker/kafka/EmbeddedBroker.h"
#include "tests/support/OutboxctlProcess.h"
#include "tests/support/RelayChecks.h"
#include "tests/support/TestDatabases.h"
#include "tests/support/TopicReader.h"

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

using namespace outbox;
using namespace outbox::test;

// A relay whose SQLite database sits on a full disk (a 5 MB tmpfs): its claim cannot commit, so it
// must send nothing, say DEGRADED with the database's own error and back off; once space returns,
// every event goes out exactly once. (Before: the claim's failed autocommit was ignored and the
// same events were produced again and again.)
class TestRelayDiskFull : public QObject
{
    Q_OBJECT

    QTemporaryDir m_mountPoint;
    bool m_mounted = false;

    static int run(const QString& program, const QStringList& args)
    {
        QProcess p;
        p.start(program, args);
        return p.waitForFinished(20000) && p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    }

    // Writes a filler file until the file system refuses a byte more.
    static bool fillDisk(const QString& path)
    {
        QFile filler(path);
        if (!filler.open(QIODevice::WriteOnly))
            return false;
        const QByteArray block(64 * 1024, 'x');
        while (filler.write(block) == block.size() && filler.flush()) {
        }
        for (const QByteArray small(512, 'x'); filler.write(small) > 0 && filler.flush();) {
        }
        return true;
    }

private slots:
    void initTestCase()
    {
        QVERIFY(m_mountPoint.isValid());
        if (run(QStringLiteral("mount"),
                {QStringLiteral("-t"), QStringLiteral("tmpfs"), QStringLiteral("-o"),
                 QStringLiteral("size=5m"), QStringLiteral("tmpfs"), m_mountPoint.path()}) != 0)
            QSKIP("mounting a small tmpfs needs root");
        m_mounted = true;
        qputenv("OUTBOX_TEST_TMP", m_mountPoint.path().toUtf8()); // TestDatabases' SQLite files
    }
    void cleanupTestCase()
    {
        if (m_mounted)
            run(QStringLiteral("umount"), {QStringLiteral("-l"), m_mountPoint.path()});
    }

    void claimOnAFullDiskSendsNothing()
    {
        auto broker = startOrderBroker();
        auto db = TestDatabases::fresh(QStringLiteral("sqlite"), QStringLiteral("diskfull"));
        const QString url = TestDatabases::urlText(db->url());
        const auto ids = insertEvents(*db, 4);
        // Due in a few seconds: by then the relay runs and the disk is full.
        QVERIFY(db->exec(QStringLiteral("UPDATE {events} SET available_at = %1")
                             .arg(db->dialect().nowPlusMillis(QStringLiteral(":ms"))),
                         {{QStringLiteral(":ms"), 6000}})
                    .ok());
        auto relay = startOutboxctl(
            {QStringLiteral("relay"), QStringLiteral("--db"), url, QStringLiteral("--kafka-bootstrap"),
             broker->bootstrap(), QStringLiteral("--worker-id"), QStringLiteral("diskfull"),
             QStringLiteral("--lease-ms"), QStringLiteral("3000"), QStringLiteral("--poll-ms"),
             QStringLiteral("100"), QStringLiteral("--backoff-base-ms"), QStringLiteral("100"),
             QStringLiteral("--backoff-cap-ms"), QStringLiteral("500"), QStringLiteral("-X"),
             QStringLiteral("message.timeout.ms=800")});
        QTRY_VERIFY_WITH_TIMEOUT(countRows(*db, QStringLiteral("{relays}")) == 1, 5000);
        // Every later write needs new space: the write-ahead log starts empty, the disk is full.
        QVERIFY(db->exec(QStringLiteral("PRAGMA wal_checkpoint(TRUNCATE)")).ok());
        const QString filler = QDir(m_mountPoint.path()).filePath(QStringLiteral("filler"));
        QVERIFY(fillDisk(filler));

        QTest::qWait(9000); // the events are due for the last 3 s or more
        const auto whileFull = readTopic(broker->bootstrap(), QStringLiteral("order"), -1, 1500);
        QCOMPARE(whileFull.size(), 0); // a claim that did not commit is never sent
        QCOMPARE(countStatus(*db, "PENDING"), qint64(4));

        QVERIFY(QFile::remove(filler));
        QTRY_VERIFY_WITH_TIMEOUT(countStatus(*db, "SENT") == 4, 20000);
        QCOMPARE(terminateAndWait(*relay), 0);
        const QString log = QString::fromUtf8(relay->readAll());
        QVERIFY2(log.contains(QLatin1String("DEGRADED")) && log.contains(QLatin1String("disk is full")),
                 qPrintable(log.right(1500)));
        QCOMPARE(duplicatesOnTopic(*db, broker->bootstrap(), 4), 0);
        Q_UNUSED(ids);
    }
};

QTEST_GUILESS_MAIN(TestRelayDiskFull)
#include "tst_relaydiskfull.moc"
