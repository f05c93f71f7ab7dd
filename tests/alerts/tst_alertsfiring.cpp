// The shipped alert rules end to end: a real Prometheus (the CTest fixture prometheus.sh, rules
// with `for: 2s`) scrapes a real `outboxctl serve`; the database is put into a state and the
// alert for its finding must reach "firing" through the Prometheus HTTP API.
#include "core/diagnosis/Doctor.h"
#include "core/diagnosis/Runbook.h"
#include "tests/support/OutboxctlProcess.h"
#include "tests/support/TestDatabases.h"
#include "tests/support/TestPaths.h"

#include <QCryptographicHash>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QTemporaryDir>
#include <QTest>
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
    QNetworkReply* reply = nam.get(QNetworkRequest(url));
    QElapsedTimer t;
    t.start();
    while (!reply->isFinished() && t.elapsed() < 10000)
        QTest::qWait(20);
    const QJsonObject o = QJsonDocument::fromJson(reply->readAll()).object();
    delete reply;
    return o;
}

// Alerts named `name` in the given state ("pending" or "firing").
QJsonArray alerts(const QString& name, const QString& state)
{
    QJsonArray out;
    const QJsonArray all = prometheusGet(QStringLiteral("/api/v1/alerts"))
                               .value(QStringLiteral("data"))
                               .toObject()
                               .value(QStringLiteral("alerts"))
                               .toArray();
    for (const QJsonValue& v : all) {
        const QJsonObject a = v.toObject();
        if (a.value(QStringLiteral("labels")).toObject().value(QStringLiteral("alertname")).toString() ==
                name &&
            a.value(QStringLiteral("state")).toString() == state)
            out.append(a);
    }
    return out;
}

QString scrapeUp()
{
    QUrlQuery q;
    q.addQueryItem(QStringLiteral("query"), QStringLiteral("up{job=\"outbox\"}"));
    const QJsonArray result = prometheusGet(QStringLiteral("/api/v1/query"), q)
                                  .value(QStringLiteral("data"))
                                  .toObject()
                                  .value(QStringLiteral("result"))
                                  .toArray();
    return result.isEmpty()
               ? QString()
               : result.first().toObject().value(QStringLiteral("value")).toArray().at(1).toString();
}

} // namespace

class TestAlertsFiring : public QObject
{
    Q_OBJECT

private slots:
    void everyCheckHasAnAlert()
    {
        QFile rules(outbox::test::sourcePath(QStringLiteral("resources/prometheus/outbox.rules.yml")));
        QVERIFY(rules.open(QIODevice::ReadOnly));
        const QString text = QString::fromUtf8(rules.readAll());
        for (const QString& id : Doctor::checkIds()) {
            QVERIFY2(
                text.contains(
                    QStringLiteral("outbox_findings{id=\"%1\", severity=~\"warning|critical\"}").arg(id)),
                qPrintable(id));
            QVERIFY2(text.contains(QStringLiteral("`outboxctl doctor --check %1`").arg(id)), qPrintable(id));
        }
    }

    void noRelayAlertFiresThroughPrometheus()
    {
        auto db = TestDatabases::fresh(QStringLiteral("sqlite"), QStringLiteral("alerts_e2e"));
        const QString url = TestDatabases::urlText(db->url());
        const QByteArray token = fixtureFile(QStringLiteral("token")).toUtf8();
        QTemporaryDir dir;
        const QString ini = dir.filePath(QStringLiteral("serve.ini"));
        QFile config(ini);
        QVERIFY(config.open(QIODevice::WriteOnly));
        config.write(
            QStringLiteral(
                "[web]\nlisten = 127.0.0.1:%1\nsample_interval_ms = 500\nfindings_interval_ms = 500\n"
                "[tokens]\nprometheus = viewer:%2\n")
                .arg(fixtureFile(QStringLiteral("target.port")),
                     QString::fromLatin1(QCryptographicHash::hash(token, QCryptographicHash::Sha256).toHex()))
                .toUtf8());
        config.close();
        auto serve = startOutboxctl(
            {QStringLiteral("serve"), QStringLiteral("--config"), ini, QStringLiteral("--db"), url});
        auto stop = qScopeGuard([&] { terminateAndWait(*serve); });

        // Prometheus reaches the server with its viewer token.
        QTRY_COMPARE_WITH_TIMEOUT(scrapeUp(), QStringLiteral("1"), 30000);
        // Healthy: nothing pending or firing, even well past `for:`.
        QTest::qWait(4000);
        QVERIFY(alerts(QStringLiteral("OutboxNoRelay"), QStringLiteral("pending")).isEmpty());
        QVERIFY(alerts(QStringLiteral("OutboxNoRelay"), QStringLiteral("firing")).isEmpty());

        // Pending events ten minutes old and no relay.
        QElapsedTimer sinceChange;
        insertEvents(*db, 5);
        QVERIFY(db->exec(QStringLiteral("UPDATE {events} SET created_at = %1")
                             .arg(db->dialect().nowPlusMillis(QStringLiteral(":age"))),
                         {{QStringLiteral(":age"), -10 * 60 * 1000}})
                    .ok());
        sinceChange.start();
        QTRY_VERIFY_WITH_TIMEOUT(!alerts(QStringLiteral("OutboxNoRelay"), QStringLiteral("firing")).isEmpty(),
                                 40000);
        qInfo("OutboxNoRelay firing %.1f s after the change", double(sinceChange.elapsed()) / 1000.0);
        const QJsonObject alert =
            alerts(QStringLiteral("OutboxNoRelay"), QStringLiteral("firing")).first().toObject();
        const QJsonObject labels = alert.value(QStringLiteral("labels")).toObject();
        QCOMPARE(labels.value(QStringLiteral("id")).toString(), QStringLiteral("no-relay"));
        QCOMPARE(labels.value(QStringLiteral("severity")).toString(), QStringLiteral("critical"));
        const QJsonObject annotations = alert.value(QStringLiteral("annotations")).toObject();
        QVERIFY(annotations.value(QStringLiteral("runbook"))
                    .toString()
                    .contains(QLatin1String("outboxctl doctor --check no-relay")));
        QVERIFY(!annotations.value(QStringLiteral("summary")).toString().isEmpty());
        // The runbook link as Prometheus filled it in opens the finding's page on this very serve,
        // without a token (a browser following the link from an alert has none).
        const QString runbookUrl = annotations.value(QStringLiteral("runbook_url")).toString();
        QCOMPARE(runbookUrl, QStringLiteral("http://127.0.0.1:%1/docs/runbooks/no-relay")
                                 .arg(fixtureFile(QStringLiteral("target.port"))));
        QNetworkAccessManager nam;
        std::unique_ptr<QNetworkReply> page(nam.get(QNetworkRequest(QUrl(runbookUrl))));
        QTRY_VERIFY_WITH_TIMEOUT(page->isFinished(), 10000);
        QCOMPARE(page->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt(), 200);
        // The page as the doctor prints it, without the "GENERATED" comment meant for docs/runbooks/.
        QCOMPARE(QString::fromUtf8(page->readAll()),
                 Runbook::of(QStringLiteral("no-relay")).servedMarkdown());
        QTRY_VERIFY_WITH_TIMEOUT(
            !alerts(QStringLiteral("OutboxBacklogAge"), QStringLiteral("firing")).isEmpty(), 20000);
        QVERIFY(alerts(QStringLiteral("OutboxFailedEvents"), QStringLiteral("firing")).isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestAlertsFiring)
#include "tst_alertsfiring.moc"
