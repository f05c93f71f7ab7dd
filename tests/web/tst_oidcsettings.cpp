// The [oidc] and [oidc_groups] settings read through core/config, and what a person's groups grant
// (role, fleet scope), without a provider: tst_oidcsignin checks tokens against a real one.
#include "ui/web/WebConfig.h"
#include "ui/web/oidc/OidcSettings.h"

#include <QJsonArray>
#include <QTemporaryDir>
#include <QTest>

using namespace outbox;
using namespace outbox::web;

namespace {

Result<WebConfig> load(const QByteArray& ini)
{
    static QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("outbox.ini"));
    QFile f(path);
    f.open(QIODevice::WriteOnly | QIODevice::Truncate);
    f.write(ini);
    f.close();
    return WebConfig::fromFile(path);
}

const QByteArray Provider =
    "[oidc]\nissuer = https://login.example.com/realms/ops/\nclient_id = outbox-console\n";

QJsonObject claims(const QString& name, const QStringList& groups)
{
    return QJsonObject{{QStringLiteral("preferred_username"), name},
                       {QStringLiteral("groups"), QJsonArray::fromStringList(groups)}};
}

} // namespace

class TestOidcSettings : public QObject
{
    Q_OBJECT

private slots:
    void withoutOidcNothingChanges()
    {
        auto c = load("[tokens]\nscrape = viewer:" + QByteArray(64, 'a') + "\n");
        QVERIFY2(c, qPrintable(c ? QString() : c.error().message));
        QVERIFY(!c->oidc.enabled());
        QCOMPARE(c->tokens.size(), 1);
    }

    void readsTheProviderAndItsGroups()
    {
        auto c = load(Provider +
                      "[oidc_groups]\nsre = operator\npayments-oncall = operator members=team=payments\n"
                      "keycloak-path = viewer group=/ops/noc\n");
        QVERIFY2(c, qPrintable(c ? QString() : c.error().message));
        QVERIFY(c->oidc.enabled());
        QCOMPARE(c->oidc.issuer, QStringLiteral("https://login.example.com/realms/ops")); // no trailing /
        QCOMPARE(c->oidc.audience, QStringLiteral("outbox-console"));                     // the client id
        QCOMPARE(c->oidc.algorithms,
                 (QStringList{QStringLiteral("RS256"), QStringLiteral("PS256"), QStringLiteral("ES256")}));
        QCOMPARE(c->oidc.clockSkewSeconds, qint64(30));
        QCOMPARE(c->oidc.groups.size(), 3);
        QVERIFY(std::any_of(c->oidc.groups.cbegin(), c->oidc.groups.cend(),
                            [](const GroupGrant& g) { return g.group == QLatin1String("/ops/noc"); }));
    }

    // A confidential client's secret: from client_secret_file (owner-only, first line) or
    // client_secret, not both; never repeated in a message.
    void clientSecret()
    {
        const QByteArray groups = "[oidc_groups]\nsre = operator\n";
        auto publicClient = load(Provider + groups);
        QVERIFY(publicClient && !publicClient->oidc.confidential());
        QTemporaryDir dir;
        const QString file = dir.filePath(QStringLiteral("secret"));
        QFile f(file);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("s3cret-from-file\nsecond line\n");
        f.close();
        QVERIFY(f.setPermissions(QFile::ReadOwner | QFile::WriteOwner));
        auto fromFile = load(Provider + "client_secret_file = " + file.toUtf8() + "\n" + groups);
        QVERIFY2(fromFile, qPrintable(fromFile ? QString() : fromFile.error().message));
        QCOMPARE(fromFile->oidc.clientSecret, QStringLiteral("s3cret-from-file"));
        QVERIFY(fromFile->oidc.confidential());
        auto inline_ = load(Provider + "client_secret = s3cret-inline\n" + groups);
        QVERIFY(inline_ && inline_->oidc.clientSecret == QStringLiteral("s3cret-inline"));
        auto both = load(Provider + "client_secret = s3cret-inline\nclient_secret_file = " + file.toUtf8() +
                         "\n" + groups);
        QVERIFY(!both && both.error().message.contains(QStringLiteral("not both")));
        QVERIFY(f.setPermissions(QFile::ReadOwner | QFile::WriteOwner | QFile::ReadOther));
        auto readable = load(Provider + "client_secret_file = " + file.toUtf8() + "\n" + groups);
        QVERIFY(!readable);
        QVERIFY2(readable.error().message.contains(QStringLiteral("chmod 600")),
                 qPrintable(readable.error().message));
        QVERIFY(!readable.error().message.contains(QStringLiteral("s3cret")));
        auto without = load("[oidc]\nclient_secret = s3cret-inline\n");
        QVERIFY(!without && without.error().message.contains(QStringLiteral("issuer")));
    }

    void refusesWhatCannotBeSafe_data()
    {
        QTest::addColumn<QByteArray>("ini");
        QTest::addColumn<QString>("expected");
        const QByteArray groups = "[oidc_groups]\nsre = operator\n";
        QTest::newRow("none") << Provider + "algorithms = none\n" + groups
                              << QStringLiteral("\"none\" is not accepted");
        QTest::newRow("HS256") << Provider + "algorithms = RS256, HS256\n" + groups
                               << QStringLiteral("\"HS256\" is not accepted");
        QTest::newRow("http beyond loopback")
            << QByteArray("[oidc]\nissuer = http://login.example.com\nclient_id = c\n") + groups
            << QStringLiteral("https://");
        QTest::newRow("no client") << QByteArray("[oidc]\nissuer = https://login.example.com\n") + groups
                                   << QStringLiteral("client_id");
        QTest::newRow("no groups") << Provider << QStringLiteral("[oidc_groups]");
        QTest::newRow("groups without issuer") << groups << QStringLiteral("issuer");
        QTest::newRow("bad role") << Provider + "[oidc_groups]\nsre = admin\n" << QStringLiteral("no role");
        QTest::newRow("operator= on operator") << Provider + "[oidc_groups]\nsre = operator operator=team=a\n"
                                               << QStringLiteral("viewer groups");
        // The scope words are a token's (one parser for both): each once, member names or tags only.
        QTest::newRow("members= twice") << Provider + "[oidc_groups]\nsre = viewer members=a members=b\n"
                                        << QStringLiteral("members= given twice");
        QTest::newRow("bad selector") << Provider + "[oidc_groups]\nsre = viewer members=a;b\n"
                                      << QStringLiteral("\"a;b\" is not a member name or tag");
        QTest::newRow("unknown word") << Provider + "[oidc_groups]\nsre = viewer admins=a\n"
                                      << QStringLiteral("unknown part \"admins=a\"");
        QTest::newRow("group= twice") << Provider + "[oidc_groups]\nsre = viewer group=a group=b\n"
                                      << QStringLiteral("unknown part \"group=b\"");
    }
    void refusesWhatCannotBeSafe()
    {
        QFETCH(QByteArray, ini);
        QFETCH(QString, expected);
        auto c = load(ini);
        QVERIFY(!c);
        QVERIFY2(c.error().message.contains(expected), qPrintable(c.error().message));
    }

    void groupsGrantRolesAndScopes_data()
    {
        QTest::addColumn<QStringList>("groups");
        QTest::addColumn<bool>("admitted");
        QTest::addColumn<bool>("operatorRole");
        QTest::addColumn<QStringList>("members");
        QTest::addColumn<QStringList>("operatorOn");
        const QStringList none;
        QTest::newRow("no mapped group")
            << QStringList{QStringLiteral("visitors")} << false << false << none << none;
        QTest::newRow("sre: operator everywhere")
            << QStringList{QStringLiteral("sre")} << true << true << none << none;
        QTest::newRow("noc: viewer everywhere")
            << QStringList{QStringLiteral("noc")} << true << false << none << none;
        QTest::newRow("payments on call") << QStringList{QStringLiteral("payments-oncall")} << true << true
                                          << QStringList{QStringLiteral("team=payments")} << none;
        QTest::newRow("two teams, operator on both")
            << QStringList{QStringLiteral("payments-oncall"), QStringLiteral("shipping-oncall")} << true
            << true << QStringList{QStringLiteral("team=payments"), QStringLiteral("team=shipping")} << none;
        QTest::newRow("viewer of all, operator of one")
            << QStringList{QStringLiteral("noc"), QStringLiteral("payments-oncall")} << true << false << none
            << QStringList{QStringLiteral("team=payments")};
        QTest::newRow("viewer with operator= on some")
            << QStringList{QStringLiteral("shipping")} << true << false
            << QStringList{QStringLiteral("team=shipping")} << QStringList{QStringLiteral("shipping-eu")};
    }
    void groupsGrantRolesAndScopes()
    {
        QFETCH(QStringList, groups);
        QFETCH(bool, admitted);
        QFETCH(bool, operatorRole);
        QFETCH(QStringList, members);
        QFETCH(QStringList, operatorOn);
        auto c = load(Provider + "[oidc_groups]\nsre = operator\nnoc = viewer\n"
                                 "payments-oncall = operator members=team=payments\n"
                                 "shipping-oncall = operator members=team=shipping\n"
                                 "shipping = viewer members=team=shipping operator=shipping-eu\n");
        QVERIFY2(c, qPrintable(c ? QString() : c.error().message));
        const auto p = c->oidc.principalFor(claims(QStringLiteral("alice"), groups));
        QCOMPARE(p.has_value(), admitted);
        if (!p)
            return;
        QCOMPARE(p->name, QStringLiteral("alice (https://login.example.com/realms/ops)"));
        QCOMPARE(p->person, QStringLiteral("alice"));
        QCOMPARE(p->role == Role::Operator, operatorRole);
        QCOMPARE(p->scope.members, members);
        QCOMPARE(p->scope.operatorOn, operatorOn);
    }

    void nestedGroupsClaimAndBadNames()
    {
        auto c = load(Provider + "groups_claim = realm_access.roles\n[oidc_groups]\nsre = operator\n");
        QVERIFY2(c, qPrintable(c ? QString() : c.error().message));
        const QJsonObject nested{{QStringLiteral("preferred_username"), QStringLiteral("bob")},
                                 {QStringLiteral("realm_access"),
                                  QJsonObject{{QStringLiteral("roles"), QJsonArray{QStringLiteral("sre")}}}}};
        QVERIFY(c->oidc.principalFor(nested).has_value());
        // A name with control characters, or none, is nobody.
        QVERIFY(!c->oidc
                     .principalFor(QJsonObject{
                         {QStringLiteral("preferred_username"), QStringLiteral("bob\x1b[2J")},
                         {QStringLiteral("realm_access"), nested.value(QStringLiteral("realm_access"))}})
                     .has_value());
        QVERIFY(!c->oidc
                     .principalFor(QJsonObject{
                         {QStringLiteral("realm_access"), nested.value(QStringLiteral("realm_access"))}})
                     .has_value());
    }
};

QTEST_GUILESS_MAIN(TestOidcSettings)
#include "tst_oidcsettings.moc"
