#include "core/fleet/Fleet.h"
#include "core/fleet/FleetFileWriter.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QTemporaryDir>
#include <QTest>

using namespace outbox;

// The fleet file: the issue's example as written, passwords from the environment or a private
// file, sources of every value, and one clear error (file, line, member) for every bad member.
class TestFleet : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;

    QString write(const QByteArray& text, const QString& name, QFile::Permissions permissions = {})
    {
        const QString path = m_dir.filePath(name);
        QFile f(path);
        if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate))
            qFatal("cannot write %s", qPrintable(path));
        f.write(text);
        f.close();
        if (permissions)
            f.setPermissions(permissions);
        return path;
    }

    static QByteArray example()
    {
        return "[fleet]\n"
               "max_connections = 16        ; sampling connections open at once, across all members\n"
               "timeout = 3s                ; a member that does not answer in time is \"unreachable\" for "
               "that "
               "tick\n"
               "interval = 5s\n"
               "\n"
               "[member orders]\n"
               "url = postgresql://outbox@db-orders:5432/orders\n"
               "table_prefix =\n"
               "tags = team=checkout, env=prod\n"
               "\n"
               "[member payments]\n"
               "url = mysql://outbox@db-pay:3306/payments\n"
               "tags = team=payments, env=prod\n"
               "\n"
               "[member edge-cache]\n"
               "url = sqlite:///var/lib/edge/outbox.db\n"
               "tags = team=edge\n";
    }

private slots:
    void theIssuesExampleReads()
    {
        QProcessEnvironment env;
        env.insert(QStringLiteral("OUTBOX_DB_PASSWORD_ORDERS"), QStringLiteral("s3cret"));
        env.insert(QStringLiteral("OUTBOX_DB_PASSWORD_EDGE_CACHE"), QStringLiteral("ignored-by-sqlite"));
        auto fleet = Fleet::parse(example(), QStringLiteral("fleet.ini"), env);
        QVERIFY2(fleet.ok(), qPrintable(fleet.message()));
        QCOMPARE(fleet->maxConnections(), 16);
        QCOMPARE(fleet->timeoutMs(), qint64(3000));
        QCOMPARE(fleet->intervalMs(), qint64(5000));
        QCOMPARE(fleet->members().size(), 3);
        const FleetMember& orders = fleet->members().at(0);
        QCOMPARE(orders.name, QStringLiteral("orders"));
        QCOMPARE(orders.url().kind, DatabaseKind::PostgreSql);
        QCOMPARE(orders.url().host, QStringLiteral("db-orders"));
        QCOMPARE(orders.url().password, QStringLiteral("s3cret"));
        // One command line for a member wherever it is printed: its target's.
        QCOMPARE(orders.target.memberName(), QStringLiteral("orders"));
        QCOMPARE(orders.target.outboxctlArguments(),
                 (QStringList{QStringLiteral("--fleet"), QStringLiteral("fleet.ini"),
                              QStringLiteral("--member"), QStringLiteral("orders")}));
        // A child started on it (the desktop's relay or serve on a member) gets the password in the
        // member's own variable, which --member reads first.
        const QProcessEnvironment child = orders.target.childEnvironment(QProcessEnvironment());
        QCOMPARE(child.value(QStringLiteral("OUTBOX_DB_PASSWORD_ORDERS")), QStringLiteral("s3cret"));
        QVERIFY(!child.contains(QStringLiteral("OUTBOX_DB_PASSWORD")));
        QCOMPARE(orders.tagTexts(),
                 (QStringList{QStringLiteral("team=checkout"), QStringLiteral("env=prod")}));
        QVERIFY(orders.hasTag(QStringLiteral("team=checkout")));
        QVERIFY(!orders.hasTag(QStringLiteral("team=payments")));
        QCOMPARE(fleet->member(QStringLiteral("payments"))->url().kind, DatabaseKind::MySql);
        QCOMPARE(fleet->member(QStringLiteral("payments"))->url().password, QString());
        QCOMPARE(fleet->member(QStringLiteral("edge-cache"))->url().database,
                 QStringLiteral("/var/lib/edge/outbox.db"));
        QCOMPARE(Fleet::passwordVariable(QStringLiteral("edge-cache")),
                 QStringLiteral("OUTBOX_DB_PASSWORD_EDGE_CACHE"));

        // config show: the source of each value, the password never.
        const QString text = fleet->toText();
        QVERIFY2(text.contains(QStringLiteral("timeout = 3s")), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("; file:fleet.ini:3")), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("[member orders]")), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("url = postgresql://outbox@db-orders:5432/orders")),
                 qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("; file:fleet.ini:7")), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("password = ***")), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("; env:OUTBOX_DB_PASSWORD_ORDERS")), qPrintable(text));
        QVERIFY(!text.contains(QStringLiteral("s3cret")));
        const QJsonObject json = fleet->toJson();
        QCOMPARE(json.value(QStringLiteral("members")).toArray().size(), 3);
        QVERIFY(!QString::fromUtf8(QJsonDocument(json).toJson()).contains(QStringLiteral("s3cret")));
    }

    void defaultsWithoutAFleetSection()
    {
        auto fleet = Fleet::parse("[member a]\nurl = sqlite:///tmp/a.db\n", QStringLiteral("f.ini"), {});
        QVERIFY2(fleet.ok(), qPrintable(fleet.message()));
        QCOMPARE(fleet->maxConnections(), Fleet::DefaultMaxConnections);
        QCOMPARE(fleet->timeoutMs(), Fleet::DefaultTimeoutMs);
        QVERIFY(fleet->toText().contains(QStringLiteral("; default")));
        QVERIFY(!fleet->find(QStringLiteral("b")).ok());
        QVERIFY(fleet->find(QStringLiteral("b")).message().contains(QStringLiteral("members: a")));
    }

    void passwordFileOfItsOwnerOnly()
    {
        const QString secret = write("from-file\nsecond line\n", QStringLiteral("orders.password"),
                                     QFile::ReadOwner | QFile::WriteOwner);
        const QByteArray text =
            "[member orders]\nurl = postgresql://outbox@db:5432/orders\npassword_file = " + secret.toUtf8() +
            "\n";
        auto fleet = Fleet::parse(text, QStringLiteral("f.ini"), {});
        QVERIFY2(fleet.ok(), qPrintable(fleet.message()));
        QCOMPARE(fleet->members().at(0).url().password, QStringLiteral("from-file"));
        QVERIFY(fleet->toText().contains(QStringLiteral("; file:") + secret + QStringLiteral(":1")));

        // The environment wins over the file.
        QProcessEnvironment env;
        env.insert(QStringLiteral("OUTBOX_DB_PASSWORD_ORDERS"), QStringLiteral("from-env"));
        fleet = Fleet::parse(text, QStringLiteral("f.ini"), env);
        QVERIFY2(fleet.ok(), qPrintable(fleet.message()));
        QCOMPARE(fleet->members().at(0).url().password, QStringLiteral("from-env"));

        // A file the group or the world may read is refused, naming the member and the line.
        QFile::setPermissions(secret,
                              QFile::ReadOwner | QFile::WriteOwner | QFile::ReadGroup | QFile::ReadOther);
        fleet = Fleet::parse(text, QStringLiteral("f.ini"), {});
        QVERIFY(!fleet.ok());
        QCOMPARE(fleet.error().kind, ErrorKind::Usage);
        QVERIFY2(fleet.message().startsWith(QStringLiteral("f.ini:3: member orders: password_file ")),
                 qPrintable(fleet.message()));
        QVERIFY2(fleet.message().contains(QStringLiteral("chmod 600")), qPrintable(fleet.message()));
        QVERIFY(!fleet.message().contains(QStringLiteral("from-file")));
    }

    void badFleetIsOneClearError_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<QString>("expected"); // the start of the message

        const QByteArray good =
            "[fleet]\ntimeout = 2s\n[member orders]\nurl = postgresql://u@h:5432/orders\n";
        QTest::newRow("bad url") << QByteArray(good + "[member pay]\nurl = oracle://u@h/pay\n")
                                 << QStringLiteral("f.ini:6: member pay: ");
        QTest::newRow("unknown key") << QByteArray(good +
                                                   "[member pay]\nurl = sqlite:///p.db\ncolour = red\n")
                                     << QStringLiteral("f.ini:7: member pay: unknown key colour");
        QTest::newRow("duplicate name") << QByteArray(good + "[member orders]\nurl = sqlite:///p.db\n")
                                        << QStringLiteral("f.ini:5: section [member orders] appears twice");
        QTest::newRow("same password variable")
            << QByteArray(good + "[member Orders]\nurl = sqlite:///p.db\n")
            << QStringLiteral("f.ini:5: member Orders: the name is the same as member orders's on line 3");
        QTest::newRow("password in the url")
            << QByteArray(good + "[member pay]\nurl = mysql://u:hunter2@h/pay\n")
            << QStringLiteral("f.ini:6: member pay: a password does not belong in the fleet file");
        QTest::newRow("no url") << QByteArray(good + "[member pay]\ntags = team=payments\n")
                                << QStringLiteral("f.ini:5: member pay: has no url");
        QTest::newRow("bad prefix") << QByteArray(good +
                                                  "[member pay]\nurl = sqlite:///p.db\ntable_prefix = 1x;\n")
                                    << QStringLiteral("f.ini:7: member pay: table_prefix must be");
        QTest::newRow("bad tag") << QByteArray(good + "[member pay]\nurl = sqlite:///p.db\ntags = team=a b\n")
                                 << QStringLiteral("f.ini:7: member pay: invalid tag \"team=a b\"");
        QTest::newRow("bad name") << QByteArray(good + "[member -x]\nurl = sqlite:///p.db\n")
                                  << QStringLiteral("f.ini:5: member -x: a member name");
        QTest::newRow("member without a name") << QByteArray(good + "[member]\nurl = sqlite:///p.db\n")
                                               << QStringLiteral("f.ini:5: [member] needs a name");
        QTest::newRow("unknown section") << QByteArray(good + "[database]\nurl = sqlite:///p.db\n")
                                         << QStringLiteral("f.ini:5: unknown section [database]");
        QTest::newRow("unknown fleet key") << QByteArray("[fleet]\nthreads = 3\n" + good.mid(21))
                                           << QStringLiteral("f.ini:2: unknown key threads in [fleet]");
        QTest::newRow("bad timeout") << QByteArray(
                                            "[fleet]\ntimeout = soon\n[member a]\nurl = sqlite:///a.db\n")
                                     << QStringLiteral("f.ini:2: [fleet] timeout must be a duration");
        QTest::newRow("bad max_connections")
            << QByteArray("[fleet]\nmax_connections = 0\n[member a]\nurl = sqlite:///a.db\n")
            << QStringLiteral("f.ini:2: [fleet] max_connections must be a number between 1 and 1000");
        QTest::newRow("no members") << QByteArray("[fleet]\ntimeout = 2s\n")
                                    << QStringLiteral("f.ini: the fleet file has no [member NAME] section");
        QTest::newRow("syntax") << QByteArray(good + "[member pay\n")
                                << QStringLiteral("f.ini:5: malformed section");
    }

    void badFleetIsOneClearError()
    {
        QFETCH(QByteArray, text);
        QFETCH(QString, expected);
        auto fleet = Fleet::parse(text, QStringLiteral("f.ini"), {});
        QVERIFY2(!fleet.ok(), text.constData());
        QCOMPARE(fleet.error().kind, ErrorKind::Usage);
        QVERIFY2(fleet.message().startsWith(expected), qPrintable(fleet.message()));
        QVERIFY(!fleet.message().contains(QStringLiteral("hunter2")));
    }

    void loadReadsAFileAndRefusesAMissingOne()
    {
        const QString path = write(example(), QStringLiteral("fleet.ini"));
        auto fleet = Fleet::load(path, {});
        QVERIFY2(fleet.ok(), qPrintable(fleet.message()));
        QCOMPARE(fleet->file(), path);
        QVERIFY(fleet->toText().contains(QStringLiteral("; file:") + path + QStringLiteral(":7")));
        auto missing = Fleet::load(m_dir.filePath(QStringLiteral("none.ini")), {});
        QVERIFY(!missing.ok());
        QVERIFY(missing.message().startsWith(QStringLiteral("cannot read the fleet file")));
    }

    // FleetFileWriter: what it writes, Fleet reads back exactly (a value with " ;" or '#' quoted), with
    // no password; a member Fleet would refuse is one error naming it and nothing is written.
    void writtenFleetReadsBack()
    {
        const QVector<FleetFileWriter::Member> members{
            {QStringLiteral("orders"),
             QStringLiteral("postgresql://ops:hunter2@db-orders:5432/orders?sslmode=require"),
             QStringLiteral("o_"),
             {QStringLiteral("team=checkout"), QStringLiteral("env=prod")}},
            {QStringLiteral("edge-cache"),
             QStringLiteral("sqlite:///var/lib/edge ;odd/#outbox.db"),
             QString(),
             {QStringLiteral("edge")}},
        };
        auto text = FleetFileWriter::render(members);
        QVERIFY2(text.ok(), qPrintable(text.message()));
        QVERIFY2(!text->contains("hunter2"), text->constData());
        auto fleet = Fleet::parse(*text, QStringLiteral("written.ini"), {});
        QVERIFY2(fleet.ok(), qPrintable(fleet.message()));
        QCOMPARE(fleet->members().size(), 2);
        QCOMPARE(fleet->members().at(0).url().redacted(),
                 QStringLiteral("postgresql://ops@db-orders:5432/orders?sslmode=require"));
        QCOMPARE(fleet->members().at(0).tablePrefix(), QStringLiteral("o_"));
        QCOMPARE(fleet->members().at(0).tagTexts(),
                 (QStringList{QStringLiteral("team=checkout"), QStringLiteral("env=prod")}));
        QCOMPARE(fleet->members().at(1).url().database, QStringLiteral("/var/lib/edge ;odd/#outbox.db"));
        QCOMPARE(fleet->members().at(1).tagTexts(), QStringList{QStringLiteral("edge")});

        const QString path = m_dir.filePath(QStringLiteral("written.ini"));
        QVERIFY(FleetFileWriter::write(path, members).ok());
        QVERIFY(Fleet::load(path, {}).ok());

        for (const FleetFileWriter::Member& bad :
             {FleetFileWriter::Member{QStringLiteral("has space"), QStringLiteral("sqlite:///x.db"), {}, {}},
              FleetFileWriter::Member{QStringLiteral("ftp"), QStringLiteral("ftp://x/y"), {}, {}},
              FleetFileWriter::Member{
                  QStringLiteral("quote"), QStringLiteral("sqlite:///x.db"), {}, {QStringLiteral("a\"b")}}}) {
            const QString target = m_dir.filePath(QStringLiteral("bad.ini"));
            const Status written = FleetFileWriter::write(target, {members.at(0), bad});
            QVERIFY(!written.ok());
            QCOMPARE(written.error().kind, ErrorKind::Usage);
            QVERIFY2(written.message().contains(bad.name), qPrintable(written.message()));
            QVERIFY(!QFile::exists(target));
        }
    }
};

QTEST_GUILESS_MAIN(TestFleet)
#include "tst_fleet.moc"
