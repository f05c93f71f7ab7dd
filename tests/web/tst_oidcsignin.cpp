// Signing in with the company's identity provider, end to end: a real OpenID provider (panva's
// certified oidc-provider under Node, tests/oidc/provider, the fixture fixture.oidc.start) with two
// people in different groups and a public client (PKCE, refresh tokens), the
// real `outboxctl serve --fleet` with two SQLite members of different teams, and a real headless
// Chromium that signs in through the provider's own login page. Checked: the wall shows the
// person's team only; the console requeues on that member (the audit row names the person and the
// issuer) and is refused on the other team's; the provider rotates its signing key mid-session and
// the page renews its token before it expires, in place (refresh token, new key), while the old
// token is a 401; a client without refresh tokens renews with a silent redirect (prompt=none) and
// a page whose token is refused signs in again; tokens from another issuer, for another audience, with alg
// none, HS256 keyed with the public key, signed by an unpublished key or expired are refused; a static token
// still works for machines; no token or code appears in an address, the server's log, /metrics or the audit.
#include "core/db/Database.h"
#include "core/db/Migrator.h"
#include "tests/support/ServeProcess.h"
#include "tests/support/TestDatabases.h"
#include "tests/support/TestFleet.h"
#include "tests/web/ChromiumPage.h"
#include "tests/web/ConsoleView.h"
#include "tests/web/HttpTestClient.h"
#include "tests/web/OidcTestProvider.h"
#include "ui/web/http/AccessControl.h"

#include <QDateTime>
#include <QDir>
#include <QJsonArray>
#include <QJsonDocument>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

using namespace outbox;
using namespace outbox::test;

namespace {

const QByteArray ScrapeSecret = "prometheus-scrape-secret";
constexpr int AccessTokenTtlSeconds = 12;

// The kid in a JWT's header.
QString kidOf(const QString& jwt)
{
    const QByteArray header =
        QByteArray::fromBase64(jwt.section(QLatin1Char('.'), 0, 0).toLatin1(), QByteArray::Base64UrlEncoding);
    return QJsonDocument::fromJson(header).object().value(QStringLiteral("kid")).toString();
}

} // namespace

class TestOidcSignIn : public QObject
{
    Q_OBJECT

private slots:
    void signsInScopesActsAndSurvivesRotationAndExpiry()
    {
        QVERIFY2(!qEnvironmentVariable("OUTBOXCTL").isEmpty(), "OUTBOXCTL must point at the binary");
        QString unavailable;
        const auto oidc = OidcTestProvider::fromFixture(&unavailable);
        if (!oidc) {
            if (qEnvironmentVariableIsSet("CI"))
                QFAIL(qPrintable(unavailable));
            QSKIP(qPrintable(unavailable));
        }
        const QByteArray issuer = oidc->issuerBytes();
        // Two teams, one SQLite member each, each with a failure group of its own.
        const DatabaseUrl paymentsUrl = TestDatabases::create(
            QStringLiteral("sqlite"), TestDatabases::uniqueName(QStringLiteral("oidcpay")));
        const DatabaseUrl shippingUrl = TestDatabases::create(
            QStringLiteral("sqlite"), TestDatabases::uniqueName(QStringLiteral("oidcship")));
        auto payments = migratedWithPrefix(paymentsUrl, QString());
        auto shipping = migratedWithPrefix(shippingUrl, QString());
        forceStatus(*payments, insertEvents(*payments, 2), QStringLiteral("FAILED"),
                    QStringLiteral("Broker: Topic authorization failed"));
        forceStatus(*shipping, insertEvents(*shipping, 2), QStringLiteral("FAILED"),
                    QStringLiteral("Broker: Topic authorization failed"));
        QTemporaryDir dir;
        const QString fleet = writeTestFile(
            dir, QStringLiteral("fleet.ini"),
            "[fleet]\ninterval = 1s\ntimeout = 2s\n[member payments]\nurl = " +
                paymentsUrl.redacted().toUtf8() + "\ntags = team=payments\n[member shipping]\nurl = " +
                shippingUrl.redacted().toUtf8() + "\ntags = team=shipping\n");

        ServeProcess serve;
        OutboxctlStart options;
        options.removedVariables = {QStringLiteral("OUTBOX_DB_URL")};
        QVERIFY2(
            serve.start("[oidc]\nissuer = " + issuer +
                            "\nclient_id = outbox-console\nscopes = openid profile outbox\nclock_skew = 0\n"
                            "[oidc_groups]\nteam-payments = operator members=team=payments\n"
                            "team-shipping = operator members=team=shipping\n"
                            "[tokens]\nscrape = viewer:" +
                            web::AccessControl::hashToken(ScrapeSecret) + "\n",
                        {QStringLiteral("--fleet"), fleet}, options),
            serve.output.constData());
        QProcess& server = *serve.process;
        const QString base = QStringLiteral("http://127.0.0.1:%1").arg(serve.port);
        HttpTestClient http{QUrl(base + QLatin1Char('/'))};
        QTRY_VERIFY_WITH_TIMEOUT(
            http.get(QStringLiteral("/api/v1/auth")).json().value(QStringLiteral("ready")).toBool() ||
                server.state() != QProcess::Running,
            60000);
        QVERIFY2(server.state() == QProcess::Running, server.readAll().constData());
        QVERIFY2(http.get(QStringLiteral("/api/v1/auth")).json().value(QStringLiteral("ready")).toBool(),
                 server.readAll().constData());
        const QJsonObject auth = http.get(QStringLiteral("/api/v1/auth")).json();
        QCOMPARE(auth.value(QStringLiteral("issuer")).toString(), QString::fromLatin1(issuer));
        QCOMPARE(auth.value(QStringLiteral("client_id")).toString(), QStringLiteral("outbox-console"));
        // With [oidc], / and /console/ also take the provider's answer (POST; without it, 405).
        for (const QString& path : {QStringLiteral("/"), QStringLiteral("/console/")}) {
            const auto r = http.send("DELETE", path, {}, {});
            QVERIFY2(r.status == 405 && r.header("Allow") == "GET, POST", qPrintable(path));
        }

        // Tokens made on purpose: only the provider's own, for this audience, in time, pass.
        QByteArrayList seenTokens;
        const QByteArray good = oidc->mint(QStringLiteral("provider"));
        QVERIFY(!good.isEmpty());
        seenTokens << good;
        const auto me = http.get(QStringLiteral("/api/v1/me"), good);
        QCOMPARE(me.status, 200);
        QCOMPARE(me.json().value(QStringLiteral("person")).toString(), QStringLiteral("alice"));
        QCOMPARE(me.json().value(QStringLiteral("issuer")).toString(), QString::fromLatin1(issuer));
        const qint64 now = QDateTime::currentSecsSinceEpoch();
        const QList<QPair<QString, QByteArray>> forged = {
            {QStringLiteral("another issuer"),
             oidc->mint(QStringLiteral("provider"),
                        {{QStringLiteral("iss"), QStringLiteral("http://127.0.0.1:1")}})},
            {QStringLiteral("another audience"),
             oidc->mint(QStringLiteral("provider"),
                        {{QStringLiteral("aud"), QStringLiteral("another-app")}})},
            {QStringLiteral("alg none"), oidc->mint(QStringLiteral("none"))},
            {QStringLiteral("HS256 keyed with the public key"), oidc->mint(QStringLiteral("hs256-public"))},
            {QStringLiteral("a key the provider never published"), oidc->mint(QStringLiteral("other-key"))},
            {QStringLiteral("expired"),
             oidc->mint(QStringLiteral("provider"), {{QStringLiteral("exp"), double(now - 60)},
                                                     {QStringLiteral("iat"), double(now - 400)}})},
            {QStringLiteral("not valid yet"),
             oidc->mint(QStringLiteral("provider"), {{QStringLiteral("nbf"), double(now + 300)}})},
            {QStringLiteral("in no configured group"),
             oidc->mint(QStringLiteral("provider"),
                        {{QStringLiteral("groups"), QJsonArray{QStringLiteral("visitors")}}})},
        };
        for (const auto& [why, token] : forged) {
            QVERIFY2(!token.isEmpty(), qPrintable(why));
            seenTokens << token;
            QCOMPARE(http.get(QStringLiteral("/api/v1/me"), token).status, 401);
            QCOMPARE(http.get(QStringLiteral("/api/v1/fleet"), token).status, 401);
        }
        // A machine's static token works beside the provider's tokens.
        QCOMPARE(http.get(QStringLiteral("/metrics"), ScrapeSecret).status, 200);
        QCOMPARE(http.get(QStringLiteral("/api/v1/me"), ScrapeSecret)
                     .json()
                     .value(QStringLiteral("name"))
                     .toString(),
                 QStringLiteral("scrape"));
        QVERIFY(
            !http.get(QStringLiteral("/api/v1/me"), ScrapeSecret).json().contains(QStringLiteral("person")));

        // Chromium signs alice in through the provider's own login page and lands on her wall.
        ChromiumPage page;
        QString error;
        if (!page.open(base + QStringLiteral("/"), &error))
            QFAIL(qPrintable(error));
        QVERIFY2(oidc->signIn(page, QStringLiteral("alice"), &error), qPrintable(error));
        QVERIFY2(
            page.waitFor(QStringLiteral("document.querySelectorAll('#wall-tiles li').length >= 1"), 20000),
            qPrintable(page.evaluate(QStringLiteral("location.href + ' ' + document.body.innerText"))));
        QTest::qWait(1500); // another fleet push: still only her team's member
        QCOMPARE(page.evaluate(QStringLiteral("[...document.querySelectorAll('#wall-tiles li')].map(li => "
                                              "li.dataset.member).join(',')")),
                 QStringLiteral("payments"));
        QCOMPARE(page.evaluate(QStringLiteral("location.href")), base + QStringLiteral("/"));
        const QString wallToken = page.evaluate(QStringLiteral("window.OutboxSignIn.token()"));
        QVERIFY(!wallToken.isEmpty());
        seenTokens << wallToken.toUtf8();
        QCOMPARE(page.evaluate(QStringLiteral("String(sessionStorage.length + document.cookie.length)")),
                 QStringLiteral("0")); // nothing kept but in the page's memory

        // The tile opens the console on her member: a new page, signed in again without a form.
        ConsoleView view(page);
        QVERIFY(page.click(QStringLiteral("#wall-tiles li[data-member=payments] a")));
        QVERIFY2(
            page.waitFor(
                QStringLiteral("location.pathname === '/console/' && location.search === "
                               "'?member=payments' && document.getElementById('view').dataset.ready === '1' "
                               "&& !!window.OutboxSignIn.token()"), // a sick member's tile opens Recovery
                20000),
            qPrintable(page.evaluate(QStringLiteral("location.href + ' ' + document.body.innerText"))));
        QVERIFY(view.text(QStringLiteral("#who-name")).contains(QStringLiteral("alice")));
        const QString consoleToken = page.evaluate(QStringLiteral("window.OutboxSignIn.token()"));
        seenTokens << consoleToken.toUtf8();
        const QString firstKid = kidOf(consoleToken);

        // Requeue her member's failure group through the real dialog: the audit row names her.
        QVERIFY(page.click(QStringLiteral("#nav a[data-view=groups]")));
        QVERIFY(view.ready(QStringLiteral("groups")));
        QVERIFY(page.click(QStringLiteral("#groups .act-requeue-group")));
        QVERIFY(page.waitFor(QStringLiteral("document.getElementById('action-count')")));
        QVERIFY(page.type(QStringLiteral("#action-reason"), QStringLiteral("INC-7 ACL fixed")));
        if (view.count(QStringLiteral("#action-confirm")) == 1)
            QVERIFY(page.type(QStringLiteral("#action-confirm"), QStringLiteral("requeue 2")));
        QVERIFY(page.waitFor(QStringLiteral("!document.getElementById('action-run').disabled")));
        QVERIFY(page.click(QStringLiteral("#action-run")));
        QVERIFY2(
            page.waitFor(QStringLiteral("(document.getElementById('action-affected') || {}).textContent === "
                                        "'2 row(s) changed'"),
                         15000),
            qPrintable(view.text(QStringLiteral("#action-body"))));
        const QString actor = QStringLiteral("alice (") + QString::fromLatin1(issuer) + QLatin1Char(')');
        QCOMPARE(countRows(*payments, QStringLiteral("{audit}"),
                           QStringLiteral(
                               "action = 'events.requeue' AND actor = '%1' AND reason = 'INC-7 ACL fixed'")
                               .arg(actor)),
                 qint64(1));
        QCOMPARE(countRows(*payments, QStringLiteral("{events}"), QStringLiteral("status = 'PENDING'")),
                 qint64(2));

        // The other team's member: refused, for the page and for her token on the API.
        const QByteArray body = R"({"ids": [1], "reason": "not mine"})";
        const auto refused =
            http.post(QStringLiteral("/api/v1/members/shipping/events/requeue"), body, consoleToken.toUtf8());
        QVERIFY2(refused.status == 403 || refused.status == 404, refused.body.constData());
        QCOMPARE(countRows(*shipping, QStringLiteral("{audit}")), qint64(0));
        QCOMPARE(countRows(*shipping, QStringLiteral("{events}"), QStringLiteral("status = 'FAILED'")),
                 qint64(2));
        page.navigate(base + QStringLiteral("/console/?member=shipping"));
        QVERIFY2(
            page.waitFor(QStringLiteral("document.getElementById('view').dataset.view === 'refused'"), 20000),
            qPrintable(page.evaluate(QStringLiteral("location.href + ' ' + document.body.innerText"))));
        seenTokens << page.evaluate(QStringLiteral("window.OutboxSignIn.token()")).toUtf8();

        // Back on her member; the provider rotates its signing key; before her token expires the page
        // renews it in place with its refresh token (no redirect: the page's marker stays, no call
        // sees a 401) and goes on with a token of the new key, while the old token is a 401.
        page.navigate(base + QStringLiteral("/console/?member=payments#/audit"));
        QVERIFY(page.waitFor(QStringLiteral("document.getElementById('view').dataset.view === 'audit' && "
                                            "document.getElementById('view').dataset.ready === '1' && "
                                            "!!window.OutboxSignIn.token()"),
                             20000));
        QVERIFY(page.evaluate(QStringLiteral(
                    "window.outboxTestMarker = 'same document'; window.outboxTestStatuses = []; "
                    "const f = window.fetch; window.fetch = async (...a) => { const r = await "
                    "f(...a); window.outboxTestStatuses.push(r.status); return r; }; 'ok'")) ==
                QStringLiteral("ok"));
        const QString beforeRotation = page.evaluate(QStringLiteral("window.OutboxSignIn.token()"));
        seenTokens << beforeRotation.toUtf8();
        const QString newKid = oidc->rotate();
        QVERIFY(!newKid.isEmpty() && newKid != firstKid);
        const qint64 expiresAtMs =
            page.evaluate(QStringLiteral("String(window.OutboxSignIn.expiresAt())")).toLongLong();
        QVERIFY2(
            page.waitFor(QStringLiteral("window.OutboxSignIn.token() !== '%1'").arg(beforeRotation), 15000),
            qPrintable(page.evaluate(QStringLiteral("location.href + ' ' + document.body.innerText"))));
        QVERIFY2(QDateTime::currentMSecsSinceEpoch() < expiresAtMs, "renewed only after the token expired");
        QTest::qWait(int(std::max<qint64>(0, expiresAtMs - QDateTime::currentMSecsSinceEpoch())) + 1500);
        QCOMPARE(http.get(QStringLiteral("/api/v1/me"), beforeRotation.toUtf8()).status, 401); // expired
        QCOMPARE(page.evaluate(QStringLiteral("window.outboxTestMarker")), QStringLiteral("same document"));
        QCOMPARE(page.evaluate(QStringLiteral("location.search + location.hash")),
                 QStringLiteral("?member=payments#/audit"));
        QVERIFY(page.click(QStringLiteral("#nav a[data-view=events]")));
        QVERIFY(page.waitFor(QStringLiteral("document.getElementById('view').dataset.view === 'events' && "
                                            "document.getElementById('view').dataset.ready === '1'"),
                             15000));
        const QString renewed = page.evaluate(QStringLiteral("window.OutboxSignIn.token()"));
        seenTokens << renewed.toUtf8();
        QCOMPARE(kidOf(renewed), newKid);
        QCOMPARE(view.count(QStringLiteral("#events tbody tr")), 2);
        QCOMPARE(http.get(QStringLiteral("/api/v1/me"), renewed.toUtf8()).status, 200);
        // Every call of the page went through with its token: none was a 401.
        const QString statuses = page.evaluate(QStringLiteral("window.outboxTestStatuses.join(',')"));
        QVERIFY2(!statuses.isEmpty() && !statuses.contains(QStringLiteral("401")), qPrintable(statuses));
        QCOMPARE(page.evaluate(QStringLiteral("window.outboxTestMarker")), QStringLiteral("same document"));

        // No token and no code in an address, the server's log, /metrics or the audit.
        const QString history = page.evaluate(
            QStringLiteral("[location.href, document.referrer, "
                           "...performance.getEntriesByType('navigation').map(e => e.name), "
                           "...performance.getEntriesByType('resource').map(e => e.name)].join(' ')"));
        QVERIFY2(!history.contains(QStringLiteral("code=")) && !history.contains(QStringLiteral("state=")),
                 qPrintable(history));
        const QByteArray metrics = http.get(QStringLiteral("/metrics"), ScrapeSecret).body;
        const auto audit = http.get(QStringLiteral("/api/v1/members/payments/audit"), renewed.toUtf8());
        QCOMPARE(audit.status, 200);
        server.terminate();
        QVERIFY(server.waitForFinished(15000));
        const QByteArray log = serve.output + server.readAll();
        QVERIFY(!log.contains("code="));
        for (const QByteArray& token : std::as_const(seenTokens)) {
            if (token.isEmpty())
                continue;
            const QByteArray signature = token.mid(token.lastIndexOf('.') + 1);
            const QByteArray probe = signature.size() >= 16 ? signature.left(32) : token.left(40);
            QVERIFY2(!history.toUtf8().contains(probe), "a token in an address");
            QVERIFY2(!log.contains(probe), "a token in the server's log");
            QVERIFY2(!metrics.contains(probe), "a token in /metrics");
            QVERIFY2(!audit.body.contains(probe), "a token in the audit");
        }
    }
};

QTEST_GUILESS_MAIN(TestOidcSignIn)
#include "tst_oidcsignin.moc"
