// Load figure for docs/benchmarks.md: N dashboard WebSocket clients plus R scrapes of /metrics
// per second against a real `outboxctl serve` process for S seconds; prints the server
// process's CPU and memory from /proc. Usage: bench_webload [seconds=60] [clients=200] [rate=50]
#include "core/db/Migrator.h"
#include "tests/support/ServeProcess.h"
#include "tests/support/TestDatabases.h"
#include "ui/web/http/AccessControl.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>
#include <QWebSocket>
#include <unistd.h>

using namespace outbox;

namespace {

struct ProcSample
{
    double cpuSeconds = 0;
    qint64 rssKb = 0;
};

ProcSample sampleProcess(qint64 pid)
{
    ProcSample s;
    QFile stat(QStringLiteral("/proc/%1/stat").arg(pid));
    if (stat.open(QIODevice::ReadOnly)) {
        const QByteArray line = stat.readAll();
        const QList<QByteArray> fields = line.mid(line.lastIndexOf(')') + 2).split(' ');
        // Fields after the command: state is index 0, utime 11, stime 12 (man 5 proc).
        s.cpuSeconds = double(fields.value(11).toLongLong() + fields.value(12).toLongLong()) /
                       double(sysconf(_SC_CLK_TCK));
    }
    QFile status(QStringLiteral("/proc/%1/status").arg(pid));
    if (status.open(QIODevice::ReadOnly))
        for (const QByteArray& l : status.readAll().split('\n'))
            if (l.startsWith("VmRSS:"))
                s.rssKb = l.mid(6).trimmed().split(' ').value(0).toLongLong();
    return s;
}

} // namespace

int main(int argc, char* argv[])
{
    QCoreApplication app(argc, argv);
    const QStringList args = app.arguments();
    const int seconds = args.value(1, QStringLiteral("60")).toInt();
    const int clientCount = args.value(2, QStringLiteral("200")).toInt();
    const int rate = args.value(3, QStringLiteral("50")).toInt();

    QTemporaryDir dir;
    const QString dbPath = dir.filePath(QStringLiteral("bench.db"));
    auto url = DatabaseUrl::parse(QStringLiteral("sqlite://") + dbPath);
    {
        auto db = Database::open(*url);
        if (!db || !Migrator(**db).migrate())
            qFatal("cannot prepare the database");
        test::insertEvents(**db, 10000);
    }
    const QByteArray secret = "bench-viewer";
    test::ServeProcess server;
    if (!server.start("[tokens]\nbench = viewer:" + web::AccessControl::hashToken(secret) + "\n",
                      {QStringLiteral("--db"), QStringLiteral("sqlite://") + dbPath,
                       QStringLiteral("--sample-interval"), QStringLiteral("1000")}))
        qFatal("outboxctl serve did not start: %s", server.output.constData());
    const quint16 port = server.port;
    QTest::qWait(1500);
    const qint64 pid = server.pid();
    const ProcSample idle = sampleProcess(pid);

    std::vector<std::unique_ptr<QWebSocket>> sockets;
    qint64 pushes = 0;
    for (int i = 0; i < clientCount; ++i) {
        auto s = std::make_unique<QWebSocket>();
        QWebSocket* raw = s.get();
        QObject::connect(raw, &QWebSocket::connected, raw, [raw, secret] {
            raw->sendTextMessage(
                QStringLiteral("{\"type\":\"auth\",\"token\":\"%1\"}").arg(QString::fromUtf8(secret)));
        });
        QObject::connect(raw, &QWebSocket::textMessageReceived, raw, [&pushes](const QString& t) {
            if (t.contains(QLatin1String("\"type\":\"snapshot\"")))
                ++pushes;
        });
        s->open(QUrl(QStringLiteral("ws://127.0.0.1:%1/ws").arg(port)));
        sockets.push_back(std::move(s));
        // In batches: one address may have at most 64 sockets waiting to authenticate at once.
        if (i % 32 == 31)
            QTest::qWait(250);
    }
    QTest::qWait(2000);

    QNetworkAccessManager nam;
    qint64 scrapes = 0, scrapeErrors = 0;
    QVector<qint64> latencies;
    QTimer scraper;
    scraper.setInterval(1000 / std::max(1, rate));
    QObject::connect(&scraper, &QTimer::timeout, &nam, [&] {
        QNetworkRequest r(QUrl(QStringLiteral("http://127.0.0.1:%1/metrics").arg(port)));
        r.setRawHeader("Authorization", "Bearer " + secret);
        auto* timer = new QElapsedTimer;
        timer->start();
        QNetworkReply* reply = nam.get(r);
        QObject::connect(reply, &QNetworkReply::finished, reply, [&, reply, timer] {
            latencies << timer->nsecsElapsed() / 1000;
            delete timer;
            ++scrapes;
            if (reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt() != 200)
                ++scrapeErrors;
            reply->deleteLater();
        });
    });

    const ProcSample start = sampleProcess(pid);
    const qint64 pushesAtStart = pushes;
    QElapsedTimer wall;
    wall.start();
    scraper.start();
    qint64 peakRss = start.rssKb;
    while (wall.elapsed() < seconds * 1000LL) {
        QTest::qWait(1000);
        peakRss = std::max(peakRss, sampleProcess(pid).rssKb);
    }
    scraper.stop();
    QTest::qWait(500);
    const ProcSample end = sampleProcess(pid);
    const double elapsed = double(wall.elapsed()) / 1000.0;
    int open = 0;
    for (const auto& s : sockets)
        open += s->state() == QAbstractSocket::ConnectedState ? 1 : 0;
    std::sort(latencies.begin(), latencies.end());
    auto pct = [&](double p) {
        return latencies.isEmpty() ? 0.0 : double(latencies.at(int(p * (latencies.size() - 1)))) / 1000.0;
    };

    printf("web load: %d WebSocket clients (%d still open), /metrics at %d/s, %.1f s, sampler every 1 s, "
           "SQLite 10k events\n",
           clientCount, open, rate, elapsed);
    printf("  scrapes %lld (%.1f/s, %lld errors), latency p50 %.2f ms, p99 %.2f ms\n", scrapes,
           double(scrapes) / elapsed, scrapeErrors, pct(0.5), pct(0.99));
    printf("  pushes received %lld (%.1f per client per s)\n", pushes - pushesAtStart,
           double(pushes - pushesAtStart) / std::max(1, clientCount) / elapsed);
    printf("  server CPU %.1f%% of one core (%.2f s over %.1f s)\n",
           100.0 * (end.cpuSeconds - start.cpuSeconds) / elapsed, end.cpuSeconds - start.cpuSeconds, elapsed);
    printf("  server RSS idle %lld KiB, under load %lld KiB, peak %lld KiB\n", idle.rssKb, end.rssKb,
           peakRss);
    fflush(stdout);
    test::terminateAndWait(*server.process);
    return scrapeErrors == 0 && open == clientCount ? 0 : 1;
}
