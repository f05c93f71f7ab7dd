// Load time of the web admin console on a large table (not run by ctest; docs/benchmarks.md):
//   bench_webconsole --db postgresql://user@127.0.0.1:PORT/DB [--table-prefix P] [--runs 10]
// Fill the table first with bench_console (10M rows: bench_console --db URL --rows 10000000).
// Serves the database with `outboxctl serve`'s WebServer, opens /console/#token=… in a real
// headless Chromium and reports, per fresh page load, the time from navigation start to the
// rendered first events page (50 rows, keyset, newest first), and the same for status=FAILED.
#include "core/db/Database.h"
#include "tests/web/ChromiumPage.h"
#include "ui/web/WebServer.h"
#include "ui/web/http/AccessControl.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QTest>
#include <algorithm>
#include <cstdio>

using namespace outbox;
using namespace outbox::test;
using namespace outbox::web;

namespace {

const QByteArray Secret = "bench-webconsole-operator";

double loadOnce(ChromiumPage& page, const QString& url)
{
    page.navigate(QStringLiteral("about:blank"));
    page.waitFor(QStringLiteral("location.href === 'about:blank'"));
    page.navigate(url);
    if (!page.waitFor(QStringLiteral("document.getElementById('view') && "
                                     "document.getElementById('view').dataset.view === 'events' && "
                                     "document.getElementById('view').dataset.ready === '1'"),
                      30000))
        return -1;
    if (page.evaluate(QStringLiteral("String(document.querySelectorAll('#events tbody tr').length)"))
            .toInt() == 0)
        return -1;
    return page.evaluate(QStringLiteral("String(window.outboxConsoleReadyMs)")).toDouble();
}

} // namespace

int main(int argc, char* argv[])
{
    QCoreApplication app(argc, argv);
    QCommandLineParser parser;
    parser.addHelpOption();
    QCommandLineOption dbOption(QStringLiteral("db"),
                                QStringLiteral("Database URL (filled by bench_console)."),
                                QStringLiteral("url"));
    QCommandLineOption prefixOption(QStringLiteral("table-prefix"), QStringLiteral("Table prefix."),
                                    QStringLiteral("prefix"));
    QCommandLineOption runsOption(QStringLiteral("runs"), QStringLiteral("Page loads per measurement."),
                                  QStringLiteral("n"), QStringLiteral("10"));
    parser.addOptions({dbOption, prefixOption, runsOption});
    parser.process(app);
    auto url = DatabaseUrl::parse(parser.value(dbOption));
    if (!url) {
        std::fprintf(stderr, "bench_webconsole: %s\n", qPrintable(url.message()));
        return 2;
    }
    const QString prefix = parser.value(prefixOption);
    qint64 rows = -1;
    {
        Database::Options options;
        options.tablePrefix = prefix;
        auto db = Database::open(*url, options);
        if (!db) {
            std::fprintf(stderr, "bench_webconsole: %s\n", qPrintable(db.message()));
            return 1;
        }
        auto q = (*db)->exec(QStringLiteral("SELECT COUNT(*) FROM {events}"));
        if (q && q->next())
            rows = q->value(0).toLongLong();
    }
    WebConfig config;
    config.port = 0;
    config.tokens = {ApiToken{QStringLiteral("bench"), Role::Operator, AccessControl::hashToken(Secret)}};
    WebServer server(config, DatabaseTarget(*url, prefix));
    if (auto started = server.start(); !started) {
        std::fprintf(stderr, "bench_webconsole: %s\n", qPrintable(started.message()));
        return 1;
    }
    QString base = server.baseUrl().toString();
    base.chop(1); // no trailing slash
    ChromiumPage page;
    QString error;
    if (!page.open(QStringLiteral("about:blank"), &error)) {
        std::fprintf(stderr, "bench_webconsole: %s\n", qPrintable(error));
        return 1;
    }
    const int runs = std::max(1, parser.value(runsOption).toInt());
    std::printf("outbox_events: %lld rows; %d fresh page loads each\n", rows, runs);
    // The token goes in once by fragment; later loads find it in sessionStorage (as a reload does).
    if (loadOnce(page, base + QStringLiteral("/console/#token=") + QString::fromUtf8(Secret)) < 0) {
        std::fprintf(stderr, "bench_webconsole: the page did not show events\n");
        return 1;
    }
    for (const auto& [label, route] :
         {std::pair{"/console/ + first events page", QStringLiteral("#/events")},
          std::pair{"/console/ + first FAILED page", QStringLiteral("#/events?status=FAILED")}}) {
        QVector<double> ms;
        for (int i = 0; i < runs; ++i) {
            const double t = loadOnce(page, base + QStringLiteral("/console/") + route);
            if (t < 0) {
                std::fprintf(stderr, "bench_webconsole: the page did not show events\n");
                return 1;
            }
            ms << t;
        }
        std::sort(ms.begin(), ms.end());
        std::printf("%-36s median %7.0f ms   max %7.0f ms   target < 500 ms %s\n", label,
                    ms.at(ms.size() / 2), ms.last(), ms.at(ms.size() / 2) < 500 ? "OK" : "MISSED");
    }
    return 0;
}
