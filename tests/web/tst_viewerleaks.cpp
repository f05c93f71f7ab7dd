// What a viewer token could still learn through the routes the first hardening round missed: an
// event's trace, the failure groups, and search filters used as an oracle over masked text.
#include "tests/support/TestDatabases.h"
#include "tests/web/HttpTestClient.h"
#include "ui/web/WebConfig.h"
#include "ui/web/WebServer.h"
#include "ui/web/http/AccessControl.h"

#include <QJsonArray>
#include <QTest>

using namespace outbox;
using namespace outbox::test;
using namespace outbox::web;

namespace {

const QByteArray ViewerSecret = "leaks-viewer-secret";
const QByteArray OperatorSecret = "leaks-operator-secret";
const QString SecretError = QStringLiteral("payment failed: secret=hunter2 for item 2 4111 1111 1111 1111, "
                                           "authorization=Bearer eyJhbGciOi.eyJzdWIi.c2ln");

WebConfig leaksConfig()
{
    WebConfig c;
    c.port = 0;
    c.tokens = {
        ApiToken{QStringLiteral("wallboard"), Role::Viewer, AccessControl::hashToken(ViewerSecret)},
        ApiToken{QStringLiteral("alice-ops"), Role::Operator, AccessControl::hashToken(OperatorSecret)}};
    c.maskedFields = {QStringLiteral("secret"), QStringLiteral("authorization")};
    return c;
}

bool leaks(const QByteArray& body)
{
    return body.contains("hunter") || body.contains("4111") || body.contains("eyJ");
}

} // namespace

class TestViewerLeaks : public QObject
{
    Q_OBJECT

private slots:
    void traceFailureGroupsAndSearchHideMaskedText()
    {
        auto db = TestDatabases::fresh(QStringLiteral("sqlite"), QStringLiteral("viewerleaks"));
        const auto ids = insertEvents(*db, 3);
        forceStatus(*db, ids, QStringLiteral("FAILED"), SecretError);
        WebServer server(leaksConfig(), db->url(), QString());
        QVERIFY(server.start().ok());
        HttpTestClient http(server.baseUrl());
        // An operator's audited action whose reason quotes the secret: a step of the trace.
        const auto requeued =
            http.post(QStringLiteral("/api/v1/events/dead"),
                      "{\"ids\":[" + QByteArray::number(ids.first()) +
                          "],\"dry_run\":false,\"reason\":\"secret=hunter2 card 4111111111111111\"}",
                      OperatorSecret);
        QCOMPARE(requeued.status, 200);

        // 2. The trace: the event, every step's summary and details, audit reasons.
        const QString trace = QStringLiteral("/api/v1/events/%1/trace").arg(ids.first());
        const auto viewerTrace = http.get(trace, ViewerSecret);
        QCOMPARE(viewerTrace.status, 200);
        QVERIFY2(!leaks(viewerTrace.body), viewerTrace.body.constData());
        QVERIFY(viewerTrace.body.contains("***"));
        QVERIFY(leaks(http.get(trace, OperatorSecret).body)); // operators see it all

        // 3. Failure groups: the example and the fingerprint (the secret's shape).
        const auto viewerGroups = http.get(QStringLiteral("/api/v1/failure-groups"), ViewerSecret);
        QCOMPARE(viewerGroups.status, 200);
        QVERIFY(!viewerGroups.json().value(QStringLiteral("groups")).toArray().isEmpty());
        QVERIFY2(!leaks(viewerGroups.body), viewerGroups.body.constData());
        QVERIFY(leaks(http.get(QStringLiteral("/api/v1/failure-groups"), OperatorSecret).body));

        // 4. Search as an oracle: a filter over masked text is not evaluated for a viewer.
        for (const QString& path :
             {QStringLiteral("/api/v1/events?error=hunter2"), QStringLiteral("/api/v1/events?error=hunter3"),
              QStringLiteral("/api/v1/dead-letters?error=hunter2"),
              QStringLiteral("/api/v1/events?payload=secret%3Dhunter2")}) {
            const auto viewer = http.get(path, ViewerSecret);
            QVERIFY2(viewer.status == 400,
                     qPrintable(path + QLatin1Char(' ') + QString::fromUtf8(viewer.body)));
            QVERIFY2(viewer.body.contains("masked"), viewer.body.constData());
        }
        const auto operatorSearch = http.get(QStringLiteral("/api/v1/events?error=hunter2"), OperatorSecret);
        QCOMPARE(operatorSearch.status, 200);
        QCOMPARE(operatorSearch.json().value(QStringLiteral("events")).toArray().size(), 3);
        // Filters over what a viewer sees in clear still work.
        const auto byStatus = http.get(QStringLiteral("/api/v1/events?status=FAILED"), ViewerSecret);
        QCOMPARE(byStatus.status, 200);
        QCOMPARE(byStatus.json().value(QStringLiteral("events")).toArray().size(), 2);
        QVERIFY2(!leaks(byStatus.body), byStatus.body.constData());
    }
};

QTEST_GUILESS_MAIN(TestViewerLeaks)
#include "tst_viewerleaks.moc"
