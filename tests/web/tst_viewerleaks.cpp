// What a viewer token could still learn through the routes the first hardening round missed: an
// event's trace, the failure groups, and search filters used as an oracle over masked text.
#include "core/fleet/Fleet.h"
#include "tests/support/TestDatabases.h"
#include "tests/web/HttpTestClient.h"
#include "ui/web/WebConfig.h"
#include "ui/web/WebServer.h"
#include "ui/web/http/AccessControl.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QProcessEnvironment>
#include <QTest>

using namespace outbox;
using namespace outbox::test;
using namespace outbox::web;

namespace {

const QByteArray ViewerSecret = "leaks-viewer-secret";
const QByteArray OperatorSecret = "leaks-operator-secret";
// A viewer token that is an operator on the fleet member orders (operator=orders).
const QByteArray LeadSecret = "leaks-lead-secret";
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

// With the lead: a viewer token that is an operator on the fleet member orders.
WebConfig leadConfig()
{
    WebConfig c = leaksConfig();
    c.tokens << ApiToken{QStringLiteral("lead"), Role::Viewer, AccessControl::hashToken(LeadSecret),
                         MemberScope{{}, {QStringLiteral("orders")}}};
    return c;
}

// A fleet of one member, orders, at `url`.
Result<Fleet> ordersFleet(const QString& url)
{
    return Fleet::parse("[fleet]\ninterval = 1s\ntimeout = 2s\n[member orders]\nurl = " + url.toUtf8() + "\n",
                        QStringLiteral("fleet.ini"), QProcessEnvironment());
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
        WebServer server(leaksConfig(), DatabaseTarget(db->url(), QString()));
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
    // Issue 38 item 3: operator=MEMBER lets a viewer's token act on that member, never see more of
    // its data than a viewer: every route that returns database text, and the search filters.
    void memberOperatorTokenSeesMaskedData()
    {
        auto own = TestDatabases::fresh(QStringLiteral("sqlite"), QStringLiteral("viewerleaksown"));
        auto orders = TestDatabases::fresh(QStringLiteral("sqlite"), QStringLiteral("viewerleaksorders"));
        // More FAILED events than one chunk: a requeue of them all runs as a job.
        const auto ids = insertEvents(*orders, 1005);
        forceStatus(*orders, ids, QStringLiteral("FAILED"), SecretError);
        exec(*orders, QStringLiteral("UPDATE {events} SET payload = :p WHERE id = :id"),
             {{QStringLiteral(":p"),
               QStringLiteral("{\"secret\": \"hunter2\", \"note\": \"%1\"}").arg(SecretError)},
              {QStringLiteral(":id"), ids.first()}});
        exec(*orders,
             QStringLiteral("INSERT INTO {dead_letters} (consumer_name, event_id, topic, payload, error, "
                            "stacktrace) VALUES ('billing', 'dl-1', 'orders', :p, :e, :e)"),
             {{QStringLiteral(":p"), QStringLiteral("{\"secret\": \"hunter2\"}")},
              {QStringLiteral(":e"), SecretError}});
        exec(*orders,
             QStringLiteral("INSERT INTO {inbox} (event_id, consumer_name, status, attempts, last_error) "
                            "VALUES ('in-1', 'billing', 'FAILED', 1, :e)"),
             {{QStringLiteral(":e"), SecretError}});
        registerRelay(*orders, QStringLiteral("relay-1"), 0);
        exec(*orders, QStringLiteral("UPDATE {relays} SET last_error = :e"),
             {{QStringLiteral(":e"), SecretError}});

        WebServer server(leadConfig(), DatabaseTarget(own->url(), QString()));
        auto fleet = ordersFleet(orders->url().redacted());
        QVERIFY2(fleet.ok(), fleet ? "" : qPrintable(fleet.error().message));
        server.watchFleet(*fleet);
        QVERIFY(server.start().ok());
        HttpTestClient http(server.baseUrl());
        const QString member = QStringLiteral("/api/v1/members/orders");

        // The lead acts on orders: a requeue of every FAILED event (a job), its reason quoting secrets.
        const auto requeued =
            http.post(member + QStringLiteral("/events/requeue"),
                      "{\"filter\":{\"status\":\"FAILED\"},\"dry_run\":false,\"force\":true,"
                      "\"reason\":\"secret=hunter2 card 4111111111111111\"}",
                      LeadSecret);
        QVERIFY2(requeued.status == 202, requeued.body.constData());
        const QString jobId = requeued.json().value(QStringLiteral("id")).toString();
        QVERIFY(!jobId.isEmpty());
        // A single event back to FAILED with its secret, so that lists and groups show it again.
        HttpTestClient::Reply job;
        QTRY_VERIFY_WITH_TIMEOUT((job = http.get(member + QStringLiteral("/jobs/") + jobId, OperatorSecret))
                                         .json()
                                         .value(QStringLiteral("state"))
                                         .toString() != QLatin1String("running"),
                                 20000);
        forceStatus(*orders, ids.mid(0, 3), QStringLiteral("FAILED"), SecretError);
        // The member's sample (summary, findings) has been taken.
        QTRY_VERIFY_WITH_TIMEOUT(http.get(member + QStringLiteral("/findings"), OperatorSecret).status == 200,
                                 20000);
        QTRY_VERIFY_WITH_TIMEOUT(leaks(http.get(member + QStringLiteral("/summary"), OperatorSecret).body),
                                 20000);
        const auto audit = http.get(member + QStringLiteral("/audit"), OperatorSecret);
        const qint64 auditId = qint64(audit.json()
                                          .value(QStringLiteral("entries"))
                                          .toArray()
                                          .first()
                                          .toObject()
                                          .value(QStringLiteral("id"))
                                          .toDouble());
        const auto letters = http.get(member + QStringLiteral("/dead-letters"), OperatorSecret);
        const qint64 letterId = qint64(letters.json()
                                           .value(QStringLiteral("dead_letters"))
                                           .toArray()
                                           .first()
                                           .toObject()
                                           .value(QStringLiteral("id"))
                                           .toDouble());

        const QStringList routes = {
            QStringLiteral("/events?status=FAILED"),
            QStringLiteral("/events/%1").arg(ids.first()),
            QStringLiteral("/events/%1/trace").arg(ids.first()),
            QStringLiteral("/events/blocked"),
            QStringLiteral("/consumers"),
            QStringLiteral("/failure-groups"),
            QStringLiteral("/findings"),
            QStringLiteral("/dead-letters"),
            QStringLiteral("/dead-letters/%1").arg(letterId),
            QStringLiteral("/dead-letters/groups"),
            QStringLiteral("/audit"),
            QStringLiteral("/audit?format=csv"),
            QStringLiteral("/audit/%1").arg(auditId),
            QStringLiteral("/jobs"),
            QStringLiteral("/jobs/") + jobId,
            QStringLiteral("/inbox"),
            QStringLiteral("/summary"),
        };
        int seen = 0; // routes where an operator sees a secret: the seeding reached them
        for (const QString& route : routes) {
            const auto asOperator = http.get(member + route, OperatorSecret);
            QVERIFY2(asOperator.status == 200,
                     qPrintable(route + QLatin1Char(' ') + QString::fromUtf8(asOperator.body)));
            seen += leaks(asOperator.body) ? 1 : 0;
            for (const QByteArray& token : {LeadSecret, ViewerSecret}) {
                const auto reply = http.get(member + route, token);
                QVERIFY2(reply.status == 200,
                         qPrintable(route + QLatin1Char(' ') + QString::fromUtf8(reply.body)));
                QVERIFY2(!leaks(reply.body),
                         qPrintable(route + QLatin1Char(' ') + QString::fromUtf8(reply.body)));
            }
        }
        // Findings, blocked events and consumers may quote none of the seeded texts.
        QVERIFY2(seen >= routes.size() - 3, qPrintable(QString::number(seen)));
        // Search filters over masked text: not evaluated for the lead either.
        for (const QString& route :
             {QStringLiteral("/events?error=hunter2"), QStringLiteral("/dead-letters?error=hunter2"),
              QStringLiteral("/events?payload=secret%3Dhunter2")}) {
            const auto reply = http.get(member + route, LeadSecret);
            QVERIFY2(reply.status == 400,
                     qPrintable(route + QLatin1Char(' ') + QString::fromUtf8(reply.body)));
            QCOMPARE(http.get(member + route, OperatorSecret).status, 200);
        }
        // Issue 38 item 6: the job's links lead to it on this (fleet) server.
        const QString link = member + QStringLiteral("/jobs/") + jobId;
        QCOMPARE(QString::fromUtf8(requeued.header("Location")), link);
        QCOMPARE(requeued.json().value(QStringLiteral("href")).toString(), link);
        QCOMPARE(http.get(QStringLiteral("/api/v1/jobs"), OperatorSecret).body.contains(jobId.toUtf8()),
                 false);
    }
    // A viewer's token acting on a member (operator=orders) names a group as it was shown it (the
    // fingerprint masked, groups perhaps merged): its actions find the group's members, and what the
    // actions answer (a dry run's sample, a group edit's preview, an edited letter) is masked as every
    // read is. Before, such a group matched nothing and the answers showed the member's data in clear.
    void memberOperatorActsOnMaskedGroupsAndSeesMaskedAnswers()
    {
        auto own = TestDatabases::fresh(QStringLiteral("sqlite"), QStringLiteral("viewerleaksown2"));
        auto orders = TestDatabases::fresh(QStringLiteral("sqlite"), QStringLiteral("viewerleaksorders2"));
        const auto ids = insertEvents(*orders, 3);
        forceStatus(*orders, ids, QStringLiteral("FAILED"), SecretError);
        for (int i = 0; i < 3; ++i)
            exec(*orders,
                 QStringLiteral("INSERT INTO {dead_letters} (consumer_name, event_id, topic, payload, error) "
                                "VALUES ('billing', :id, 'orders', :p, :e)"),
                 {{QStringLiteral(":id"), QStringLiteral("dl-%1").arg(i)},
                  {QStringLiteral(":p"), QStringLiteral("{\"secret\": \"hunter2\", \"note\": \"n\"}")},
                  {QStringLiteral(":e"), SecretError}});
        WebServer server(leadConfig(), DatabaseTarget(own->url(), QString()));
        auto fleet = ordersFleet(orders->url().redacted());
        QVERIFY2(fleet.ok(), fleet ? "" : qPrintable(fleet.error().message));
        server.watchFleet(*fleet);
        QVERIFY(server.start().ok());
        HttpTestClient http(server.baseUrl());
        const QString member = QStringLiteral("/api/v1/members/orders");
        const auto firstGroup = [&](const QString& route, const QByteArray& token, const QStringList& keys) {
            const auto reply = http.get(member + route, token);
            const QJsonObject listed =
                reply.json().value(QStringLiteral("groups")).toArray().first().toObject();
            QJsonObject group;
            for (const QString& key : keys)
                group.insert(key, listed.value(key));
            return group;
        };
        const auto post = [&](const QString& route, const QJsonObject& body, const QByteArray& token) {
            return http.post(member + route, QJsonDocument(body).toJson(QJsonDocument::Compact), token);
        };

        // Events: a dry run of a requeue of the failure group as the lead was shown it.
        const QJsonObject eventGroup =
            firstGroup(QStringLiteral("/failure-groups"), LeadSecret,
                       {QStringLiteral("error_class"), QStringLiteral("fingerprint")});
        QVERIFY2(!leaks(QJsonDocument(eventGroup).toJson()), QJsonDocument(eventGroup).toJson().constData());
        const QJsonObject dryRun{{QStringLiteral("group"), eventGroup},
                                 {QStringLiteral("dry_run"), true},
                                 {QStringLiteral("reason"), QStringLiteral("viewer leaks test")}};
        const auto requeue = post(QStringLiteral("/events/requeue"), dryRun, LeadSecret);
        QVERIFY2(requeue.status == 200, requeue.body.constData());
        QCOMPARE(requeue.json().value(QStringLiteral("matched")).toInteger(), 3);
        QVERIFY2(!leaks(requeue.body), requeue.body.constData());
        QVERIFY(!requeue.json().value(QStringLiteral("sample")).toArray().isEmpty());
        const auto asOperator =
            post(QStringLiteral("/events/requeue"),
                 QJsonObject{{QStringLiteral("group"),
                              firstGroup(QStringLiteral("/failure-groups"), OperatorSecret,
                                         {QStringLiteral("error_class"), QStringLiteral("fingerprint")})},
                             {QStringLiteral("dry_run"), true},
                             {QStringLiteral("reason"), QStringLiteral("viewer leaks test")}},
                 OperatorSecret);
        QCOMPARE(asOperator.json().value(QStringLiteral("matched")).toInteger(), 3);
        QVERIFY2(leaks(asOperator.body), asOperator.body.constData()); // operators see it all

        // Dead letters: the group as the lead was shown it, replayed (dry run) and edited (preview).
        const QJsonObject letterGroup = firstGroup(
            QStringLiteral("/dead-letters/groups"), LeadSecret,
            {QStringLiteral("consumer"), QStringLiteral("error_class"), QStringLiteral("fingerprint")});
        const auto replay = post(QStringLiteral("/dead-letters/replay"),
                                 QJsonObject{{QStringLiteral("group"), letterGroup},
                                             {QStringLiteral("dry_run"), true},
                                             {QStringLiteral("reason"), QStringLiteral("viewer leaks test")}},
                                 LeadSecret);
        QVERIFY2(replay.status == 200, replay.body.constData());
        QCOMPARE(replay.json().value(QStringLiteral("matched")).toInteger(), 3);
        QVERIFY2(!leaks(replay.body), replay.body.constData());
        const QJsonObject change{{QStringLiteral("set"), QStringLiteral("note")},
                                 {QStringLiteral("value"), QStringLiteral("fixed")}};
        const auto preview =
            post(QStringLiteral("/dead-letters/groups/edit/preview"),
                 QJsonObject{{QStringLiteral("group"), letterGroup}, {QStringLiteral("change"), change}},
                 LeadSecret);
        QVERIFY2(preview.status == 200, preview.body.constData());
        QCOMPARE(preview.json().value(QStringLiteral("changing")).toInteger(), 3);
        QVERIFY2(!leaks(preview.body), preview.body.constData());
        QVERIFY2(preview.body.contains("fixed"), preview.body.constData());
        QJsonArray versions;
        for (const QJsonValue& v : preview.json().value(QStringLiteral("dead_letters")).toArray())
            versions.append(QJsonObject{
                {QStringLiteral("id"), v.toObject().value(QStringLiteral("id"))},
                {QStringLiteral("edit_count"), v.toObject().value(QStringLiteral("edit_count"))}});
        const auto edited = post(QStringLiteral("/dead-letters/groups/edit"),
                                 QJsonObject{{QStringLiteral("group"), letterGroup},
                                             {QStringLiteral("change"), change},
                                             {QStringLiteral("versions"), versions},
                                             {QStringLiteral("reason"), QStringLiteral("viewer leaks test")}},
                                 LeadSecret);
        QVERIFY2(edited.status == 200, edited.body.constData());
        QCOMPARE(edited.json().value(QStringLiteral("edited")).toInteger(), 3);
        // One letter edited alone: the answer is the letter, masked.
        const qint64 letterId = qint64(versions.first().toObject().value(QStringLiteral("id")).toDouble());
        const auto patched = http.patch(
            member + QStringLiteral("/dead-letters/%1").arg(letterId),
            "{\"payload\":{\"secret\":\"hunter2\",\"note\":\"again\"},\"reason\":\"viewer leaks test\","
            "\"edit_count\":1}",
            LeadSecret);
        QVERIFY2(patched.status == 200, patched.body.constData());
        QVERIFY2(!leaks(patched.body), patched.body.constData());
        QVERIFY2(patched.body.contains("again"), patched.body.constData());
    }
};

QTEST_GUILESS_MAIN(TestViewerLeaks)
#include "tst_viewerleaks.moc"
