// The dashboard's history ring (ui/web/live/SnapshotHistory): the last 15 minutes of chart points,
// bounded in points and bytes whatever the tick rate and however large a snapshot is.
#include "ui/web/live/SnapshotHistory.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

using namespace outbox::web;

namespace {

QJsonObject snapshot(qint64 n, int holders = 2, int relays = 0)
{
    QJsonArray leaseHolders;
    for (int i = 0; i < holders; ++i)
        leaseHolders.append(QJsonObject{{QStringLiteral("worker_id"), QStringLiteral("relay-%1").arg(i)},
                                        {QStringLiteral("sending"), qint64(i)},
                                        {QStringLiteral("expired"), 0}});
    QJsonArray relayArray;
    for (int i = 0; i < relays; ++i)
        relayArray.append(QJsonObject{{QStringLiteral("worker_id"), QStringLiteral("relay-%1").arg(i)},
                                      {QStringLiteral("last_error"), QString(2000, QLatin1Char('x'))}});
    return QJsonObject{
        {QStringLiteral("taken_at"), QStringLiteral("2026-12-03T12:00:00.000Z")},
        {QStringLiteral("events"), QJsonObject{{QStringLiteral("PENDING"), n}, {QStringLiteral("SENT"), 7}}},
        {QStringLiteral("relay_sent_total"), n * 10},
        {QStringLiteral("oldest_pending_age_seconds"), 1.5},
        {QStringLiteral("lease_holders"), leaseHolders},
        {QStringLiteral("relays"), relayArray},
    };
}

QJsonArray points(const SnapshotHistory& h, qint64 nowMs)
{
    const QJsonObject o = QJsonDocument::fromJson(h.message(nowMs)).object();
    return o.value(QStringLiteral("points")).toArray();
}

} // namespace

class TestSnapshotHistory : public QObject
{
    Q_OBJECT

private slots:
    // A sampler ticking every 10 ms for an hour: 360,000 snapshots, never more than the window's
    // points, all of them within the last 15 minutes, spaced by at least window / points.
    void boundedWhateverTheTickRate()
    {
        SnapshotHistory h;
        const qint64 hour = 3600 * 1000;
        int largest = 0;
        for (qint64 t = 0; t <= hour; t += 10) {
            h.add(snapshot(t / 10), t);
            largest = std::max(largest, h.size());
        }
        QVERIFY2(largest <= SnapshotHistory::DefaultMaxPoints + 1, qPrintable(QString::number(largest)));
        QVERIFY(h.size() >= SnapshotHistory::DefaultMaxPoints - 1);
        QVERIFY(h.bytes() <= SnapshotHistory::DefaultMaxBytes);
        QVERIFY(hour - h.oldestAtMs() <= SnapshotHistory::DefaultWindowMs);
        const QJsonArray p = points(h, hour);
        QCOMPARE(p.size(), h.size());
        // Oldest first, the newest one the last snapshot kept.
        QVERIFY(p.first().toObject().value(QStringLiteral("relay_sent_total")).toInteger() <
                p.last().toObject().value(QStringLiteral("relay_sent_total")).toInteger());
        QCOMPARE(
            p.last().toObject().value(QStringLiteral("events")).toObject().value(QStringLiteral("PENDING")),
            QJsonValue(qint64(hour / 10)));
    }

    // A slow sampler (one tick a minute): every tick is kept, and only the last 15 minutes.
    void keepsOnlyTheWindow()
    {
        SnapshotHistory h;
        for (qint64 minute = 0; minute <= 60; ++minute)
            QVERIFY(h.add(snapshot(minute), minute * 60000));
        QCOMPARE(h.size(), 16); // minutes 45..60
        QCOMPARE(points(h, 60 * 60000).first().toObject().value(QStringLiteral("relay_sent_total")),
                 QJsonValue(qint64(450)));
        // The sampler stopped: ten minutes later only the last five minutes are handed out, and
        // nothing after 15 minutes of silence.
        QCOMPARE(points(h, 70 * 60000).size(), 6);
        QCOMPARE(points(h, 80 * 60000).size(), 0);
    }

    // Points carry only what the charts draw: a snapshot with a hundred relays and long error
    // texts stays small, with the largest lease holders, and the ring's bytes stay capped.
    void pointsStaySmall()
    {
        const QJsonObject point = SnapshotHistory::chartPoint(snapshot(5, 100, 100));
        QVERIFY(!point.contains(QStringLiteral("relays")));
        const QJsonArray holders = point.value(QStringLiteral("lease_holders")).toArray();
        QCOMPARE(holders.size(), SnapshotHistory::MaxHoldersPerPoint);
        QCOMPARE(holders.first().toObject().value(QStringLiteral("worker_id")).toString(),
                 QStringLiteral("relay-99"));
        QVERIFY(QJsonDocument(point).toJson(QJsonDocument::Compact).size() < 2000);

        SnapshotHistory small(15 * 60 * 1000, 450, 8 * 1024);
        for (qint64 t = 0; t < 900000; t += 2000)
            small.add(snapshot(t, 100, 100), t);
        QVERIFY(small.bytes() <= 8 * 1024);
        QVERIFY(small.size() > 0);
        QVERIFY(small.message(900000).size() <= 8 * 1024 + 100);
    }
};

QTEST_GUILESS_MAIN(TestSnapshotHistory)
#include "tst_snapshothistory.moc"
