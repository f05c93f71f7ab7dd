#include "core/relay/AdaptivePoll.h"

#include <QTest>

using namespace outbox;

class TestAdaptivePoll : public QObject
{
    Q_OBJECT

private slots:
    void doublesUpToTheCeilingAndStartsOverAfterWork()
    {
        AdaptivePoll poll(10, 250);
        QCOMPARE(poll.empty(), 10);
        QCOMPARE(poll.empty(), 20);
        QCOMPARE(poll.empty(), 40);
        QCOMPARE(poll.empty(), 80);
        QCOMPARE(poll.empty(), 160);
        QCOMPARE(poll.empty(), 250);
        QCOMPARE(poll.empty(), 250);
        QCOMPARE(poll.interval(), 250);
        poll.found();
        QCOMPARE(poll.empty(), 10);
        QCOMPARE(poll.empty(), 20);
        QCOMPARE(poll.failed(), 250);
        QCOMPARE(poll.empty(), 250); // after a failure no short polls until a claim finds events
        poll.found();
        QCOMPARE(poll.empty(), 10);
    }

    // An idle relay: within the first second the interval reaches the poll interval, so that idle
    // relays cost the database about 1000 / poll_ms claims a second.
    void idleRelayReachesThePollIntervalWithinASecond()
    {
        AdaptivePoll poll(10, 250);
        int waited = 0, claims = 0;
        while (poll.interval() < 250 || claims == 0) {
            waited += poll.empty();
            ++claims;
        }
        QVERIFY2(waited <= 1000, qPrintable(QString::number(waited)));
        QVERIFY(claims <= 7);
    }

    void floorAboveTheCeilingIsTheCeiling()
    {
        AdaptivePoll poll(500, 100);
        QCOMPARE(poll.empty(), 100);
        QCOMPARE(poll.empty(), 100);
        AdaptivePoll zero(0, 100);
        QCOMPARE(zero.empty(), 1);
        QCOMPARE(zero.empty(), 2);
    }
};

QTEST_GUILESS_MAIN(TestAdaptivePoll)
#include "tst_adaptivepoll.moc"
