// The fleet wall's WebSocket frames against dashboards that never read (issue 38 item 6): the real
// `outboxctl serve --fleet FILE` over 10,000 members, 40 viewer WebSockets that authenticate and
// then never read a byte. Each fleet frame is megabytes (a tile per member) and each socket keeps
// its own copy until its client reads it: the server's resident memory must stay under 300 MB
// (it reached 927 MB), and a dashboard that reads still gets the wall.
#include "tests/support/ServeProcess.h"
#include "tests/support/TestFleet.h"
#include "ui/web/http/AccessControl.h"

#include <QElapsedTimer>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTcpSocket>
#include <QTest>
#include <QWebSocket>
#include <memory>
#include <vector>

using namespace outbox;
using namespace outbox::test;

namespace {

const QByteArray ViewerSecret = "frames-viewer-secret";
constexpr int Members = 10000;
constexpr int StalledSockets = 40;

// A masked client text frame (RFC 6455: clients mask what they send).
QByteArray clientTextFrame(const QByteArray& payload)
{
    QByteArray frame;
    frame += char(0x81);
    const QByteArray key("\x11\x22\x33\x44", 4);
    if (payload.size() < 126) {
        frame += char(0x80 | payload.size());
    } else {
        frame += char(0x80 | 126);
        frame += char((payload.size() >> 8) & 0xff);
        frame += char(payload.size() & 0xff);
    }
    frame += key;
    for (qsizetype i = 0; i < payload.size(); ++i)
        frame += char(payload.at(i) ^ key.at(i % 4));
    return frame;
}

// A dashboard that opens /ws, authenticates as a viewer and never reads again: Qt stops taking
// bytes from the kernel once its 4 KiB read buffer is full, so the server's sends back up.
struct StalledDashboard
{
    QTcpSocket socket;

    explicit StalledDashboard(quint16 port)
    {
        socket.setReadBufferSize(4096);
        socket.connectToHost(QHostAddress::LocalHost, port);
        socket.waitForConnected(5000);
        socket.write("GET /ws HTTP/1.1\r\nHost: 127.0.0.1:" + QByteArray::number(port) +
                     "\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                     "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n");
        // The auth message after the server's 101, as a browser sends it (bytes sent before the
        // upgrade was answered are not the WebSocket's).
        QByteArray seen;
        while (!seen.contains("\r\n\r\n") && socket.waitForReadyRead(5000))
            seen += socket.read(4096 - seen.size());
        upgraded = seen.startsWith("HTTP/1.1 101");
        socket.write(clientTextFrame("{\"type\":\"auth\",\"token\":\"" + ViewerSecret + "\"}"));
        socket.flush();
        // Admitted: the welcome comes (then it never reads again).
        while (!seen.contains("welcome") && seen.size() < 4096 && socket.waitForReadyRead(5000))
            seen += socket.read(4096 - seen.size());
        admitted = seen.contains("welcome");
    }

    bool upgraded = false;
    bool admitted = false;
};

} // namespace

class TestFleetFrames : public QObject
{
    Q_OBJECT

private slots:
    void stalledDashboardsDoNotMultiplyFleetFrames()
    {
        QVERIFY(!qEnvironmentVariable("OUTBOXCTL").isEmpty());
        QTemporaryDir dir;
        // 10,000 members on a port where nothing listens: each is sampled (refused at once) and
        // has its tile on the wall, with its error.
        QByteArray file = "[fleet]\ninterval = 2s\ntimeout = 1s\nmax_connections = 64\n";
        for (int i = 0; i < Members; ++i)
            file += "[member member-" + QByteArray::number(i) +
                    "]\nurl = postgresql://outbox@127.0.0.1:1/orders\ntags = team=t" +
                    QByteArray::number(i % 50) + "\n";
        const QString fleet = writeTestFile(dir, QStringLiteral("fleet.ini"), file);
        ServeProcess serve;
        OutboxctlStart options;
        options.removedVariables = {QStringLiteral("OUTBOX_DB_URL")};
        QVERIFY2(serve.start("[tokens]\nnoc = viewer:" + web::AccessControl::hashToken(ViewerSecret) + "\n",
                             {QStringLiteral("--fleet"), fleet}, options),
                 serve.output.constData());
        const qint64 pid = serve.pid();

        // A reading dashboard: the first fleet frame tells how large one is.
        QWebSocket reader;
        qint64 frameBytes = 0;
        int readerFrames = 0;
        QObject::connect(&reader, &QWebSocket::textMessageReceived, [&](const QString& text) {
            if (!text.startsWith(QLatin1String("{\"type\":\"fleet\"")) &&
                QJsonDocument::fromJson(text.toUtf8()).object().value(QStringLiteral("type")).toString() !=
                    QLatin1String("fleet"))
                return;
            frameBytes = text.toUtf8().size();
            ++readerFrames;
        });
        QObject::connect(&reader, &QWebSocket::connected, [&] {
            reader.sendTextMessage(
                QStringLiteral("{\"type\":\"auth\",\"token\":\"%1\"}").arg(QString::fromUtf8(ViewerSecret)));
        });
        reader.open(QUrl(QStringLiteral("ws://127.0.0.1:%1/ws").arg(serve.port)));
        QTRY_VERIFY_WITH_TIMEOUT(readerFrames >= 1, 90000);
        const qint64 baseKb = procStatusKb(pid, "VmRSS");
        qInfo("fleet frame %lld bytes; serve at %lld KiB RSS before the stalled dashboards", frameBytes,
              baseKb);
        QVERIFY(frameBytes > 1024 * 1024); // the frame is large: what the test is about

        std::vector<std::unique_ptr<StalledDashboard>> stalled;
        for (int i = 0; i < StalledSockets; ++i) {
            stalled.push_back(std::make_unique<StalledDashboard>(serve.port));
            QVERIFY(stalled.back()->upgraded);
            QVERIFY(stalled.back()->admitted);
        }
        const int framesBefore = readerFrames;
        qint64 peakKb = 0;
        QElapsedTimer clock;
        clock.start();
        while (clock.elapsed() < 30000) { // fifteen fleet ticks
            QTest::qWait(250);
            peakKb = std::max(peakKb, procStatusKb(pid, "VmRSS"));
        }
        qInfo("serve peaked at %lld KiB RSS with %d stalled dashboards (%d frames to the reader meanwhile)",
              peakKb, StalledSockets, readerFrames - framesBefore);
        QVERIFY2(peakKb < 300 * 1024, qPrintable(QStringLiteral("peak %1 KiB").arg(peakKb)));
        // The reading dashboard kept getting the wall.
        QVERIFY2(readerFrames - framesBefore >= 5, qPrintable(QString::number(readerFrames - framesBefore)));
        stalled.clear();
        QCOMPARE(terminateAndWait(*serve.process), 0);
    }
};

QTEST_GUILESS_MAIN(TestFleetFrames)
#include "tst_fleetframes.moc"
