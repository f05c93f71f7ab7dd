// Issue 40 item 8 leftovers: the relay's log lines stay English where they are written (the journal's
// priority parser and an operator's grep read their words) and read in the reader's language where
// a console shows them: each line is recognised by the template it was written from, with core's
// zh_CN catalogue loaded as outbox-console loads it.
#include "core/broker/amqp/AmqpBroker.h"
#include "core/broker/kafka/KafkaProperties.h"
#include "core/relay/RelayLogText.h"
#include "tests/support/TestPaths.h"

#include <QCoreApplication>
#include <QRegularExpression>
#include <QTest>
#include <QTranslator>

using namespace outbox;

namespace {

using T = RelayLogText;

const QString Worker = QStringLiteral("2026-12-07T21:55:40.123Z relay relay-1: ");

bool hasChinese(const QString& text)
{
    static const QRegularExpression han(QStringLiteral("[\\x{4e00}-\\x{9fff}]"));
    return text.contains(han);
}

} // namespace

class TestRelayLogText : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QVERIFY(m_core.load(outbox::test::qmPath(QStringLiteral("outbox_core_zh_CN.qm"))));
        QCoreApplication::installTranslator(&m_core);
    }

    // Every template has its zh_CN translation with the same placeholders.
    void everyTemplateIsTranslated()
    {
        static const QRegularExpression placeholder(QStringLiteral("%\\d+"));
        QVERIFY(T::templates().size() > 30);
        for (const QString& t : T::templates()) {
            const QString zh = QCoreApplication::translate("outbox::RelayLogText", t.toLatin1().constData());
            QVERIFY2(zh != t && hasChinese(zh), qPrintable(t));
            QStringList want, got;
            for (auto it = placeholder.globalMatch(t); it.hasNext();)
                want << it.next().captured();
            for (auto it = placeholder.globalMatch(zh); it.hasNext();)
                got << it.next().captured();
            want.sort();
            got.sort();
            QVERIFY2(want == got, qPrintable(t + QStringLiteral(" -> ") + zh));
        }
    }

    // What a relay or consumer form refuses about its broker reads in the reader's language too.
    void brokerOptionErrorsAreChinese()
    {
        KafkaProperties kafka;
        const Status acks = kafka.set(QStringLiteral("acks"), QStringLiteral("1"));
        QVERIFY(!acks.ok());
        QCOMPARE(acks.message(), QStringLiteral("对 outbox 中继而言，acks 必须保持为 all"));
        AmqpOptions options;
        options.url.host = QStringLiteral("127.0.0.1");
        options.window = 0;
        const Status window = AmqpBroker(options).validateForRelay(30000);
        QVERIFY(!window.ok());
        QCOMPARE(window.message(), QStringLiteral("AMQP 发布窗口必须在 1 到 65535 之间"));
        QCOMPARE(window.error().subject, QStringLiteral("amqp.window"));
    }

    void linesReadInChinese_data()
    {
        QTest::addColumn<QString>("line");
        QTest::addColumn<QString>("expected");
        QTest::newRow("worker, wake-up")
            << Worker + T::english(T::WakeUpPoll).arg(250).arg(2000)
            << QStringLiteral(
                   "2026-12-07T21:55:40.123Z 中继 relay-1：唤醒方式：轮询（空闲时每 250 至 2000 毫秒一次）");
        QTest::newRow("mark failed") << Worker + T::english(T::MarkFailedLeases)
                                                     .arg(QStringLiteral("mark sent"),
                                                          QStringLiteral("database is locked"))
                                     << QStringLiteral(
                                            "2026-12-07T21:55:40.123Z 中继 relay-1：mark sent：database is "
                                            "locked（租约将到期，事件将被重新发送）");
        QTest::newRow("state change, a hung broker call")
            << Worker + T::english(T::StateChangedBecause)
                            .arg(QStringLiteral("RUNNING"), QStringLiteral("DEGRADED"),
                                 T::english(T::NoAnswerFor).arg(QStringLiteral("publish")).arg(31))
            << QStringLiteral(
                   "2026-12-07T21:55:40.123Z 中继 relay-1：状态 RUNNING -> DEGRADED：publish：31 秒无应答");
        QTest::newRow("a phrase as an argument")
            << Worker + T::english(T::AttemptsUsedUp)
                            .arg(2)
                            .arg(T::english(T::ExpiredLeases))
                            .arg(5)
                            .arg(QStringLiteral("DEAD"))
            << QStringLiteral(
                   "2026-12-07T21:55:40.123Z 中继 relay-1：2 个租约过期的事件已用完 5 次尝试：已标记为 DEAD");
        QTest::newRow("the most specific template wins")
            << Worker + T::english(T::Fenced).arg(QStringLiteral("mark sent")).arg(3)
            << QStringLiteral(
                   "2026-12-07T21:55:40.123Z 中继 relay-1：mark sent：3 个事件被隔离：它们的租约已被接管");
        QTest::newRow("outboxctl's own line")
            << QStringLiteral("outboxctl relay: ") +
                   T::english(T::StartingTables)
                       .arg(QStringLiteral("1"), QStringLiteral("sqlite:///tmp/shop.db"),
                            QStringLiteral("shop_"), QStringLiteral("Kafka 127.0.0.1:9092"))
            << QStringLiteral(
                   "outboxctl relay: 1 个工作者，sqlite:///tmp/shop.db（表 shop_*）-> Kafka 127.0.0.1:9092");
        QTest::newRow("an argument with a percent sign is kept as it is")
            << Worker + T::english(T::HeartbeatFailed).arg(QStringLiteral("disk 100% full, %1 left"))
            << QStringLiteral("2026-12-07T21:55:40.123Z 中继 relay-1：心跳失败：disk 100% full, %1 left");
        QTest::newRow("progress") << QStringLiteral("outboxctl relay: ") +
                                         T::english(T::Progress)
                                             .arg(10)
                                             .arg(2)
                                             .arg(0)
                                             .arg(0)
                                             .arg(1)
                                             .arg(0)
                                             .arg(0)
                                             .arg(0)
                                             .arg(QStringLiteral("4 ms"), QStringLiteral("9 ms"))
                                  << QStringLiteral("outboxctl relay: 已发送 10（2/秒） 失败 0 死亡 0 重试 1 "
                                                    "释放 0 隔离 0 回收 0 | 提交到确认 p50 4 ms p99 9 ms");
        // Anything else (the child's own errors, which it writes in its language) as it is.
        QTest::newRow("unknown") << QStringLiteral("outboxctl: something else happened")
                                 << QStringLiteral("outboxctl: something else happened");
        QTest::newRow("the child's error, shaped like a template")
            << QStringLiteral("outboxctl: no Kafka bootstrap servers given (--kafka-bootstrap <host:port>)")
            << QStringLiteral("outboxctl: no Kafka bootstrap servers given (--kafka-bootstrap <host:port>)");
        QTest::newRow("a bare line") << T::english(T::HeartbeatFailed).arg(QStringLiteral("timeout"))
                                     << QStringLiteral("heartbeat failed: timeout");
        QTest::newRow("command echo") << QStringLiteral("$ outboxctl relay --db sqlite:///tmp/x.db")
                                      << QStringLiteral("$ outboxctl relay --db sqlite:///tmp/x.db");
    }

    void linesReadInChinese()
    {
        QFETCH(QString, line);
        QFETCH(QString, expected);
        QCOMPARE(RelayLogText::translated(line), expected);
    }

    // The line as written stays English: the journal's priority parser reads "lost", "failed".
    void writtenLinesStayEnglish()
    {
        QCOMPARE(T::english(T::DoorbellLost).arg(QStringLiteral("x")).arg(1).arg(2),
                 QStringLiteral("doorbell lost (x): polling every 1 to 2 ms until it rings again"));
        QCoreApplication::removeTranslator(&m_core);
        const QString line = Worker + T::english(T::HeartbeatFailed).arg(QStringLiteral("timeout"));
        QCOMPARE(RelayLogText::translated(line), line);
        QCoreApplication::installTranslator(&m_core);
    }

private:
    QTranslator m_core;
};

QTEST_GUILESS_MAIN(TestRelayLogText)
#include "tst_relaylogtext.moc"
