#include "core/db/DatabaseUrl.h"

#include <QTest>

using namespace outbox;

class TestDatabaseUrl : public QObject
{
    Q_OBJECT

private slots:
    void parsesValidUrls_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<int>("kind");
        QTest::addColumn<QString>("host");
        QTest::addColumn<int>("port");
        QTest::addColumn<QString>("user");
        QTest::addColumn<QString>("database");
        QTest::newRow("postgresql") << "postgresql://app@db.example:6432/orders"
                                    << int(DatabaseKind::PostgreSql) << "db.example" << 6432 << "app"
                                    << "orders";
        QTest::newRow("postgres default port")
            << "postgres://app@localhost/orders" << int(DatabaseKind::PostgreSql) << "localhost" << 5432
            << "app"
            << "orders";
        QTest::newRow("mysql") << "mysql://root:secret@127.0.0.1:3307/shop" << int(DatabaseKind::MySql)
                               << "127.0.0.1" << 3307 << "root"
                               << "shop";
        QTest::newRow("mariadb alias")
            << "mariadb://u@h/shop" << int(DatabaseKind::MySql) << "h" << 3306 << "u"
            << "shop";
        QTest::newRow("sqlite absolute")
            << "sqlite:///var/lib/outbox/demo.db" << int(DatabaseKind::Sqlite) << "" << 0 << ""
            << "/var/lib/outbox/demo.db";
        QTest::newRow("sqlite relative")
            << "sqlite://data/demo.db" << int(DatabaseKind::Sqlite) << "" << 0 << ""
            << "data/demo.db";
    }

    void parsesValidUrls()
    {
        QFETCH(QString, text);
        QFETCH(int, kind);
        QFETCH(QString, host);
        QFETCH(int, port);
        QFETCH(QString, user);
        QFETCH(QString, database);
        const auto url = DatabaseUrl::parse(text);
        QVERIFY2(url.ok(), qPrintable(url.message()));
        QCOMPARE(int(url->kind), kind);
        QCOMPARE(url->host, host);
        QCOMPARE(url->port, port);
        QCOMPARE(url->user, user);
        QCOMPARE(url->database, database);
    }

    void rejectsMalformedUrls_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("expected");
        QTest::newRow("empty") << ""
                               << "no database given";
        QTest::newRow("no scheme") << "localhost/orders"
                                   << "expected postgresql://";
        QTest::newRow("unknown scheme") << "oracle://u@h/db"
                                        << "unknown scheme";
        QTest::newRow("no host") << "postgresql:///orders"
                                 << "no host";
        QTest::newRow("no database") << "postgresql://u@h:5432/"
                                     << "exactly one database name";
        QTest::newRow("nested path") << "mysql://u@h/a/b"
                                     << "exactly one database name";
        QTest::newRow("bad port") << "postgresql://u@h:99999/db"
                                  << "invalid";
        QTest::newRow("sqlite no file") << "sqlite:///"
                                        << "names no file";
        QTest::newRow("sqlite memory") << "sqlite://:memory:"
                                       << "in-memory";
        QTest::newRow("unknown option") << "postgresql://u@h/db?evil=1"
                                        << "unsupported option";
    }

    void rejectsMalformedUrls()
    {
        QFETCH(QString, text);
        QFETCH(QString, expected);
        const auto url = DatabaseUrl::parse(text);
        QVERIFY(!url.ok());
        QCOMPARE(url.error().kind, ErrorKind::Usage);
        QVERIFY2(url.message().contains(expected), qPrintable(url.message()));
        QVERIFY(!url.message().contains(QLatin1Char('\n')));
    }

    // OUTBOX_DB_PASSWORD is configuration: core/config adds it (tst_config), the parser never reads
    // the environment.
    void passwordComesFromUrlOnlyAndIsNeverShown()
    {
        qputenv("OUTBOX_DB_PASSWORD", "from-env");
        auto fromEnv = DatabaseUrl::parse(QStringLiteral("postgresql://app@h/db"));
        QVERIFY(fromEnv.ok());
        QCOMPARE(fromEnv->password, QString());
        auto fromUrl = DatabaseUrl::parse(QStringLiteral("postgresql://app:s3cret@h/db"));
        QVERIFY(fromUrl.ok());
        QCOMPARE(fromUrl->password, QStringLiteral("s3cret"));
        QVERIFY(!fromUrl->redacted().contains(QStringLiteral("s3cret")));
        auto bad = DatabaseUrl::parse(QStringLiteral("postgresql://app:s3cret@h/db?x=1"));
        QVERIFY(!bad.ok());
        QVERIFY2(!bad.message().contains(QStringLiteral("s3cret")), qPrintable(bad.message()));
        qunsetenv("OUTBOX_DB_PASSWORD");
    }

    void passesSupportedOptions()
    {
        auto url = DatabaseUrl::parse(QStringLiteral("postgresql://u@h/db?sslmode=require"));
        QVERIFY(url.ok());
        QCOMPARE(url->connectOptions, QStringLiteral("sslmode=require"));
    }
};

QTEST_GUILESS_MAIN(TestDatabaseUrl)
#include "tst_databaseurl.moc"
