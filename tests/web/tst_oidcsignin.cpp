// Signing in with the company's identity provider, end to end: a real OpenID provider (panva's
// certified oidc-provider under Node, tests/oidc/provider) with two people in different groups, the
// real `outboxctl serve --fleet` with two SQLite members of different teams, and a real headless
// Chromium that signs in through the provider's own login page. Checked: the wall shows the
// person's team only; the console requeues on that member (the audit row names the person and the
// issuer) and is refused on the other team's; the provider rotates its signing key mid-session and
// an expired token is a 401 after which the page signs in again (with the new key) and keeps
// working; tokens from another issuer, for another audience, with alg none, HS256 keyed with the
// public key, signed by an unpublished key or expired are refused; a static token still works for
// machines; no token or code appears in an address, the server's log, /metrics or the audit.
#include "core/db/Database.h"
#include "core/db/Migrator.h"
#include "tests/support/ServeProcess.h"
#include "tests/support/TestDatabases.h"
#include "tests/support/TestFleet.h"
#include "tests/web/ChromiumPage.h"
#include "tests/web/ConsoleView.h"
#include "tests/web/HttpTestClient.h"
#include "ui/web/http/AccessControl.h"

#include <QDateTime>
#include <QDir>
#include <QJsonArray>
#include <QJsonDocument>
#include <QProcess>
#include <QStandardPaths>
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

private:
    QProcess m_provider;
    QString m_issuer;

    bool startProvider(quint16 port, const QString& redirectUris)
    {
        const QString dir = QStringLiteral(OUTBOX_SOURCE_DIR "/tests/oidc/provider");
        if (!QDir(dir + QStringLiteral("/node_modules/oidc-provider")).exists())
            return false;
        m_provider.setProcessChannelMode(QProcess::MergedChannels);
        m_provider.setWorkingDirectory(dir);
        m_provider.start(QStringLiteral("node"), {QStringLiteral("provider.js"), QString::number(port),
                                                  redirectUris, QString::number(AccessTokenTtlSeconds)});
        m_issuer = QStringLiteral("http://127.0.0.1:%1").arg(port);
        return m_provider.waitForStarted(10000);
    }

    QByteArray mint(HttpTestClient& provider, const QString& mode, const QJsonObject& claims = {})
    {
        const auto r = provider.post(
            QStringLiteral("/_test/mint"),
            QJsonDocument(QJsonObject{{QStringLiteral("mode"), mode}, {QStringLiteral("claims"), claims}})
                .toJson(QJsonDocument::Compact));
        return r.json().value(QStringLiteral("token")).toString().toUtf8();
    }

private slots:
    void cleanup()
    {
        if (m_provider.state() != QProcess::NotRunning) {
            m_provider.terminate();
            m_provider.waitForFinished(5000);
        }
    }

    void signsInScopesActsAndSurvivesRotationAndExpiry()
    {
        QVERIFY2(!qEnvironmentVariable("OUTBOXCTL").isEmpty(), "OUTBOXCTL must point at the binary");
        if (QStandardPaths::findExecutable(QStringLiteral("node")).isEmpty())
            QSKIP("no node");
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

        // serve first (it keeps asking the provider for its keys until it answers), then the
        // provider, which must know serve's address for its redirect URIs.
        const quint16 providerPort = freeLocalPort();
        const QByteArray issuer = QByteArrayLiteral("http://127.0.0.1:") + QByteArray::number(providerPort);
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
        if (!startProvider(providerPort, base + QStringLiteral("/,") + base + QStringLiteral("/console/"))) {
            if (qEnvironmentVariableIsSet("CI"))
                QFAIL("tests/oidc/provider/node_modules is missing (installer/install-deps.sh runs npm ci "
                      "there)");
            QSKIP(
                "tests/oidc/provider/node_modules is missing (installer/install-deps.sh runs npm ci there)");
        }
        HttpTestClient http{QUrl(base + QLatin1Char('/'))};
        HttpTestClient provider{QUrl(QString::fromLatin1(issuer) + QLatin1Char('/'))};
        QTRY_VERIFY_WITH_TIMEOUT(
            http.get(QStringLiteral("/api/v1/auth")).json().value(QStringLiteral("ready")).toBool() ||
                server.state() != QProcess::Running,
            20000);
        QVERIFY2(server.state() == QProcess::Running, server.readAll().constData());
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
        const QByteArray good = mint(provider, QStringLiteral("provider"));
        QVERIFY(!good.isEmpty());
        seenTokens << good;
        const auto me = http.get(QStringLiteral("/api/v1/me"), good);
        QCOMPARE(me.status, 200);
        QCOMPARE(me.json().value(QStringLiteral("person")).toString(), QStringLiteral("alice"));
        QCOMPARE(me.json().value(QStringLiteral("issuer")).toString(), QString::fromLatin1(issuer));
        const qint64 now = QDateTime::currentSecsSinceEpoch();
        const QList<QPair<QString, QByteArray>> forged = {
            {QStringLiteral("another issuer"),
             mint(provider, QStringLiteral("provider"),
                  {{QStringLiteral("iss"), QStringLiteral("http://127.0.0.1:1")}})},
            {QStringLiteral("another audience"),
             mint(provider, QStringLiteral("provider"),
                  {{QStringLiteral("aud"), QStringLiteral("another-app")}})},
            {QStringLiteral("alg none"), mint(provider, QStringLiteral("none"))},
            {QStringLiteral("HS256 keyed with the public key"),
             mint(provider, QStringLiteral("hs256-public"))},
            {QStringLiteral("a key the provider never published"),
             mint(provider, QStringLiteral("other-key"))},
            {QStringLiteral("expired"),
             mint(provider, QStringLiteral("provider"),
                  {{QStringLiteral("exp"), double(now - 60)}, {QStringLiteral("iat"), double(now - 400)}})},
            {QStringLiteral("not valid yet"),
             mint(provider, QStringLiteral("provider"), {{QStringLiteral("nbf"), double(now + 300)}})},
            {QStringLiteral("in no configured group"),
             mint(provider, QStringLiteral("provider"),
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

        // Chromium signs alice in through the provider's own login page and lands on her wall.
        ChromiumPage page;
        QString error;
        if (!page.open(base + QStringLiteral("/"), &error))
            QFAIL(qPrintable(error));
        QVERIFY2(page.waitFor(QStringLiteral("!!document.querySelector('input[name=login]')"), 20000),
                 qPrintable(page.evaluate(QStringLiteral("location.href + ' ' + document.body.innerText"))));
        QVERIFY(page.evaluate(QStringLiteral("location.origin")) == QString::fromLatin1(issuer));
        QVERIFY(page.type(QStringLiteral("input[name=login]"), QStringLiteral("alice")));
        QVERIFY(page.type(QStringLiteral("input[name=password]"), QStringLiteral("any")));
        QVERIFY(page.click(QStringLiteral("button[type=submit]")));
        // The provider asks for consent once.
        QVERIFY(page.waitFor(
            QStringLiteral("location.origin === '%1' ? !!document.querySelector('button[type=submit]') && "
                           "!document.querySelector('input[name=login]') : true")
                .arg(QString::fromLatin1(issuer)),
            15000));
        if (page.evaluate(QStringLiteral("location.origin")) == QString::fromLatin1(issuer))
            QVERIFY(page.click(QStringLiteral("button[type=submit]")));
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

        // Back on her member; the provider rotates its signing key; her token expires: the next call
        // is a 401, the page signs in again (no form) and goes on with a token of the new key.
        page.navigate(base + QStringLiteral("/console/?member=payments#/audit"));
        QVERIFY(page.waitFor(QStringLiteral("document.getElementById('view').dataset.view === 'audit' && "
                                            "document.getElementById('view').dataset.ready === '1'"),
                             20000));
        const QString beforeRotation = page.evaluate(QStringLiteral("window.OutboxSignIn.token()"));
        seenTokens << beforeRotation.toUtf8();
        const QString newKid = provider.post(QStringLiteral("/_test/rotate"), "{}")
                                   .json()
                                   .value(QStringLiteral("kid"))
                                   .toString();
        QVERIFY(!newKid.isEmpty() && newKid != firstKid);
        const qint64 expiresAtMs =
            page.evaluate(QStringLiteral("String(window.OutboxSignIn.expiresAt())")).toLongLong();
        QTest::qWait(int(std::max<qint64>(0, expiresAtMs - QDateTime::currentMSecsSinceEpoch())) + 1500);
        QCOMPARE(http.get(QStringLiteral("/api/v1/me"), beforeRotation.toUtf8()).status, 401); // expired
        // The page notices by itself (its /ws is closed at the token's expiry and the new socket's
        // token is refused, or its next API call is a 401): it signs in again, back to the same view.
        QVERIFY2(page.waitFor(QStringLiteral("window.OutboxSignIn && window.OutboxSignIn.token() && "
                                             "window.OutboxSignIn.token() !== '%1' && "
                                             "document.getElementById('view').dataset.ready === '1'")
                                  .arg(beforeRotation),
                              30000),
                 qPrintable(page.evaluate(QStringLiteral("location.href + ' ' + document.body.innerText"))));
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
