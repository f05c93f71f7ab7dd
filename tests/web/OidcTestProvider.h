#pragma once

#include "tests/web/HttpTestClient.h"

#include <QString>
#include <memory>

namespace outbox::test {

class ChromiumPage;

// The OpenID provider of the fixture fixture.oidc.start (tests/oidc/provider.sh): its issuer, the
// file with its confidential client's secret, its test-only doors (/_test/mint, /_test/rotate,
// /_test/end-sessions) and its own login page driven in a real Chromium.
class OidcTestProvider
{
public:
    // The fixture's provider; nothing (with `why`) when the fixture could not start one (no Node or
    // no node_modules: the test skips, or fails under CI).
    static std::unique_ptr<OidcTestProvider> fromFixture(QString* why);

    const QString& issuer() const { return m_issuer; }
    QByteArray issuerBytes() const { return m_issuer.toUtf8(); }
    // The confidential client's secret, in a file only its owner may read (as client_secret_file).
    const QString& secretFile() const { return m_secretFile; }
    HttpTestClient& http() { return *m_http; }

    // A token made on purpose ({mode, claims}: provider, none, hs256-public, other-key).
    QByteArray mint(const QString& mode, const QJsonObject& claims = {});
    // A new signing key first in the JWKS (the old one kept); its kid.
    QString rotate();
    // Ends every person's session at the provider; how many there were.
    int endSessions();

    // Signs `person` in on the provider's own login page the page was sent to (and gives consent
    // when asked); false (with `error`) when the page never showed the form.
    bool signIn(ChromiumPage& page, const QString& person, QString* error);

private:
    QString m_dir;
    QString m_issuer;
    QString m_secretFile;
    std::unique_ptr<HttpTestClient> m_http;
};

} // namespace outbox::test
