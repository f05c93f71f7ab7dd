#include "tests/web/OidcTestProvider.h"

#include "tests/web/ChromiumPage.h"

#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QUrl>

namespace outbox::test {

std::unique_ptr<OidcTestProvider> OidcTestProvider::fromFixture(QString* why)
{
    const QString dir = qEnvironmentVariable("OUTBOX_TEST_OIDC_DIR");
    if (dir.isEmpty()) {
        *why =
            QStringLiteral("OUTBOX_TEST_OIDC_DIR is not set (run the test with ctest: fixture.oidc.start)");
        return nullptr;
    }
    QFile unavailable(dir + QStringLiteral("/unavailable"));
    if (unavailable.open(QIODevice::ReadOnly)) {
        *why = QString::fromUtf8(unavailable.readAll()).trimmed();
        return nullptr;
    }
    QFile issuer(dir + QStringLiteral("/issuer"));
    if (!issuer.open(QIODevice::ReadOnly)) {
        *why = QStringLiteral("the fixture's provider is not running (%1/issuer is missing)").arg(dir);
        return nullptr;
    }
    auto p = std::make_unique<OidcTestProvider>();
    p->m_dir = dir;
    p->m_issuer = QString::fromUtf8(issuer.readAll()).trimmed();
    p->m_secretFile = dir + QStringLiteral("/client.secret");
    p->m_http = std::make_unique<HttpTestClient>(QUrl(p->m_issuer + QLatin1Char('/')));
    return p;
}

QByteArray OidcTestProvider::mint(const QString& mode, const QJsonObject& claims)
{
    const auto r = m_http->post(
        QStringLiteral("/_test/mint"),
        QJsonDocument(QJsonObject{{QStringLiteral("mode"), mode}, {QStringLiteral("claims"), claims}})
            .toJson(QJsonDocument::Compact));
    return r.json().value(QStringLiteral("token")).toString().toUtf8();
}

QString OidcTestProvider::rotate()
{
    return m_http->post(QStringLiteral("/_test/rotate"), "{}").json().value(QStringLiteral("kid")).toString();
}

int OidcTestProvider::endSessions()
{
    return m_http->post(QStringLiteral("/_test/end-sessions"), "{}")
        .json()
        .value(QStringLiteral("ended"))
        .toInt();
}

bool OidcTestProvider::signIn(ChromiumPage& page, const QString& person, QString* error)
{
    const QString where = QStringLiteral("location.href + ' ' + document.body.innerText");
    if (!page.waitFor(
            QStringLiteral("location.origin === '%1' && !!document.querySelector('input[name=login]')")
                .arg(m_issuer),
            30000)) {
        *error = QStringLiteral("no login form: ") + page.evaluate(where);
        return false;
    }
    if (!page.type(QStringLiteral("input[name=login]"), person) ||
        !page.type(QStringLiteral("input[name=password]"), QStringLiteral("any")) ||
        !page.click(QStringLiteral("button[type=submit]"))) {
        *error = QStringLiteral("cannot fill the login form: ") + page.evaluate(where);
        return false;
    }
    // The provider asks for consent once per client.
    page.waitFor(
        QStringLiteral("location.origin === '%1' ? !!document.querySelector('button[type=submit]') && "
                       "!document.querySelector('input[name=login]') : true")
            .arg(m_issuer),
        20000);
    if (page.evaluate(QStringLiteral("location.origin")) == m_issuer)
        page.click(QStringLiteral("button[type=submit]"));
    return true;
}

} // namespace outbox::test
