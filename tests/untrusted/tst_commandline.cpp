#include "core/support/CommandLine.h"

#include <QProcess>
#include <QTest>

using namespace outbox;

// Printed commands with database-derived words: what the shell passes to the program is exactly
// the argv that was meant, whatever the words hold; words that cannot be shown safely refuse.
class TestCommandLine : public QObject
{
    Q_OBJECT

    // The argv bash passes for `line` (the program replaced by printf, one word per line).
    static QStringList shellWords(const QString& line)
    {
        QProcess bash;
        const QString script =
            QStringLiteral("words() { for w in \"$@\"; do printf '%s\\0' \"$w\"; done; }; ") +
            QStringLiteral("words") + line.mid(line.indexOf(QLatin1Char(' ')));
        bash.start(QStringLiteral("bash"), {QStringLiteral("-c"), script});
        if (!bash.waitForFinished(10000))
            return {};
        QStringList words = QString::fromUtf8(bash.readAllStandardOutput()).split(QChar(0));
        words.removeLast();
        return words;
    }

private slots:
    void rendersTheIntendedArgv_data()
    {
        QTest::addColumn<QString>("word");
        QTest::newRow("plain") << QStringLiteral("relay-1");
        QTest::newRow("db option") << QStringLiteral("--db=postgresql://evil@host/x");
        QTest::newRow("yes") << QStringLiteral("--yes");
        QTest::newRow("short option") << QStringLiteral("-X");
        QTest::newRow("quote") << QStringLiteral("it's");
        QTest::newRow("command substitution") << QStringLiteral("$(touch /tmp/pwned)");
        QTest::newRow("backticks") << QStringLiteral("`id`");
        QTest::newRow("semicolon") << QStringLiteral("a; rm -rf /");
        QTest::newRow("glob") << QStringLiteral("*");
        QTest::newRow("spaces") << QStringLiteral("two words");
        QTest::newRow("unicode") << QStringLiteral("relé-ü");
        QTest::newRow("empty") << QString();
    }
    void rendersTheIntendedArgv()
    {
        QFETCH(QString, word);
        CommandLine line(QStringLiteral("outboxctl"), {QStringLiteral("relays"), QStringLiteral("forget")});
        line.option(QStringLiteral("error"), word).positional(word);
        auto text = line.render();
        QVERIFY(text.ok());
        const QStringList expected{QStringLiteral("relays"), QStringLiteral("forget"),
                                   QStringLiteral("--error=") + word, QStringLiteral("--"), word};
        QCOMPARE(line.arguments(), expected);
        QCOMPARE(shellWords(*text), expected);
    }

    void optionShapedPositionalsComeAfterDoubleDash()
    {
        auto text =
            CommandLine(QStringLiteral("outboxctl"), {QStringLiteral("relays"), QStringLiteral("forget")})
                .option(QStringLiteral("stale-after"), QStringLiteral("30"))
                .options({QStringLiteral("--db"), QStringLiteral("sqlite:///tmp/x.db")})
                .positional(QStringLiteral("--yes"))
                .render();
        QVERIFY(text.ok());
        QCOMPARE(*text, QStringLiteral(
                            "outboxctl relays forget --stale-after=30 --db sqlite:///tmp/x.db -- '--yes'"));
    }

    void refusesWordsThatCannotBeShown_data()
    {
        QTest::addColumn<QString>("word");
        QTest::newRow("newline") << QStringLiteral("a\nrm -rf ~");
        QTest::newRow("escape") << QStringLiteral("\x1b]0;title\x07");
        QTest::newRow("carriage return") << QStringLiteral("ok\rdone");
        QTest::newRow("bidi override") << QString(QChar(0x202e)) + QStringLiteral("txt.exe");
        QTest::newRow("zero width") << QStringLiteral("a") + QChar(0x200b) + QStringLiteral("b");
        QTest::newRow("line separator") << QString(QChar(0x2028));
        QTest::newRow("nul") << QString(QChar(0));
    }
    void refusesWordsThatCannotBeShown()
    {
        QFETCH(QString, word);
        QVERIFY(!CommandLine::isPrintable(word));
        QVERIFY(!CommandLine(QStringLiteral("outboxctl")).positional(word).render().ok());
        QVERIFY(
            !CommandLine(QStringLiteral("outboxctl")).option(QStringLiteral("error"), word).render().ok());
    }
};

QTEST_GUILESS_MAIN(TestCommandLine)
#include "tst_commandline.moc"
