#include "core/support/TerminalText.h"

#include <QTest>

using namespace outbox;

class TestTerminalText : public QObject
{
    Q_OBJECT

private slots:
    void escapesControlCharacters_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("shown");
        QTest::newRow("plain") << QStringLiteral("connection refused")
                               << QStringLiteral("connection refused");
        QTest::newRow("csi colour") << QStringLiteral("\x1b[31mred") << QStringLiteral("\\e[31mred");
        QTest::newRow("osc title") << QStringLiteral("\x1b]0;pwned\x07")
                                   << QStringLiteral("\\e]0;pwned\\x07");
        QTest::newRow("osc 52 clipboard")
            << QStringLiteral("\x1b]52;c;cm0gLXJm\x1b\\") << QStringLiteral("\\e]52;c;cm0gLXJm\\e\\");
        QTest::newRow("carriage return") << QStringLiteral("ok\rFAKE") << QStringLiteral("ok\\rFAKE");
        QTest::newRow("newline") << QStringLiteral("a\nb") << QStringLiteral("a\\nb");
        QTest::newRow("backspace") << QStringLiteral("a\bb") << QStringLiteral("a\\x08b");
        QTest::newRow("c1 csi") << QString(QChar(0x9b)) + QStringLiteral("2J") << QStringLiteral("\\x9b2J");
        QTest::newRow("bidi") << QString(QChar(0x202e)) << QStringLiteral("\\u202e");
        QTest::newRow("unicode text") << QStringLiteral("café 注文") << QStringLiteral("café 注文");
    }
    void escapesControlCharacters()
    {
        QFETCH(QString, text);
        QFETCH(QString, shown);
        QCOMPARE(TerminalText::escape(text), shown);
    }

    void keepsLinesWhenAsked()
    {
        QCOMPARE(TerminalText::escapeKeepingLines(QStringLiteral("at a\n\tat b\x1b[2J")),
                 QStringLiteral("at a\n\tat b\\e[2J"));
    }
};

QTEST_GUILESS_MAIN(TestTerminalText)
#include "tst_terminaltext.moc"
