// Issue 36, "Done when": an incident drill on a loaded fleet. `outboxctl serve --fleet` watches four
// members — orders (PostgreSQL, healthy), billing (PostgreSQL behind a proxy that delays every
// packet: slower than the fleet's timeout, with NEW dead letters), edge (SQLite, healthy) and gone (a
// port that accepts TCP and never answers) — and a real Prometheus (the CTest fixture, the shipped
// rules with `for:` shortened to 2 s) scrapes it. Over the drill no member flaps (outbox_member_up of
// every member never changes), billing's dead letters fire OutboxDeadLetters although its samples
// miss the timeout, and gone alone is unreachable (OutboxDatabaseUnreachable for gone only).
#include "core/db/DeadLetterStore.h"
#include "tests/support/OutboxctlProcess.h"
#include "tests/support/TestDatabases.h"

#include <QCryptographicHash>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QPointer>
#include <QScopeGuard>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>
#include <QUrlQuery>

using namespace outbox;
using namespace outbox::test;

namespace {

QString fixtureFile(const QString& name)
{
    QFile f(qEnvironmentVariable("OUTBOX_TEST_PROMETHEUS_DIR") + QLatin1Char('/') + name);
    if (!f.open(QIODevice::ReadOnly))
        qFatal("the Prometheus fixture has no %s (is OUTBOX_TEST_PROMETHEUS_DIR set?)", qPrintable(name));
    return QString::fromUtf8(f.readAll().trimmed());
}

QJsonObject prometheusGet(const QString& path, const QUrlQuery& query = {})
{
    QNetworkAccessManager nam;
    QUrl url(
        QStringLiteral("http://127.0.0.1:%1%2").arg(fixtureFile(QStringLiteral("prometheus.port")), path));
    url.setQuery(query);
    std::unique_ptr<QNetworkReply> reply(nam.get(QNetworkRequest(url)));
    QElapsedTimer t;
    t.start();
    while (!reply->isFinished() && t.elapsed() < 10000)
        QTest::qWait(20);
    return QJsonDocument::fromJson(reply->readAll()).object();
}

// {database -> value} of an instant PromQL query.
QMap<QString, double> query(const QString& promql)
{
    QUrlQuery q;
    q.addQueryItem(QStringLiteral("query"), promql);
    QMap<QString, double> out;
    for (const QJsonValue& v : prometheusGet(QStringLiteral("/api/v1/query"), q)
                                   .value(QStringLiteral("data"))
                                   .toObject()
                                   .value(QStringLiteral("result"))
                                   .toArray()) {
        const QJsonObject o = v.toObject();
        out.insert(o.value(QStringLiteral("metric")).toObject().value(QStringLiteral("database")).toString(),
                   o.value(QStringLiteral("value")).toArray().at(1).toString().toDouble());
    }
    return out;
}

// The databases of the alerts named `name` in `state` ("pending", "firing"; empty: either).
QStringList alertDatabases(const QString& name, const QString& state = {})
{
    QStringList out;
    for (const QJsonValue& v : prometheusGet(QStringLiteral("/api/v1/alerts"))
                                   .value(QStringLiteral("data"))
                                   .toObject()
                                   .value(QStringLiteral("alerts"))
                                   .toArray()) {
        const QJsonObject a = v.toObject();
        const QJsonObject labels = a.value(QStringLiteral("labels")).toObject();
        if (labels.value(QStringLiteral("alertname")).toString() == name &&
            (state.isEmpty() || a.value(QStringLiteral("state")).toString() == state))
            out << labels.value(QStringLiteral("database")).toString();
    }
    out.sort();
    return out;
}

// A TCP proxy in front of PostgreSQL that holds every chunk `delayMs` before passing it on, both
// ways: each round trip of the protocol costs 2 × delayMs, so a whole sample (tens of statements)
// takes seconds while every statement still answers.
class DelayingProxy : public QObject
{
public:
    DelayingProxy(quint16 upstreamPort, int delayMs) : m_upstreamPort(upstreamPort), m_delayMs(delayMs)
    {
        QObject::connect(&m_server, &QTcpServer::newConnection, this, [this] {
            while (QTcpSocket* client = m_server.nextPendingConnection()) {
                auto* upstream = new QTcpSocket(client);
                upstream->connectToHost(QHostAddress::LocalHost, m_upstreamPort);
                pipe(client, upstream);
                pipe(upstream, client);
                QObject::connect(client, &QTcpSocket::disconnected, client, &QObject::deleteLater);
                QObject::connect(upstream, &QTcpSocket::disconnected, client, [client] { client->close(); });
            }
        });
    }
    bool listen() { return m_server.listen(QHostAddress::LocalHost, 0); }
    void setDelay(int ms) { m_delayMs = ms; }
    quint16 port() const { return m_server.serverPort(); }

private:
    void pipe(QTcpSocket* from, QTcpSocket* to)
    {
        QObject::connect(from, &QTcpSocket::readyRead, this, [this, from, to] {
            const QByteArray data = from->readAll();
            QPointer<QTcpSocket> target(to);
            QTimer::singleShot(m_delayMs, this, [target, data] {
                if (target && target->state() != QAbstractSocket::UnconnectedState)
                    target->write(data);
            });
        });
    }

    QTcpServer m_server;
    quint16 m_upstreamPort;
    int m_delayMs;
};

QByteArray urlWithoutPassword(DatabaseUrl url)
{
    url.password.clear();
    return url.redacted().toUtf8();
}

} // namespace

class TestFleetDrill : public QObject
{
    Q_OBJECT

private slots:
    void slowMemberPagesAndNobodyFlaps()
    {
        if (!TestDatabases::available(QStringLiteral("postgresql")))
            QSKIP("needs the PostgreSQL test server");
        auto orders = TestDatabases::fresh(QStringLiteral("postgresql"),
                                           TestDatabases::uniqueName(QStringLiteral("drill")));
        const DatabaseUrl pg = orders->url();
        forceStatus(*orders, insertEvents(*orders, 5), QStringLiteral("SENT"));
        auto billing = TestDatabases::fresh(QStringLiteral("postgresql"),
                                            TestDatabases::uniqueName(QStringLiteral("drillslow")));
        const DatabaseUrl billingUrl = billing->url();
        forceStatus(*billing, insertEvents(*billing, 5), QStringLiteral("SENT"));
        for (int i = 0; i < 30; ++i) {
            DeadLetter letter;
            letter.consumerName = QStringLiteral("invoicing");
            letter.eventId = QStringLiteral("e-drill-%1").arg(i);
            letter.topic = QStringLiteral("order");
            letter.headers = R"({"schema_version":"1"})";
            letter.payload = "{\"order_id\":\"o\",\"sku\":\"SKU-l\"}";
            letter.error = QStringLiteral("unknown SKU SKU-l");
            QVERIFY(DeadLetterStore(*billing).insert(letter).ok());
        }
        auto edge = TestDatabases::fresh(QStringLiteral("sqlite"),
                                         TestDatabases::uniqueName(QStringLiteral("drilledge")));
        const DatabaseUrl edgeUrl = edge->url();

        // billing through the delaying proxy; gone accepts TCP and never answers.
        const int delayMs = qEnvironmentVariableIntValue("OUTBOX_DRILL_DELAY_MS") > 0
                                ? qEnvironmentVariableIntValue("OUTBOX_DRILL_DELAY_MS")
                                : 25;
        DelayingProxy proxy(quint16(billingUrl.port), 0); // fast until the drill makes it slow
        QVERIFY(proxy.listen());
        DatabaseUrl viaProxy = billingUrl;
        viaProxy.port = proxy.port();
        QTcpServer blackHole;
        QVERIFY(blackHole.listen(QHostAddress::LocalHost, 0));

        QTemporaryDir dir;
        const QString fleetFile = dir.filePath(QStringLiteral("fleet.ini"));
        {
            QFile f(fleetFile);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write("[fleet]\nmax_connections = 4\ntimeout = 2s\ninterval = 3s\ndoctor_interval = 10s\n"
                    "unreachable_after = 5\n"
                    "[member orders]\nurl = " +
                    urlWithoutPassword(pg) +
                    "\ntags = team=checkout\n"
                    "[member billing]\nurl = " +
                    urlWithoutPassword(viaProxy) +
                    "\ntags = team=payments\n"
                    "[member edge]\nurl = " +
                    urlWithoutPassword(edgeUrl) +
                    "\n"
                    "[member gone]\nurl = postgresql://outbox@127.0.0.1:" +
                    QByteArray::number(blackHole.serverPort()) + "/nothing\n");
        }
        const QByteArray token = fixtureFile(QStringLiteral("token")).toUtf8();
        const QString ini = dir.filePath(QStringLiteral("serve.ini"));
        {
            QFile config(ini);
            QVERIFY(config.open(QIODevice::WriteOnly));
            config.write(QStringLiteral("[web]\nlisten = 127.0.0.1:%1\n[tokens]\nprometheus = viewer:%2\n")
                             .arg(fixtureFile(QStringLiteral("target.port")),
                                  QString::fromLatin1(
                                      QCryptographicHash::hash(token, QCryptographicHash::Sha256).toHex()))
                             .toUtf8());
        }
        OutboxctlStart start;
        start.extraEnv.insert(QStringLiteral("OUTBOX_DB_PASSWORD_ORDERS"), pg.password);
        start.extraEnv.insert(QStringLiteral("OUTBOX_DB_PASSWORD_BILLING"), billingUrl.password);
        start.outFile = dir.filePath(QStringLiteral("serve.log"));
        auto serve = startOutboxctl(
            {QStringLiteral("serve"), QStringLiteral("--config"), ini, QStringLiteral("--fleet"), fleetFile},
            start);
        auto stop = qScopeGuard([&] { terminateAndWait(*serve); });

        // Every member's outbox_member_up from the first scrape on; the drill runs until billing's
        // dead letters page (at most 90 s), watching the alerts every second meanwhile.
        // Before the incident every member but gone has answered (a member's first sample has nothing
        // to keep: one that never answered is unreachable at its first miss).
        QTRY_VERIFY_WITH_TIMEOUT(query(QStringLiteral("sum by (database) (outbox_member_up)")) ==
                                     (QMap<QString, double>{{QStringLiteral("billing"), 1.0},
                                                            {QStringLiteral("edge"), 1.0},
                                                            {QStringLiteral("gone"), 0.0},
                                                            {QStringLiteral("orders"), 1.0}}),
                                 60000);
        // Whatever the first samples of a loaded machine did has settled: only gone's alert is left.
        QTRY_VERIFY_WITH_TIMEOUT(alertDatabases(QStringLiteral("OutboxDatabaseUnreachable")) ==
                                     QStringList{QStringLiteral("gone")},
                                 30000);
        // The incident: billing gets slow (every packet held back), as a loaded database does.
        proxy.setDelay(delayMs);
        QElapsedTimer drill;
        drill.start();
        QStringList unreachableSeen;
        bool billingPaged = false;
        int billingMissed = 0;
        while (drill.elapsed() < 100000) {
            for (const QString& db : alertDatabases(QStringLiteral("OutboxDatabaseUnreachable")))
                if (!unreachableSeen.contains(db))
                    unreachableSeen << db;
            billingMissed = std::max(
                billingMissed, int(query(QStringLiteral("outbox_member_missed_samples{database=\"billing\"}"))
                                       .value(QStringLiteral("billing"))));
            billingPaged = alertDatabases(QStringLiteral("OutboxDeadLetters"), QStringLiteral("firing"))
                               .contains(QStringLiteral("billing"));
            if (billingPaged && unreachableSeen.contains(QStringLiteral("gone")) && drill.elapsed() > 30000)
                break;
            QTest::qWait(1000);
        }
        qInfo("drill: %.0f s, billing missed up to %d tick(s) in a row, unreachable alerts for %s",
              double(drill.elapsed()) / 1000.0, billingMissed,
              qPrintable(unreachableSeen.join(QLatin1Char(','))));
        QVERIFY2(billingMissed > 0, "billing never missed the timeout: the proxy does not slow it enough "
                                    "(raise OUTBOX_DRILL_DELAY_MS)");
        QVERIFY2(billingPaged, "OutboxDeadLetters did not fire for the slow member billing");
        QCOMPARE(unreachableSeen, QStringList{QStringLiteral("gone")});
        // No member flapped: outbox_member_up never changed over the drill, for any member.
        const QMap<QString, double> changes =
            query(QStringLiteral("changes(outbox_member_up[%1s])").arg(drill.elapsed() / 1000 - 1));
        QCOMPARE(changes.size(), 4);
        for (auto it = changes.cbegin(); it != changes.cend(); ++it)
            QVERIFY2(it.value() == 0,
                     qPrintable(it.key() + QStringLiteral(" changed %1 time(s)").arg(it.value())));
        const QMap<QString, double> up = query(QStringLiteral("outbox_member_up"));
        QCOMPARE(up.value(QStringLiteral("billing")), 1.0);
        QCOMPARE(up.value(QStringLiteral("orders")), 1.0);
        QCOMPARE(up.value(QStringLiteral("edge")), 1.0);
        QCOMPARE(up.value(QStringLiteral("gone")), 0.0);
    }
};

QTEST_GUILESS_MAIN(TestFleetDrill)
#include "tst_fleetdrill.moc"
