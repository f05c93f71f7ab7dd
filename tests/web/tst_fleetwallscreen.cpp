// The fleet wall on a 1920×1080 wall screen with 200 members, in a real headless Chromium over a
// real `outboxctl serve --fleet FILE`: 195 SQLite members (12 of them sick) and 5 whose port accepts
// TCP and never answers. Every sick and unreachable tile is on the screen without scrolling, and the
// tiles' names and states are large enough to read from 3 m.
//
// How large is that: ISO 9241-3 and NUREG-0700 (1.3.1-4) ask for characters of at least 16 minutes
// of arc at the longest viewing distance. At 3 m that is a capital 3000 mm × tan(16′) = 14.0 mm
// high. A 55-inch 1920×1080 panel, the smallest usual wall screen, has 0.634 mm pixels, so 22 px of
// capital; DejaVu Sans' capitals are 0.73 em: a font-size of 30.2 px, so at least 31 px for the
// member's name and its state. The figures under them are individual values, read from closer by
// the engineer walking up (NUREG-0700 allows a shorter distance for those): 16′ at 2 m is 20.2 px,
// so at least 20 px.
#include "core/db/Database.h"
#include "tests/support/ServeProcess.h"
#include "tests/support/TestDatabases.h"
#include "tests/support/TestFleet.h"
#include "tests/web/ChromiumPage.h"
#include "tests/web/HttpTestClient.h"
#include "ui/web/http/AccessControl.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonObject>
#include <QTcpServer>
#include <QTemporaryDir>
#include <QTest>

using namespace outbox;
using namespace outbox::test;

namespace {

const QByteArray NocSecret = "wall-screen-noc";
constexpr int SqliteMembers = 195;
constexpr int BlackHoles = 5;
constexpr int NameAndStateMinPx = 31;
constexpr int NumbersMinPx = 20;

bool isSick(int i)
{
    return i % 16 == 7; // 12 of the 195, spread over the names (the wall sorts them up)
}

} // namespace

class TestFleetWallScreen : public QObject
{
    Q_OBJECT

private slots:
    void twoHundredMembersOnOneScreen()
    {
        QVERIFY2(!qEnvironmentVariable("OUTBOXCTL").isEmpty(), "OUTBOXCTL must point at the binary");
        QTcpServer blackHole; // listens, never answers
        QVERIFY(blackHole.listen(QHostAddress::LocalHost, 0));
        QTemporaryDir dir;
        // One migrated SQLite file copied 195 times (migrating each would take most of a minute).
        const DatabaseUrl templateUrl = TestDatabases::create(
            QStringLiteral("sqlite"), TestDatabases::uniqueName(QStringLiteral("wall")));
        migratedWithPrefix(templateUrl, QString()).reset();
        QByteArray members;
        int sick = 0;
        for (int i = 1; i <= SqliteMembers; ++i) {
            const QString name = QStringLiteral("svc-%1").arg(i, 3, 10, QLatin1Char('0'));
            const QString file = dir.filePath(name + QStringLiteral(".db"));
            QVERIFY(QFile::copy(templateUrl.database, file));
            if (isSick(i)) {
                DatabaseUrl url = templateUrl;
                url.database = file;
                auto db = TestDatabases::open(url);
                const QVector<qint64> ids = insertEvents(*db, 3);
                forceStatus(*db, ids.mid(0, 2), QStringLiteral("FAILED"),
                            QStringLiteral("Broker: timed out"));
                ++sick;
            }
            members += "[member " + name.toUtf8() + "]\nurl = sqlite://" + file.toUtf8() + "\ntags = team=t" +
                       QByteArray::number(i % 7) + "\n";
        }
        for (int i = 1; i <= BlackHoles; ++i)
            members += "[member bh-" + QByteArray::number(i) + "]\nurl = postgresql://outbox@127.0.0.1:" +
                       QByteArray::number(blackHole.serverPort()) + "/nothing\n";
        const QString fleet =
            writeTestFile(dir, QStringLiteral("fleet.ini"),
                          "[fleet]\nmax_connections = 16\ninterval = 2s\ntimeout = 3s\n" + members);

        ServeProcess serve;
        OutboxctlStart options;
        options.removedVariables = {QStringLiteral("OUTBOX_DB_URL")};
        QVERIFY2(serve.start("[tokens]\nnoc = viewer:" + web::AccessControl::hashToken(NocSecret) + "\n",
                             {QStringLiteral("--fleet"), fleet}, options),
                 serve.output.constData());
        HttpTestClient http(serve.baseUrl());
        const auto count = [&](const QString& state) {
            int n = 0;
            for (const QJsonValue& v : http.get(QStringLiteral("/api/v1/fleet"), NocSecret)
                                           .json()
                                           .value(QStringLiteral("members"))
                                           .toArray())
                n += v.toObject().value(QStringLiteral("state")).toString() == state;
            return n;
        };
        QTRY_VERIFY_WITH_TIMEOUT(count(QStringLiteral("unreachable")) == BlackHoles &&
                                     count(QStringLiteral("critical")) == sick &&
                                     count(QStringLiteral("ok")) == SqliteMembers - sick,
                                 30000);

        ChromiumPage page;
        page.setWindowSize(1920, 1080);
        QString error;
        if (!page.open(QStringLiteral("http://127.0.0.1:%1/#token=").arg(serve.port) +
                           QString::fromUtf8(NocSecret),
                       &error))
            QFAIL(qPrintable(error));
        // The window keeps some of its height for the browser's own bars: the page gets the screen.
        page.call(QStringLiteral("Emulation.setDeviceMetricsOverride"),
                  {{QStringLiteral("width"), 1920},
                   {QStringLiteral("height"), 1080},
                   {QStringLiteral("deviceScaleFactor"), 1},
                   {QStringLiteral("mobile"), false}});
        // (The page may still be reloading itself without the #token: wait rather than read once.)
        QVERIFY2(page.waitFor(QStringLiteral("innerWidth === 1920 && innerHeight === 1080"), 30000),
                 qPrintable(page.evaluate(QStringLiteral("innerWidth + 'x' + innerHeight"))));
        const int attention = sick + BlackHoles;
        QVERIFY2(page.waitFor(QStringLiteral("document.querySelectorAll('#wall-tiles li').length === 200 && "
                                             "[...document.querySelectorAll('#wall-tiles li')].slice(0, %1)"
                                             ".every(li => li.className !== 'ok')")
                                  .arg(attention),
                              40000),
                 qPrintable(page.evaluate(QStringLiteral("document.body.innerText")).left(2000)));
        if (const QString shot = qEnvironmentVariable("OUTBOX_WALL_SCREENSHOT"); !shot.isEmpty()) {
            QFile f(shot);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(page.screenshotPng());
        }
        QCOMPARE(page.evaluate(QStringLiteral("String(scrollY)")), QStringLiteral("0"));

        // Every tile that needs attention lies inside the viewport, whole.
        const QString outside = page.evaluate(QStringLiteral(
            "[...document.querySelectorAll('#wall-tiles li:not(.ok)')].filter(li => { "
            "const r = li.getBoundingClientRect(); "
            "return r.width === 0 || r.left < 0 || r.top < 0 || r.right > innerWidth || r.bottom > "
            "innerHeight; "
            "}).map(li => li.dataset.member + ' ' + JSON.stringify(li.getBoundingClientRect())).join('; ')"));
        QVERIFY2(outside.isEmpty(), qPrintable(QStringLiteral("off screen: ") + outside));
        QCOMPARE(page.evaluate(QStringLiteral(
                                   "String(document.querySelectorAll('#wall-tiles li:not(.ok)').length)"))
                     .toInt(),
                 attention);

        // Readable from 3 m: on every tile the name and the state at least 31 px, the figures at least
        // 20 px, and none of them wider than its tile (cut off or spilling into the next).
        const QString small = page.evaluate(
            QStringLiteral(
                "[...document.querySelectorAll('#wall-tiles li')].flatMap(li => { "
                "const box = li.getBoundingClientRect(); "
                "return [['.name', %1], ['.state', %1], ['.numbers', %2], ['.error', %2]].map(([sel, min]) "
                "=> { "
                "const e = li.querySelector(sel); if (!e) return ''; "
                "const px = parseFloat(getComputedStyle(e).fontSize); const r = e.getBoundingClientRect(); "
                "if (px < min) return li.dataset.member + sel + ' ' + px + 'px'; "
                "if (e.scrollWidth > e.clientWidth + 1 || r.right > box.right + 1) "
                "return li.dataset.member + sel + ' overflows'; return ''; }); "
                "}).filter(Boolean).slice(0, 10).join('; ')")
                .arg(NameAndStateMinPx)
                .arg(NumbersMinPx));
        QVERIFY2(small.isEmpty(), qPrintable(small));

        QCOMPARE(terminateAndWait(*serve.process), 0);
    }
};

QTEST_GUILESS_MAIN(TestFleetWallScreen)
#include "tst_fleetwallscreen.moc"
