#include "tests/support/TestFleet.h"

#include "core/db/Migrator.h"
#include "tests/support/TestDatabases.h"

#include <QFile>

namespace outbox::test {

std::unique_ptr<Database> migratedWithPrefix(const DatabaseUrl& url, const QString& prefix)
{
    Database::Options options;
    options.purpose = QStringLiteral("test-") + prefix;
    options.tablePrefix = prefix;
    auto db = Database::open(url, options);
    if (!db)
        qFatal("cannot open %s: %s", qPrintable(url.redacted()), qPrintable(db.message()));
    if (auto report = Migrator(**db).migrate(); !report)
        qFatal("migration failed: %s", qPrintable(report.message()));
    return std::move(db).value();
}

QString writeTestFile(const QTemporaryDir& dir, const QString& name, const QByteArray& text)
{
    const QString path = dir.filePath(name);
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate))
        qFatal("cannot write %s", qPrintable(path));
    f.write(text);
    return path;
}

QString urlWithoutPassword(DatabaseUrl url)
{
    url.password.clear();
    return url.redacted();
}

bool SickFleet::available()
{
    return TestDatabases::available(QStringLiteral("postgresql")) &&
           TestDatabases::available(QStringLiteral("mysql"));
}

void SickFleet::build(const QTemporaryDir& dir, const QByteArray& fleetSection)
{
    if (!blackHole.isListening() && !blackHole.listen(QHostAddress::LocalHost, 0))
        qFatal("the black hole cannot listen");
    const QString name = TestDatabases::uniqueName(QStringLiteral("fleet"));
    pg = TestDatabases::create(QStringLiteral("postgresql"), name);
    pgInventory = TestDatabases::create(QStringLiteral("postgresql"), name + QStringLiteral("_inv"));
    mysql = TestDatabases::create(QStringLiteral("mysql"), name);
    sqlite = TestDatabases::create(QStringLiteral("sqlite"), name);
    orders = migratedWithPrefix(pg, QString());
    billing = migratedWithPrefix(pg, QStringLiteral("b_"));
    inventory = migratedWithPrefix(pgInventory, QString());
    payments = migratedWithPrefix(mysql, QString());
    edge = migratedWithPrefix(sqlite, QString());

    // billing: the relay stopped ten minutes ago with events left over, some of them FAILED.
    const QVector<qint64> sick = insertEvents(*billing, BillingFailed + BillingPending);
    forceStatus(*billing, sick.mid(0, BillingFailed), QStringLiteral("FAILED"),
                QStringLiteral("Broker: Topic authorization failed"));
    registerRelay(*billing, QStringLiteral("billing-relay-1"), 10 * 60 * 1000);
    // The others have sent everything (the same row ids in orders as in billing).
    forceStatus(*orders, insertEvents(*orders, 5), QStringLiteral("SENT"));
    forceStatus(*inventory, insertEvents(*inventory, 3), QStringLiteral("SENT"));
    forceStatus(*payments, insertEvents(*payments, 4), QStringLiteral("SENT"));
    forceStatus(*edge, insertEvents(*edge, 2), QStringLiteral("SENT"));

    const auto member = [](const char* memberName, const QString& url, const QByteArray& rest) -> QByteArray {
        return "[member " + QByteArray(memberName) + "]\nurl = " + url.toUtf8() + '\n' + rest;
    };
    file = writeTestFile(
        dir, QStringLiteral("fleet.ini"),
        "[fleet]\n" + fleetSection +
            member("orders", urlWithoutPassword(pg), "tags = team=checkout, env=prod\n") +
            member("billing", urlWithoutPassword(pg), "table_prefix = b_\ntags = team=payments, env=prod\n") +
            member("inventory", urlWithoutPassword(pgInventory), "tags = team=warehouse\n") +
            member("payments", urlWithoutPassword(mysql), "tags = team=payments, env=prod\n") +
            member("edge", urlWithoutPassword(sqlite), "tags = team=edge\n") +
            member("black-hole",
                   QStringLiteral("postgresql://outbox@127.0.0.1:%1/nothing").arg(blackHole.serverPort()),
                   "tags = team=checkout\n"));
    passwords = QProcessEnvironment();
    for (const char* m : {"ORDERS", "BILLING", "INVENTORY"})
        passwords.insert(QStringLiteral("OUTBOX_DB_PASSWORD_") + QLatin1String(m), pg.password);
    passwords.insert(QStringLiteral("OUTBOX_DB_PASSWORD_PAYMENTS"), mysql.password);
}

} // namespace outbox::test
