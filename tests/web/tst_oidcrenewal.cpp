// Staying signed in with the company's identity provider, end to end, against the fixture's real
// OpenID provider (tests/oidc/provider: npm's oidc-provider) and a real headless Chromium:
// - a confidential client (client_secret_basic, the secret read from [oidc] client_secret_file):
//   the server exchanges the code and the refresh tokens with its secret; the wall renews its
//   short-lived token (15 s) before each expiry, in place, across several lifetimes: no redirect,
//   no 401, its /ws never drops; the pages never talk to the provider's token endpoint;
// - a wrong client secret: one clear error on the page and one line in the server's log, no loop;
// - a public client without refresh tokens: the page renews with a silent redirect (prompt=none)
//   before expiry and comes back to the same view without a form;
// - a page that could not renew in time (the tab frozen past its token's lifetime, as on a laptop
//   asleep) and cannot renew without the person any more (no refresh token, the provider's session
//   ended): its expired token is a 401, and once awake the page sends the person to the provider's
//   login form and back to the same view;
// and no token, refresh token, code or secret in an address, the server's log or /metrics.
#include "core/db/Database.h"
#include "tests/support/ServeProcess.h"
#include "tests/support/TestDatabases.h"
#include "tests/support/TestFleet.h"
#include "tests/web/ChromiumPage.h"
#include "tests/web/HttpTestClient.h"
#include "tests/web/OidcTestProvider.h"
#include "ui/web/http/AccessControl.h"

#include <QDateTime>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

using namespace outbox;
using namespace outbox::test;

namespace {

const QByteArray ScrapeSecret = "prometheus-scrape-secret";

// The configuration of a serve that signs people in at `issuer` as `client` (`extra` lines of
// [oidc] besides), with alice's team as operators and a static token for the scrape.
QByteArray oidcConfig(const QByteArray& databaseUrl, const QByteArray& issuer, const QByteArray& client,
                      const QByteArray& extra)
{
    return "[database]\nurl = " + databaseUrl + "\n[oidc]\nissuer = " + issuer + "\nclient_id = " + client +
           "\nscopes = openid profile outbox\nclock_skew = 0\n" + extra +
           "[oidc_groups]\nteam-payments = operator\n[tokens]\nscrape = viewer:" +
           web::AccessControl::hashToken(ScrapeSecret) + "\n";
}

// Records in the page every answer status of fetch() and every state of the wall's connection
// badge (the body's live/connecting/disconnected class), from now on.
const QString Recorder = QStringLiteral(
    "window.outboxTestMarker = 'same document'; window.outboxTestStatuses = []; "
    "window.outboxTestStates = []; const f = window.fetch; window.fetch = async (...a) => { const r = await "
    "f(...a); window.outboxTestStatuses.push(r.status); return r; }; new MutationObserver(() => "
    "window.outboxTestStates.push(document.body.className)).observe(document.body, {attributes: true}); "
    "'ok'");

} // namespace

class TestOidcRenewal : public QObject
{
    Q_OBJECT

private:
    std::unique_ptr<OidcTestProvider> m_oidc;
    DatabaseUrl m_url;

    // A serve whose pages sign people in as the public client without refresh tokens, and `page`
    // on its console's audit view with alice signed in through the provider's login form; `base`
    // is the server's address, `ready` an expression true while the page shows the view signed in.
    void aliceOnAuditWithoutRefreshToken(ServeProcess& serve, ChromiumPage& page, QString& base,
                                         QString& ready)
    {
        OutboxctlStart options;
        options.removedVariables = {QStringLiteral("OUTBOX_DB_URL")};
        QVERIFY2(
            serve.start(oidcConfig(m_url.redacted().toUtf8(), m_oidc->issuerBytes(), "outbox-norefresh", {}),
                        {}, options),
            serve.output.constData());
        base = QStringLiteral("http://127.0.0.1:%1").arg(serve.port);
        HttpTestClient http{QUrl(base + QLatin1Char('/'))};
        QTRY_VERIFY_WITH_TIMEOUT(
            http.get(QStringLiteral("/api/v1/auth")).json().value(QStringLiteral("ready")).toBool(), 20000);
        QString error;
        QVERIFY2(page.open(base + QStringLiteral("/console/#/audit"), &error), qPrintable(error));
        QVERIFY2(m_oidc->signIn(page, QStringLiteral("alice"), &error), qPrintable(error));
        ready = QStringLiteral("location.origin === '%1' && !!window.OutboxSignIn && "
                               "!!window.OutboxSignIn.token() && document.getElementById('view')"
                               ".dataset.view === 'audit' && document.getElementById('view')"
                               ".dataset.ready === '1'")
                    .arg(base);
        QVERIFY2(page.waitFor(ready, 30000),
                 qPrintable(page.evaluate(QStringLiteral("location.href + ' ' + document.body.innerText"))));
    }

private slots:
    void initTestCase()
    {
        QVERIFY2(!qEnvironmentVariable("OUTBOXCTL").isEmpty(), "OUTBOXCTL must point at the binary");
        QString why;
        m_oidc = OidcTestProvider::fromFixture(&why);
        if (!m_oidc && qEnvironmentVariableIsSet("CI"))
            QFAIL(qPrintable(why));
        if (!m_oidc)
            QSKIP(qPrintable(why));
        m_url = TestDatabases::create(QStringLiteral("sqlite"),
                                      TestDatabases::uniqueName(QStringLiteral("oidcrenew")));
        auto db = migratedWithPrefix(m_url, QString());
        QVERIFY(db);
        insertEvents(*db, 3);
    }

    void confidentialClientStaysSignedInAcrossExpiries()
    {
        const QByteArray issuer = m_oidc->issuerBytes();
        ServeProcess serve;
        OutboxctlStart options;
        options.removedVariables = {QStringLiteral("OUTBOX_DB_URL")};
        QVERIFY2(serve.start(oidcConfig(m_url.redacted().toUtf8(), issuer, "outbox-confidential",
                                        "client_secret_file = " + m_oidc->secretFile().toUtf8() + "\n"),
                             {}, options),
                 serve.output.constData());
        QProcess& server = *serve.process;
        const QString base = QStringLiteral("http://127.0.0.1:%1").arg(serve.port);
        HttpTestClient http{QUrl(base + QLatin1Char('/'))};
        QTRY_VERIFY_WITH_TIMEOUT(
            http.get(QStringLiteral("/api/v1/auth")).json().value(QStringLiteral("ready")).toBool(), 20000);
        // The pages exchange nothing with the provider themselves: the server does, with its secret.
        const QJsonObject auth = http.get(QStringLiteral("/api/v1/auth")).json();
        QCOMPARE(auth.value(QStringLiteral("token_exchange")).toString(), QStringLiteral("server"));
        QVERIFY(auth.value(QStringLiteral("token_endpoint")).toString().isEmpty());
        const QByteArray policy = http.get(QStringLiteral("/")).header("Content-Security-Policy");
        QVERIFY2(!policy.contains(issuer), policy.constData());
        // A code the provider never gave: refused as a sign-in, not as the client (the secret is right).
        const auto forged = http.post(
            QStringLiteral("/api/v1/auth/token"),
            QJsonDocument(QJsonObject{{QStringLiteral("grant_type"), QStringLiteral("authorization_code")},
                                      {QStringLiteral("code"), QStringLiteral("forged")},
                                      {QStringLiteral("code_verifier"), QString(50, QLatin1Char('x'))},
                                      {QStringLiteral("redirect_uri"), QString(base + QLatin1Char('/'))}})
                .toJson(QJsonDocument::Compact));
        QVERIFY2(forged.status == 400 && forged.body.contains("invalid_grant"), forged.body.constData());

        // Alice signs in on the wall through the provider's own login page.
        ChromiumPage page;
        QString error;
        QVERIFY2(page.open(base + QStringLiteral("/"), &error), qPrintable(error));
        QVERIFY2(m_oidc->signIn(page, QStringLiteral("alice"), &error), qPrintable(error));
        QVERIFY2(page.waitFor(
                     QStringLiteral("location.origin === '%1' && document.body.classList.contains('live') "
                                    "&& !!window.OutboxSignIn.token()")
                         .arg(base),
                     30000),
                 qPrintable(page.evaluate(QStringLiteral("location.href + ' ' + document.body.innerText"))));
        QCOMPARE(page.evaluate(Recorder), QStringLiteral("ok"));
        QByteArrayList seen;
        QString current = page.evaluate(QStringLiteral("window.OutboxSignIn.token()"));
        seen << current.toUtf8();
        // Three renewals, each before the token it replaces expires; the old one is then a 401.
        for (int i = 0; i < 3; ++i) {
            const qint64 expiresAtMs =
                page.evaluate(QStringLiteral("String(window.OutboxSignIn.expiresAt())")).toLongLong();
            QVERIFY2(
                page.waitFor(QStringLiteral("window.OutboxSignIn.token() !== '%1'").arg(current), 20000),
                qPrintable(page.evaluate(QStringLiteral("location.href + ' ' + document.body.innerText"))));
            QVERIFY2(QDateTime::currentMSecsSinceEpoch() < expiresAtMs,
                     "renewed only after the token expired");
            const QString previous = current;
            current = page.evaluate(QStringLiteral("window.OutboxSignIn.token()"));
            seen << current.toUtf8();
            QCOMPARE(http.get(QStringLiteral("/api/v1/me"), current.toUtf8()).status, 200);
            QTest::qWait(int(std::max<qint64>(0, expiresAtMs - QDateTime::currentMSecsSinceEpoch())) + 1000);
            QCOMPARE(http.get(QStringLiteral("/api/v1/me"), previous.toUtf8()).status, 401);
        }
        // The same document all along, its socket never dropped, no call answered 401, and the wall
        // still gets its snapshots.
        QCOMPARE(page.evaluate(QStringLiteral("window.outboxTestMarker")), QStringLiteral("same document"));
        const QString states = page.evaluate(QStringLiteral("window.outboxTestStates.join(' | ')"));
        QVERIFY2(!states.contains(QStringLiteral("disconnected")) &&
                     !states.contains(QStringLiteral("connecting")),
                 qPrintable(states));
        const QString statuses = page.evaluate(QStringLiteral("window.outboxTestStatuses.join(',')"));
        QVERIFY2(!statuses.contains(QStringLiteral("401")), qPrintable(statuses));
        QVERIFY(page.evaluate(QStringLiteral("document.body.classList.contains('live')")) ==
                QStringLiteral("true"));
        QCOMPARE(page.evaluate(QStringLiteral("String(sessionStorage.length + document.cookie.length)")),
                 QStringLiteral("0"));

        // Nothing secret in an address, the log or /metrics: tokens, refresh tokens, the secret.
        const QString history = page.evaluate(
            QStringLiteral("[location.href, document.referrer, "
                           "...performance.getEntriesByType('navigation').map(e => e.name), "
                           "...performance.getEntriesByType('resource').map(e => e.name)].join(' ')"));
        QVERIFY2(!history.contains(QStringLiteral("code=")) && !history.contains(QStringLiteral("state=")),
                 qPrintable(history));
        const QByteArray metrics = http.get(QStringLiteral("/metrics"), ScrapeSecret).body;
        QFile secretFile(m_oidc->secretFile());
        QVERIFY(secretFile.open(QIODevice::ReadOnly));
        const QByteArray secret = secretFile.readAll().trimmed();
        server.terminate();
        QVERIFY(server.waitForFinished(15000));
        const QByteArray log = serve.output + server.readAll();
        QVERIFY(!log.contains("code="));
        seen << secret;
        for (const QByteArray& token : std::as_const(seen)) {
            const QByteArray probe = token.mid(token.lastIndexOf('.') + 1).left(32);
            QVERIFY(probe.size() >= 16);
            QVERIFY2(!history.toUtf8().contains(probe), "a token or the secret in an address");
            QVERIFY2(!log.contains(probe), "a token or the secret in the server's log");
            QVERIFY2(!metrics.contains(probe), "a token or the secret in /metrics");
        }
    }

    void wrongClientSecretIsOneClearError()
    {
        ServeProcess serve;
        OutboxctlStart options;
        options.removedVariables = {QStringLiteral("OUTBOX_DB_URL")};
        QVERIFY2(serve.start(oidcConfig(m_url.redacted().toUtf8(), m_oidc->issuerBytes(),
                                        "outbox-confidential", "client_secret = not-the-secret-at-all\n"),
                             {}, options),
                 serve.output.constData());
        QProcess& server = *serve.process;
        const QString base = QStringLiteral("http://127.0.0.1:%1").arg(serve.port);
        HttpTestClient http{QUrl(base + QLatin1Char('/'))};
        QTRY_VERIFY_WITH_TIMEOUT(
            http.get(QStringLiteral("/api/v1/auth")).json().value(QStringLiteral("ready")).toBool(), 20000);
        ChromiumPage page;
        QString error;
        QVERIFY2(page.open(base + QStringLiteral("/console/"), &error), qPrintable(error));
        QVERIFY2(m_oidc->signIn(page, QStringLiteral("alice"), &error), qPrintable(error));
        // Back on the console: it says what is wrong, and stays there (no loop to the provider).
        const QString said =
            QStringLiteral("document.body.innerText.includes(\"refused this server's client secret\")");
        QVERIFY2(page.waitFor(QStringLiteral("location.origin === '%1' && %2").arg(base, said), 30000),
                 qPrintable(page.evaluate(QStringLiteral("location.href + ' ' + document.body.innerText"))));
        QTest::qWait(3000);
        QCOMPARE(page.evaluate(QStringLiteral("location.origin")), base);
        QVERIFY(page.evaluate(said) == QStringLiteral("true"));
        server.terminate();
        QVERIFY(server.waitForFinished(15000));
        const QByteArray log = serve.output + server.readAll();
        QCOMPARE(log.count("refused the client outbox-confidential and its secret"), 1);
        QVERIFY(!log.contains("not-the-secret-at-all"));
    }

    void withoutRefreshTokenRenewsBySilentRedirect()
    {
        ServeProcess serve;
        ChromiumPage page;
        QString base, ready;
        aliceOnAuditWithoutRefreshToken(serve, page, base, ready);
        if (QTest::currentTestFailed())
            return;
        HttpTestClient http{QUrl(base + QLatin1Char('/'))};
        const QString first = page.evaluate(QStringLiteral("window.OutboxSignIn.token()"));
        const qint64 expiresAtMs =
            page.evaluate(QStringLiteral("String(window.OutboxSignIn.expiresAt())")).toLongLong();
        QCOMPARE(page.evaluate(QStringLiteral("window.outboxTestMarker = 'first document'")),
                 QStringLiteral("first document"));
        // Before expiry: off to the provider (prompt=none) and back, same view, no form, new token.
        QVERIFY2(page.waitFor(ready + QStringLiteral(" && window.OutboxSignIn.token() !== '%1'").arg(first),
                              25000),
                 qPrintable(page.evaluate(QStringLiteral("location.href + ' ' + document.body.innerText"))));
        QVERIFY2(QDateTime::currentMSecsSinceEpoch() < expiresAtMs + 2000, "renewed only well after expiry");
        QCOMPARE(page.evaluate(QStringLiteral("String(window.outboxTestMarker)")),
                 QStringLiteral("undefined"));
        QCOMPARE(page.evaluate(QStringLiteral("location.pathname + location.hash")),
                 QStringLiteral("/console/#/audit"));
        QCOMPARE(http.get(QStringLiteral("/api/v1/me"),
                          page.evaluate(QStringLiteral("window.OutboxSignIn.token()")).toUtf8())
                     .status,
                 200);
    }

    void expiredTokenWithoutRenewalSignsInAgain()
    {
        ServeProcess serve;
        ChromiumPage page;
        QString base, ready;
        aliceOnAuditWithoutRefreshToken(serve, page, base, ready);
        if (QTest::currentTestFailed())
            return;
        HttpTestClient http{QUrl(base + QLatin1Char('/'))};
        QString error;
        const QString where = QStringLiteral("location.href + ' ' + document.body.innerText");
        const QString first = page.evaluate(QStringLiteral("window.OutboxSignIn.token()"));
        const qint64 expiresAtMs =
            page.evaluate(QStringLiteral("String(window.OutboxSignIn.expiresAt())")).toLongLong();
        QCOMPARE(http.get(QStringLiteral("/api/v1/me"), first.toUtf8()).status, 200);

        // The laptop sleeps: no timer of the page runs, so it cannot renew before expiry ...
        page.call(QStringLiteral("Page.setWebLifecycleState"),
                  {{QStringLiteral("state"), QStringLiteral("frozen")}});
        // ... and meanwhile alice's session at the provider ends: no renewal without her any more.
        QVERIFY(m_oidc->endSessions() >= 1);
        QTest::qWait(int(std::max<qint64>(0, expiresAtMs - QDateTime::currentMSecsSinceEpoch())) + 1500);
        // Still the console, never off to the provider: the page slept (its renewal was due a third
        // of the lifetime before expiry) and did not renew.
        const QJsonObject history = page.call(QStringLiteral("Page.getNavigationHistory"));
        const QJsonArray entries = history.value(QStringLiteral("entries")).toArray();
        const int currentIndex = history.value(QStringLiteral("currentIndex")).toInt();
        QVERIFY2(currentIndex == entries.size() - 1 &&
                     entries.at(currentIndex).toObject().value(QStringLiteral("url")).toString() ==
                         base + QStringLiteral("/console/#/audit"),
                 QJsonDocument(history).toJson().constData());
        // The token it holds has expired: the server refuses it.
        QCOMPARE(http.get(QStringLiteral("/api/v1/me"), first.toUtf8()).status, 401);

        // Awake: the page sends alice to the provider's own login form (its silent sign-in is
        // refused), and back to the same view with a token that works.
        page.call(QStringLiteral("Page.setWebLifecycleState"),
                  {{QStringLiteral("state"), QStringLiteral("active")}});
        QVERIFY2(m_oidc->signIn(page, QStringLiteral("alice"), &error), qPrintable(error));
        QVERIFY2(page.waitFor(ready + QStringLiteral(" && window.OutboxSignIn.token() !== '%1'").arg(first),
                              30000),
                 qPrintable(page.evaluate(where)));
        QCOMPARE(page.evaluate(QStringLiteral("location.pathname + location.hash")),
                 QStringLiteral("/console/#/audit"));
        const QString second = page.evaluate(QStringLiteral("window.OutboxSignIn.token()"));
        QCOMPARE(http.get(QStringLiteral("/api/v1/me"), second.toUtf8()).status, 200);
        const QString shown = page.evaluate(QStringLiteral("document.body.innerText"));
        QVERIFY2(!shown.contains(QStringLiteral("refused")), qPrintable(shown));
    }
};

QTEST_GUILESS_MAIN(TestOidcRenewal)
#include "tst_oidcrenewal.moc"
