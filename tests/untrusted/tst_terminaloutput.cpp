// What the real `outboxctl` writes to a terminal and to the journal (issue 38 item 5): database
// text holding terminal escapes (ESC, BEL, C1, a lone CR, bidi overrides) never reaches the bytes of
// any human output, CSV to a terminal included; a password in a database or broker URL never
// appears in an error message, whatever the URL's shape.
#include "tests/support/OutboxctlProcess.h"
#include "tests/support/TestDatabases.h"

#include <QTest>

using namespace outbox;
using namespace outbox::test;

namespace {

// ESC sequences that retitle the terminal, write the clipboard and recolour; BEL; a C1 CSI; a lone
// CR that would overwrite the line; a right-to-left override.
const QString Hostile = QStringLiteral("x\x1b]0;pwned\x07\x1b]52;c;cm0gLXJm\x1b\\\x1b[31mred\rFAKE") +
                        QChar(0x9b) + QStringLiteral("2J") + QChar(0x202e) + QStringLiteral("evil");

// The bytes a terminal would interpret: ESC, BEL, a C1 control in UTF-8, a CR not before LF, the
// bidi override. Empty when there is none; else where and what.
QString interpreted(const QByteArray& bytes)
{
    const QString text = QString::fromUtf8(bytes);
    for (qsizetype i = 0; i < text.size(); ++i) {
        const char16_t c = text.at(i).unicode();
        // A CR before the line feed (a CSV line's end; a terminal's own CR LF after it).
        qsizetype next = i;
        while (next < text.size() && text.at(next) == u'\r')
            ++next;
        const bool lineEnd = c == u'\r' && next < text.size() && text.at(next) == u'\n';
        if ((c < 0x20 && c != u'\n' && c != u'\t' && !lineEnd) || c == 0x7f || (c >= 0x80 && c < 0xa0) ||
            c == 0x202e)
            return QStringLiteral("U+%1 at %2 in: %3")
                .arg(int(c), 4, 16, QLatin1Char('0'))
                .arg(i)
                .arg(QString::fromLatin1(bytes.left(600).toPercentEncoding(" \n:/{}\",=[]()*#.")));
    }
    return {};
}

} // namespace

class TestTerminalOutput : public QObject
{
    Q_OBJECT

private slots:
    void databaseTextNeverReachesTheTerminalRaw()
    {
        QVERIFY2(!qEnvironmentVariable("OUTBOXCTL").isEmpty(), "OUTBOXCTL must point at the binary");
        auto db = TestDatabases::fresh(QStringLiteral("sqlite"), QStringLiteral("terminaloutput"));
        const QString url = TestDatabases::urlText(db->url());
        const auto ids = insertEvents(*db, 2);
        forceStatus(*db, ids, QStringLiteral("FAILED"), Hostile);
        exec(*db, QStringLiteral("UPDATE {events} SET topic = :h, aggregate_id = :h"),
             {{QStringLiteral(":h"), Hostile}});
        exec(*db,
             QStringLiteral(
                 "INSERT INTO {dead_letters} (consumer_name, event_id, topic, message_key, payload, "
                 "error, stacktrace) VALUES (:h, :h, :h, :h, :p, :h, :h)"),
             {{QStringLiteral(":h"), Hostile},
              {QStringLiteral(":p"), QStringLiteral("{\"note\": \"%1\"}").arg(Hostile)}});
        exec(*db,
             QStringLiteral("INSERT INTO {inbox} (event_id, consumer_name, status, attempts, last_error) "
                            "VALUES (:h, :h, 'FAILED', 1, :h)"),
             {{QStringLiteral(":h"), Hostile}});
        exec(*db,
             QStringLiteral("INSERT INTO {audit} (actor, host, action, target_kind, reason, outcome) "
                            "VALUES (:h, :h, 'requeue', 'events', :h, 'ok')"),
             {{QStringLiteral(":h"), Hostile}});
        const qint64 letter = countRows(*db, QStringLiteral("{dead_letters}"));

        const QList<QStringList> commands = {
            {QStringLiteral("dlq"), QStringLiteral("show"), QString::number(letter)},
            {QStringLiteral("dlq"), QStringLiteral("list")},
            {QStringLiteral("dlq"), QStringLiteral("groups")},
            {QStringLiteral("audit"), QStringLiteral("list")},
            {QStringLiteral("audit"), QStringLiteral("list"), QStringLiteral("--csv")},
            {QStringLiteral("events"), QStringLiteral("list")},
            {QStringLiteral("events"), QStringLiteral("show"), QString::number(ids.first())},
            {QStringLiteral("trace"), QString::number(ids.first())},
            {QStringLiteral("inbox"), QStringLiteral("list")},
            {QStringLiteral("status")},
        };
        int escaped = 0; // outputs showing the escapes visibly: the text was there
        for (const QStringList& command : commands) {
            for (const bool terminal : {false, true}) {
                OutboxctlOptions options;
                options.onTerminal = terminal;
                const auto run = runOutboxctl(command + QStringList{QStringLiteral("--db"), url}, options);
                const QString what = command.join(QLatin1Char(' ')) +
                                     (terminal ? QStringLiteral(" (terminal)") : QStringLiteral(" (pipe)"));
                QVERIFY2(run.exitCode == 0,
                         qPrintable(what + QLatin1Char(' ') + QString::fromUtf8(run.err + run.out)));
                const QString out = interpreted(run.out);
                QVERIFY2(out.isEmpty(), qPrintable(what + QStringLiteral(": stdout ") + out));
                const QString err = interpreted(run.err);
                QVERIFY2(err.isEmpty(), qPrintable(what + QStringLiteral(": stderr ") + err));
                escaped += run.out.contains("\\e]0;pwned") ? 1 : 0;
            }
        }
        QVERIFY2(escaped >= 10, qPrintable(QString::number(escaped)));
        // JSON output keeps the text exactly (its encoder escapes control characters).
        const auto json =
            runOutboxctl({QStringLiteral("dlq"), QStringLiteral("show"), QString::number(letter),
                          QStringLiteral("--json"), QStringLiteral("--db"), url});
        QCOMPARE(json.exitCode, 0);
        QCOMPARE(json.json().value(QStringLiteral("error")).toString(), Hostile);
    }

    // A password never in an error message, whatever the URL's shape: typos, the password as an
    // option, inside another option's value, an '@' too many.
    void passwordsNeverEchoed_data()
    {
        QTest::addColumn<QString>("variable");
        QTest::addColumn<QString>("url");
        const auto db = [](const char* name, const char* url) {
            QTest::newRow(name) << QStringLiteral("OUTBOX_DB_URL") << QString::fromUtf8(url);
        };
        const auto broker = [](const char* name, const char* url) {
            QTest::newRow(name) << QStringLiteral("OUTBOX_BROKER_URL") << QString::fromUtf8(url);
        };
        db("db bad port", "postgresql://app:Sekr3tPw@127.0.0.1:54x32/orders");
        db("db two @", "postgresql://app:Sekr3tPw@@127.0.0.1:1/orders");
        db("db @ in password", "postgresql://app:Sekr3t@Pw@127.0.0.1:54x32/orders");
        db("db ?password=", "postgresql://app@127.0.0.1:1/orders?password=Sekr3tPw");
        db("db password in application_name",
           "postgresql://app@127.0.0.1:1/orders?application_name=x%20password%3DSekr3tPw");
        db("db space in host", "postgresql://app:Sekr3tPw@local host/orders");
        db("mysql bad option", "mysql://app:Sekr3tPw@127.0.0.1:1/orders?passwd=Sekr3tPw");
        db("db no scheme", "app:Sekr3tPw@127.0.0.1/orders");
        broker("amqp bad port", "amqp://app:Sekr3tPw@127.0.0.1:56x72/vh");
        broker("amqp two @", "amqp://app:Sekr3tPw@@127.0.0.1/vh");
        broker("amqp query", "amqp://app@127.0.0.1/vh?password=Sekr3tPw");
        broker("amqp typo scheme", "amqq://app:Sekr3tPw@127.0.0.1/vh");
        broker("kafka with user", "kafka://app:Sekr3tPw@127.0.0.1:9092");
    }
    void passwordsNeverEchoed()
    {
        QFETCH(QString, variable);
        QFETCH(QString, url);
        auto db = TestDatabases::fresh(QStringLiteral("sqlite"), QStringLiteral("terminalpasswords"));
        QProcessEnvironment env;
        env.insert(variable, url);
        QStringList args = {QStringLiteral("status")};
        if (variable == QLatin1String("OUTBOX_BROKER_URL"))
            args = {QStringLiteral("relay"), QStringLiteral("--db"), TestDatabases::urlText(db->url())};
        // A URL that parses after all makes the relay try it (logging) until it is stopped.
        OutboxctlStart start;
        start.extraEnv = env;
        start.removedVariables = {QStringLiteral("OUTBOX_DB_URL"), QStringLiteral("OUTBOX_BROKER_URL"),
                                  QStringLiteral("OUTBOX_KAFKA_BOOTSTRAP")};
        start.noInput = true;
        auto process = startOutboxctl(args, start);
        if (!process->waitForFinished(8000))
            terminateAndWait(*process);
        const QByteArray all = process->readAll(); // stdout and stderr merged
        QVERIFY2(!all.isEmpty(), "an error is expected");
        for (const QByteArray& part : {QByteArray("Sekr3t"), QByteArray("Pw@"), QByteArray("Sekr3tPw")})
            QVERIFY2(!all.contains(part), all.constData());
    }
};

QTEST_GUILESS_MAIN(TestTerminalOutput)
#include "tst_terminaloutput.moc"
