// Finding titles quote error texts shortened to a length: cut after a whole word, never inside one
// (issue 36 M2: "the finding title is cut mid-word").
#include "core/support/TextClip.h"

#include <QTest>

using namespace outbox;

class TestTextClip : public QObject
{
    Q_OBJECT

private slots:
    void clips_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<int>("max");
        QTest::addColumn<QString>("expected");
        const QString e(QChar(0x2026));
        QTest::newRow("fits") << QStringLiteral("short text") << 20 << QStringLiteral("short text");
        QTest::newRow("exactly") << QStringLiteral("0123456789") << 10 << QStringLiteral("0123456789");
        QTest::newRow("at a word") << QStringLiteral("no queue is bound to exchange") << 20
                                   << QStringLiteral("no queue is bound") + e;
        QTest::newRow("no dangling colon") << QStringLiteral("NO_ROUTE (312): RabbitMQ took the message")
                                           << 18 << QStringLiteral("NO_ROUTE (312)") + e;
        QTest::newRow("one long word")
            << QStringLiteral("abcdefghijklmnopqrstuvwxyz") << 10 << QStringLiteral("abcdefghi") + e;
        QTest::newRow("surrogate pair kept whole")
            << QStringLiteral("aaaaaaaa\U0001F600bbbb") << 10 << QStringLiteral("aaaaaaaa") + e;
    }
    void clips()
    {
        QFETCH(QString, text);
        QFETCH(int, max);
        QFETCH(QString, expected);
        const QString clipped = clipAtWord(text, max);
        QCOMPARE(clipped, expected);
        QVERIFY(clipped.size() <= max);
    }
};

QTEST_GUILESS_MAIN(TestTextClip)
#include "tst_textclip.moc"
