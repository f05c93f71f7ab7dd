// The fleet sampler against real databases: two members in one PostgreSQL database (different table
// prefixes), one MariaDB, one SQLite file, an unmigrated SQLite file, a port that refuses and a port
// that accepts TCP and never answers. One member is sick (PENDING and FAILED events, no relay).
#include "core/db/Migrator.h"
#include "core/fleet/FleetSampler.h"
#include "tests/support/DeadLetters.h"
#include "tests/support/TestDatabases.h"

#include <QElapsedTimer>
#include <QSignalSpy>
#include <QTcpServer>
#include <QTest>

using namespace outbox;
using namespace outbox::test;

namespace {

std::unique_ptr<Database> migrated(const DatabaseUrl& url, const QString& prefix)
{
    Database::Options options;
    options.purpose = QStringLiteral("test");
    options.tablePrefix = prefix;
    auto db = Database::open(url, options);
    if (!db)
        qFatal("cannot open %s: %s", qPrintable(url.redacted()), qPrintable(db.message()));
    auto report = Migrator(**db).migrate();
    if (!report)
        qFatal("migration failed: %s", qPrintable(report.message()));
    return std::move(db).value();
}

QByteArray urlWithoutPassword(DatabaseUrl url)
{
    url.password.clear();
    return url.redacted().toUtf8();
}

const MemberSample* find(const QVector<MemberSample>& samples, const QString& name)
{
    for (const MemberSample& s : samples)
        if (s.member == name)
            return &s;
    return nullptr;
}

} // namespace

class TestFleetSampler : public QObject
{
    Q_OBJECT

private:
    QTcpServer m_blackHole; // listens, never accepts: the kernel completes the handshake, nobody answers
    std::vector<std::unique_ptr<Database>> m_dbs;
    QByteArray m_fleetText;
    QProcessEnvironment m_env;

private slots:
    void initTestCase()
    {
        for (const QString& kind : {QStringLiteral("postgresql"), QStringLiteral("mysql")})
            if (!TestDatabases::available(kind))
                QSKIP("needs the PostgreSQL and MariaDB test servers");
        QVERIFY(m_blackHole.listen(QHostAddress::LocalHost, 0));
        quint16 refusedPort = 0;
        {
            QTcpServer probe;
            QVERIFY(probe.listen(QHostAddress::LocalHost, 0));
            refusedPort = probe.serverPort();
        }

        const DatabaseUrl pg = TestDatabases::create(QStringLiteral("postgresql"),
                                                     TestDatabases::uniqueName(QStringLiteral("fleetpg")));
        auto orders = migrated(pg, QString());
        auto billing = migrated(pg, QStringLiteral("b_"));
        const DatabaseUrl my = TestDatabases::create(QStringLiteral("mysql"),
                                                     TestDatabases::uniqueName(QStringLiteral("fleetmy")));
        auto payments = migrated(my, QString());
        const DatabaseUrl edgeUrl = TestDatabases::create(QStringLiteral("sqlite"),
                                                          TestDatabases::uniqueName(QStringLiteral("edge")));
        auto edge = migrated(edgeUrl, QString());
        const DatabaseUrl freshUrl = TestDatabases::create(
            QStringLiteral("sqlite"), TestDatabases::uniqueName(QStringLiteral("fresh")));
        TestDatabases::open(freshUrl); // an empty file: no outbox schema

        // The sick one: a backlog with no relay, and FAILED events.
        const QVector<qint64> sick = insertEvents(*orders, 7);
        forceStatus(*orders, sick.mid(0, 2), QStringLiteral("FAILED"), QStringLiteral("broker said no"));
        // Two NEW dead letters and one already decided: the fleet counts the NEW ones (issue 36 M1).
        for (int i = 0; i < 3; ++i) {
            auto id =
                insertDeadLetter(*orders, QStringLiteral("inventory"), QStringLiteral("e-fleet-%1").arg(i),
                                 "{}", "{}", QStringLiteral("unknown SKU"));
            QVERIFY(id.ok());
            if (i == 2)
                exec(*orders, QStringLiteral("UPDATE {dead_letters} SET status = 'DISCARDED' WHERE id = :id"),
                     {{QStringLiteral(":id"), *id}});
        }
        // The healthy ones: everything sent.
        forceStatus(*billing, insertEvents(*billing, 3), QStringLiteral("SENT"));
        forceStatus(*payments, insertEvents(*payments, 2), QStringLiteral("SENT"));
        forceStatus(*edge, insertEvents(*edge, 1), QStringLiteral("SENT"));
        m_dbs.push_back(std::move(orders));
        m_dbs.push_back(std::move(billing));
        m_dbs.push_back(std::move(payments));
        m_dbs.push_back(std::move(edge));

        m_env.insert(QStringLiteral("OUTBOX_DB_PASSWORD_PAYMENTS"), my.password);
        m_fleetText =
            "[fleet]\nmax_connections = 2\ntimeout = 2s\ninterval = 1s\n"
            "[member orders]\nurl = " +
            urlWithoutPassword(pg) + "\ntags = team=checkout\n" +
            "[member billing]\nurl = " + urlWithoutPassword(pg) + "\ntable_prefix = b_\n" +
            "[member payments]\nurl = " + urlWithoutPassword(my) + "\ntags = team=payments\n" +
            "[member edge]\nurl = " + urlWithoutPassword(edgeUrl) + "\n" +
            "[member fresh]\nurl = " + urlWithoutPassword(freshUrl) + "\n" +
            "[member black-hole]\nurl = postgresql://outbox@127.0.0.1:" +
            QByteArray::number(m_blackHole.serverPort()) + "/nothing\n" +
            "[member gone]\nurl = postgresql://outbox@127.0.0.1:" + QByteArray::number(refusedPort) +
            "/nothing\n";
    }

    void oneTickShowsEachMemberAsItIs()
    {
        auto fleet = Fleet::parse(m_fleetText, QStringLiteral("fleet.ini"), m_env);
        QVERIFY2(fleet.ok(), qPrintable(fleet.message()));
        FleetSampler sampler(*fleet, {});
        QSignalSpy ticks(&sampler, &FleetSampler::tickFinished);
        QElapsedTimer clock;
        clock.start();
        QVERIFY(sampler.tick());
        QVERIFY(!sampler.tick()); // one tick at a time
        QVERIFY(ticks.wait(10000));
        const qint64 tickMs = clock.elapsed();
        // The black hole is given up at the timeout; it delays nobody beyond it.
        QVERIFY2(tickMs < 2000 + 1500, qPrintable(QString::number(tickMs)));
        QVERIFY2(tickMs >= 1900, qPrintable(QString::number(tickMs)));

        const auto samples = ticks.takeFirst().at(0).value<QVector<MemberSample>>();
        QCOMPARE(samples.size(), 7);
        QStringList order;
        for (const MemberSample& s : samples)
            order << s.member + QLatin1Char(':') + s.stateName();
        QCOMPARE(order, (QStringList{QStringLiteral("black-hole:unreachable"),
                                     QStringLiteral("gone:unreachable"), QStringLiteral("orders:critical"),
                                     QStringLiteral("fresh:unmigrated"), QStringLiteral("billing:ok"),
                                     QStringLiteral("edge:ok"), QStringLiteral("payments:ok")}));

        const MemberSample* hole = find(samples, QStringLiteral("black-hole"));
        QVERIFY(hole->timedOut);
        QCOMPARE(hole->error, QStringLiteral("did not answer within 2 s"));
        const MemberSample* gone = find(samples, QStringLiteral("gone"));
        QVERIFY(!gone->timedOut);
        QVERIFY2(!gone->error.isEmpty(), "a refused connection says why");
        const MemberSample* orders = find(samples, QStringLiteral("orders"));
        QCOMPARE(orders->backlog, qint64(7));
        QCOMPARE(orders->failed, qint64(2));
        QCOMPARE(orders->deadLetters, qint64(2));
        QCOMPARE(orders->toJson().value(QStringLiteral("dead_letters")).toInteger(), qint64(2));
        QVERIFY(orders->critical >= 2); // no relay, FAILED events
        QCOMPARE(orders->tags, QStringList{QStringLiteral("team=checkout")});
        QVERIFY(!orders->report.withId(QStringLiteral("no-relay")).isEmpty());
        QVERIFY(!orders->report.withId(QStringLiteral("failed-events")).isEmpty());
        // Its prepared actions name the member, not a URL.
        bool namesMember = false;
        for (const Finding& f : orders->report.findings)
            for (const PreparedAction& a : f.actions)
                namesMember = namesMember || a.command.contains(QStringLiteral("--member orders"));
        QVERIFY(namesMember);
        QVERIFY(find(samples, QStringLiteral("fresh"))->error.contains(QStringLiteral("no outbox schema")));
        for (const char* healthy : {"billing", "payments", "edge"}) {
            const MemberSample* s = find(samples, QLatin1String(healthy));
            QVERIFY2(s->error.isEmpty() && s->critical == 0 && s->warning == 0, healthy);
            QCOMPARE(s->backlog, qint64(0));
        }
        QCOMPARE(find(samples, QStringLiteral("billing"))->report.findings.size(), 0);
        QVERIFY2(sampler.peakConnections() <= 2, qPrintable(QString::number(sampler.peakConnections())));
        QVERIFY(sampler.peakConnections() >= 1);

        // The next tick at once: the black hole's first sample may still be out (its connect timeout);
        // it gets no second one, and the others are sampled as before.
        QVERIFY(sampler.tick());
        QVERIFY(ticks.wait(10000));
        const auto again = ticks.takeFirst().at(0).value<QVector<MemberSample>>();
        QCOMPARE(find(again, QStringLiteral("black-hole"))->stateName(), QStringLiteral("unreachable"));
        QCOMPARE(find(again, QStringLiteral("orders"))->stateName(), QStringLiteral("critical"));
        QCOMPARE(find(again, QStringLiteral("payments"))->stateName(), QStringLiteral("ok"));
        // gone failed twice in a row: the third tick keeps its state and its one error text, and says
        // apart when it tries again; the text does not grow from tick to tick.
        const QString goneError = find(again, QStringLiteral("gone"))->error;
        for (int i = 0; i < 2; ++i) {
            QVERIFY(sampler.tick());
            QVERIFY(ticks.wait(10000));
            const auto later = ticks.takeFirst().at(0).value<QVector<MemberSample>>();
            const MemberSample* g = find(later, QStringLiteral("gone"));
            QCOMPARE(g->stateName(), QStringLiteral("unreachable"));
            QCOMPARE(g->error, goneError);
            QVERIFY2(g->nextAttemptMs > 0, qPrintable(QString::number(g->nextAttemptMs)));
            QVERIFY(!g->toJson().value(QStringLiteral("next_attempt_seconds")).isNull());
        }
        QVERIFY2(sampler.peakConnections() <= 2, qPrintable(QString::number(sampler.peakConnections())));
    }

    // A member that accepts the connection and then hangs (here: its outbox locked by another
    // session) is unreachable at the timeout, and the server ends its statement soon after: the next
    // tick samples it again instead of "still waiting for its previous sample", and once the lock is
    // gone it is ok again.
    void hangingMemberEndsItsStatements_data()
    {
        QTest::addColumn<QString>("kind");
        QTest::newRow("postgresql") << QStringLiteral("postgresql");
        QTest::newRow("mysql") << QStringLiteral("mysql");
    }
    void hangingMemberEndsItsStatements()
    {
        QFETCH(QString, kind);
        const DatabaseUrl url =
            TestDatabases::create(kind, TestDatabases::uniqueName(QStringLiteral("hang")));
        auto member = migrated(url, QString());
        forceStatus(*member, insertEvents(*member, 3), QStringLiteral("SENT"));
        auto holder = migrated(url, QString());
        const bool pg = kind == QLatin1String("postgresql");
        if (pg) {
            QVERIFY(holder->exec(QStringLiteral("BEGIN")).ok());
            QVERIFY(holder->exec(QStringLiteral("LOCK TABLE {events} IN ACCESS EXCLUSIVE MODE")).ok());
        } else {
            QVERIFY(holder->exec(QStringLiteral("LOCK TABLES {events} WRITE")).ok());
        }
        QProcessEnvironment env;
        env.insert(Fleet::passwordVariable(QStringLiteral("locked")), url.password);
        auto fleet = Fleet::parse(
            "[fleet]\nmax_connections = 2\ntimeout = 2s\ninterval = 1s\n[member locked]\nurl = " +
                urlWithoutPassword(url) + "\n",
            QStringLiteral("fleet.ini"), env);
        QVERIFY2(fleet.ok(), qPrintable(fleet.message()));
        FleetSampler sampler(*fleet, {});
        QSignalSpy ticks(&sampler, &FleetSampler::tickFinished);
        auto next = [&] {
            if (!sampler.tick() || !ticks.wait(10000))
                qFatal("no tick");
            return ticks.takeFirst().at(0).value<QVector<MemberSample>>().value(0);
        };
        const MemberSample first = next();
        QCOMPARE(first.stateName(), QStringLiteral("unreachable"));
        QVERIFY(first.timedOut);
        QTest::qWait(2500); // the server ends the statement 3 s after the sample began
        const MemberSample second = next();
        QVERIFY2(!second.error.contains(QStringLiteral("still waiting")), qPrintable(second.error));
        QCOMPARE(second.stateName(), QStringLiteral("unreachable"));
        (void)holder->exec(pg ? QStringLiteral("ROLLBACK") : QStringLiteral("UNLOCK TABLES"));
        QTest::qWait(2500); // its second statement ended too; two failures in a row: 2 s backoff
        const MemberSample third = next();
        QVERIFY2(third.stateName() == QLatin1String("ok"),
                 qPrintable(third.stateName() + QLatin1Char(' ') + third.error));
    }

    // Two cadences and hysteresis (issue 36 H3, M5): the counts every tick, the doctor at most every
    // doctor_interval; a member that answered before and then misses ticks (its outbox locked by
    // another session: slower than the timeout) keeps its last answer and findings, marked stale,
    // until it missed unreachable_after ticks; an answer that comes after the timeout is kept (slow,
    // not unreachable).
    void slowMemberKeepsItsLastAnswer()
    {
        const DatabaseUrl url = TestDatabases::create(QStringLiteral("postgresql"),
                                                      TestDatabases::uniqueName(QStringLiteral("slow")));
        auto member = migrated(url, QString());
        insertEvents(*member, 3); // PENDING and no relay: critical no-relay
        auto holder = migrated(url, QString());
        QProcessEnvironment env;
        env.insert(Fleet::passwordVariable(QStringLiteral("slow")), url.password);
        auto fleet = Fleet::parse("[fleet]\nmax_connections = 2\ntimeout = 1s\ninterval = 1s\n"
                                  "doctor_interval = 60s\nunreachable_after = 3\n[member slow]\nurl = " +
                                      urlWithoutPassword(url) + "\n",
                                  QStringLiteral("fleet.ini"), env);
        QVERIFY2(fleet.ok(), qPrintable(fleet.message()));
        QCOMPARE(fleet->doctorIntervalMs(), qint64(60000));
        QCOMPARE(fleet->unreachableAfter(), 3);
        FleetSampler sampler(*fleet, {});
        QSignalSpy ticks(&sampler, &FleetSampler::tickFinished);
        auto next = [&] {
            // A tick whose only member is still out resolves at once, inside tick().
            if (!sampler.tick() || (ticks.isEmpty() && !ticks.wait(10000)))
                qFatal("no tick");
            return ticks.takeFirst().at(0).value<QVector<MemberSample>>().value(0);
        };
        const MemberSample first = next();
        QCOMPARE(first.stateName(), QStringLiteral("critical"));
        QVERIFY(!first.stale);
        QCOMPARE(first.backlog, qint64(3));
        QVERIFY(first.findingsAt.isValid());
        QVERIFY(!first.report.withId(QStringLiteral("no-relay")).isEmpty());

        // The counts follow every tick; the doctor's report is the first one until doctor_interval.
        insertEvents(*member, 2);
        const MemberSample second = next();
        QCOMPARE(second.backlog, qint64(5));
        QCOMPARE(second.findingsAt, first.findingsAt);
        QCOMPARE(second.stateName(), QStringLiteral("critical"));
        QVERIFY(!second.report.withId(QStringLiteral("no-relay")).isEmpty());

        // Locked: the tick misses; the member keeps its last answer, stale, still critical.
        QVERIFY(holder->exec(QStringLiteral("BEGIN")).ok());
        QVERIFY(holder->exec(QStringLiteral("LOCK TABLE {events} IN ACCESS EXCLUSIVE MODE")).ok());
        QElapsedTimer locked;
        locked.start();
        const MemberSample third = next();
        QVERIFY(third.stale);
        QVERIFY(third.timedOut);
        QCOMPARE(third.missedTicks, 1);
        QCOMPARE(third.stateName(), QStringLiteral("critical"));
        QVERIFY(third.reachable());
        QCOMPARE(third.backlog, qint64(5));
        QVERIFY(!third.report.withId(QStringLiteral("no-relay")).isEmpty());
        QCOMPARE(third.error, QStringLiteral("did not answer within 1 s"));
        QVERIFY(third.toJson().value(QStringLiteral("stale")).toBool());

        // Released before the server ends the statement: the answer comes late, and is kept (slow).
        QTest::qWait(int(std::max<qint64>(0, 1400 - locked.elapsed())));
        QVERIFY(holder->exec(QStringLiteral("ROLLBACK")).ok());
        QTest::qWait(500);
        QVERIFY(holder->exec(QStringLiteral("BEGIN")).ok());
        QVERIFY(holder->exec(QStringLiteral("LOCK TABLE {events} IN ACCESS EXCLUSIVE MODE")).ok());
        const MemberSample fourth = next();
        QVERIFY(fourth.stale);
        QCOMPARE(fourth.missedTicks, 1); // the late answer counted as an answer
        QVERIFY2(fourth.slow, "the kept answer came after the timeout");
        QVERIFY(fourth.answeredAt > third.sampledAt);
        QCOMPARE(fourth.stateName(), QStringLiteral("critical"));

        // Still locked: missed ticks add up; at unreachable_after the member is unreachable.
        const MemberSample fifth = next();
        QCOMPARE(fifth.missedTicks, 2);
        QVERIFY(fifth.stale);
        QCOMPARE(fifth.stateName(), QStringLiteral("critical"));
        const MemberSample sixth = next();
        QCOMPARE(sixth.missedTicks, 3);
        QCOMPARE(sixth.stateName(), QStringLiteral("unreachable"));
        QVERIFY(sixth.answeredAt.isValid());

        // Released: it answers again, fresh.
        QVERIFY(holder->exec(QStringLiteral("ROLLBACK")).ok());
        MemberSample back;
        for (int i = 0; i < 15 && (back.stale || back.stateName() != QLatin1String("critical")); ++i) {
            QTest::qWait(500);
            back = next();
        }
        QCOMPARE(back.stateName(), QStringLiteral("critical"));
        QVERIFY(!back.stale);
        QCOMPARE(back.missedTicks, 0);
    }

    void startTicksEveryInterval()
    {
        auto fleet = Fleet::parse(m_fleetText, QStringLiteral("fleet.ini"), m_env);
        QVERIFY2(fleet.ok(), qPrintable(fleet.message()));
        FleetSampler sampler(*fleet, {});
        QSignalSpy ticks(&sampler, &FleetSampler::tickFinished);
        sampler.start();
        QTRY_VERIFY_WITH_TIMEOUT(ticks.size() >= 2, 10000);
        sampler.stop();
        QCOMPARE(sampler.latest().size(), 7);
        QCOMPARE(sampler.latest().first().stateName(), QStringLiteral("unreachable"));
    }
};

QTEST_GUILESS_MAIN(TestFleetSampler)
#include "tst_fleetsampler.moc"
