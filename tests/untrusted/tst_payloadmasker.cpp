#include "core/support/PayloadMasker.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRandomGenerator>
#include <QTest>

using namespace outbox;

namespace {

// The digits of `text` in order, each as its ASCII digit (full-width and other scripts' digits
// too): what a reader could put together of a number, whatever stands between its digits.
QString digitsOf(const QString& text)
{
    QString digits;
    for (const QChar c : text)
        if (c.isDigit())
            digits += QChar(u'0' + c.digitValue());
    return digits;
}

// A random card number of `length` digits that passes the Luhn check.
QString luhnNumber(QRandomGenerator& random, int length)
{
    QString digits;
    digits += QChar(u'1' + random.bounded(9));
    while (digits.size() < length - 1)
        digits += QChar(u'0' + random.bounded(10));
    for (int check = 0; check < 10; ++check) {
        const QString candidate = digits + QChar(u'0' + check);
        int sum = 0;
        for (qsizetype i = 0; i < candidate.size(); ++i) {
            int d = candidate.at(candidate.size() - 1 - i).digitValue();
            if (i % 2 == 1)
                d = d * 2 > 9 ? d * 2 - 9 : d * 2;
            sum += d;
        }
        if (sum % 10 == 0)
            return candidate;
    }
    return {};
}

// `digits` written in another script: zero's code point in it (u'0', u'\uFF10' full-width, …).
QString inScript(const QString& digits, char16_t zero)
{
    QString out;
    for (const QChar c : digits)
        out += QChar(char16_t(zero + c.digitValue()));
    return out;
}

} // namespace

// The one masking function every front end and output uses for viewers (API, WebSocket, CSV,
// trace, jobs, failure groups): what it hides in free text and in payloads.
class TestPayloadMasker : public QObject
{
    Q_OBJECT

    static PayloadMasker masker()
    {
        return PayloadMasker({QStringLiteral("secret"), QStringLiteral("authorization"),
                              QStringLiteral("password"), QStringLiteral("card.number"),
                              QStringLiteral("headers.token")},
                             {PayloadMasker::CardNumbers, QStringLiteral("\\bIBAN [A-Z0-9 ]+")});
    }

private slots:
    void maskText_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("masked");
        const auto row = [](const char* name, const char* text, const char* masked) {
            QTest::newRow(name) << QString::fromUtf8(text) << QString::fromUtf8(masked);
        };
        // Card numbers (Luhn-checked, 13 to 19 digits, spaces or dashes between groups).
        row("visa", "card 4111111111111111 declined", "card *** declined");
        row("visa spaced", "4111 1111 1111 1111", "***");
        row("visa dashed", "pan=4111-1111-1111-1111;", "pan=***;");
        row("after an item count", "item 2 4111 1111 1111 1111", "item 2 ***");
        // Digits across the date and the card pass the check too: hidden with it.
        row("after a date", "2024-05-01 4111111111111111", "***");
        // A neighbour group that passes with part of the card is hidden too: too much, never too little.
        row("after a date, spaced", "2024-05-01 4111 1111 1111 1111 ok", "*** ok");
        row("dots", "card 4111.1111.1111.1111 declined", "card *** declined");
        row("no-break spaces", "4111\u00a01111\u00a01111\u00a01111", "***");
        row("thin spaces", "4111\u20091111\u20091111\u20091111", "***");
        row("zero-width spaces", "4111\u200b1111\u200b1111\u200b1111", "***");
        row("full-width digits",
            "\uff14\uff11\uff11\uff11\uff11\uff11\uff11\uff11\uff11\uff11\uff11\uff11"
            "\uff11\uff11\uff11\uff11",
            "***");
        // Field names without case, as escaped JSON in a text, URL-encoded.
        row("escaped json", "handler failed: {\\\"Secret\\\":\\\"hunter two\\\",\\\"a\\\":1}",
            "handler failed: {\\\"Secret\\\":***,\\\"a\\\":1}");
        row("escaped twice", "{\\\\\\\"secret\\\\\\\": \\\\\\\"hunter two\\\\\\\"}",
            "{\\\\\\\"secret\\\\\\\": ***}");
        row("url-encoded", "GET /pay?a=1&secret%3Dhunter2 HTTP", "GET /pay?a=1&secret%3D*** HTTP");
        row("url-encoded after %26", "q=a%3D1%26SECRET%3dhunter2", "q=a%3D1%26SECRET%3d***");
        row("url-encoded json", "%7B%22secret%22%3A%22hunter%20two%22%7D", "%7B%22secret%22%3A***%7D");
        row("before a count", "4111111111111111 3 items", "*** items");
        row("amex", "378282246310005", "***");
        row("mastercard", "x:5555555555554444", "x:***");
        row("discover", "6011111111111117.", "***.");
        row("two cards, comma", "4111111111111111,5555555555554444", "***,***");
        row("two cards, space", "4111111111111111 5555555555554444", "***");
        row("glued to letters", "cc#4111111111111111#", "cc#***#");
        row("trailing letters", "4111111111111111abc", "***abc");
        row("not luhn", "4111111111111113", "4111111111111113"); // nor any 13 to 15 digits in it
        row("12 digits", "411111111111", "411111111111");
        // A card glued into a longer number is found (issue 38): a long number whose digits hold a
        // Luhn-valid window is hidden whole.
        row("card inside a longer number", "ref 9912344111111111111111 ok", "ref *** ok");
        row("card inside a long id", "123411111111111111111234567890", "***");
        row("phone", "+1 555-123-4567", "+1 555-123-4567");
        row("timestamp", "2024-05-01 12:30:45.123", "2024-05-01 12:30:45.123");
        // Field names in text.
        row("name=value", "secret=hunter2", "secret=***");
        row("name: value", "secret: hunter2 rest", "secret: *** rest");
        row("json pair", "{\"secret\": \"hunter 2\", \"a\": 1}", "{\"secret\": ***, \"a\": 1}");
        row("upper case", "SECRET=hunter2", "SECRET=***");
        row("other field", "mysecret=x", "mysecret=x");
        row("query string", "secret=hunter2&next=1", "secret=***&next=1");
        row("single quoted", "password='p a s s' end", "password=*** end");
        row("bearer", "authorization=Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2ln", "authorization=***");
        row("bearer header", "Authorization: Bearer eyJhbGciOi.eyJzdWIi.sig next", "Authorization: *** next");
        row("basic", "authorization=Basic dXNlcjpwYXNz", "authorization=***");
        row("plain token", "authorization=abc123,x=1", "authorization=***,x=1");
        row("dotted path's last name", "number=4111", "number=***");
        row("configured pattern", "pay to IBAN DE44 5001", "pay to ***");
        row("nothing to hide", "connection refused", "connection refused");
        row("empty", "", "");
    }
    void maskText()
    {
        QFETCH(QString, text);
        QFETCH(QString, masked);
        QCOMPARE(masker().maskText(text), masked);
    }

    void maskValueHidesFieldsAndTexts_data()
    {
        QTest::addColumn<QByteArray>("payload");
        QTest::addColumn<QByteArray>("masked");
        QTest::newRow("nested field") << QByteArray(R"({"card":{"number":"4","exp":"12/30"}})")
                                      << QByteArray(R"({"card":{"exp":"12/30","number":"***"}})");
        QTest::newRow("arrays on the path") << QByteArray(R"({"card":[{"number":"x"},{"number":"y"}]})")
                                            << QByteArray(R"({"card":[{"number":"***"},{"number":"***"}]})");
        QTest::newRow("text in a string")
            << QByteArray(R"({"note":"secret=hunter2"})") << QByteArray(R"({"note":"secret=***"})");
        QTest::newRow("card in a string") << QByteArray(R"({"note":"item 2 4111 1111 1111 1111"})")
                                          << QByteArray(R"({"note":"item 2 ***"})");
        QTest::newRow("header-only field stays in payload")
            << QByteArray(R"({"token":"t"})") << QByteArray(R"({"token":"t"})");
        // Issue 38: keys without case, a card stored as a JSON number.
        QTest::newRow("key in capitals") << QByteArray(R"({"SECRET":"hunter2","Authorization":"Bearer x"})")
                                         << QByteArray(R"({"Authorization":"***","SECRET":"***"})");
        QTest::newRow("path in mixed case") << QByteArray(R"({"Card":{"Number":"4","exp":"1"}})")
                                            << QByteArray(R"({"Card":{"Number":"***","exp":"1"}})");
        QTest::newRow("card as a number")
            << QByteArray(R"({"pan":4111111111111111,"qty":2,"id":1234567890123})")
            << QByteArray(R"({"id":1234567890123,"pan":"***","qty":2})");
        QTest::newRow("card as a number in an array")
            << QByteArray(R"({"pans":[5555555555554444,378282246310005]})")
            << QByteArray(R"({"pans":["***","***"]})");
    }
    void maskValueHidesFieldsAndTexts()
    {
        QFETCH(QByteArray, payload);
        QFETCH(QByteArray, masked);
        const QJsonValue v = masker().maskValue(QJsonDocument::fromJson(payload).object());
        QCOMPARE(QJsonDocument(v.toObject()).toJson(QJsonDocument::Compact), masked);
    }

    void maskRowCoversEveryTextColumn()
    {
        const QJsonObject row{
            {QStringLiteral("last_error"), QStringLiteral("secret=hunter2")},
            {QStringLiteral("headers"), QJsonObject{{QStringLiteral("token"), QStringLiteral("t")}}},
            {QStringLiteral("payload"), QStringLiteral("opaque bytes")},
            {QStringLiteral("reason"), QStringLiteral("card 4111111111111111")}};
        const QJsonObject m = masker().maskRow(row);
        QCOMPARE(m.value(QStringLiteral("last_error")).toString(), QStringLiteral("secret=***"));
        QCOMPARE(m.value(QStringLiteral("headers")).toObject().value(QStringLiteral("token")).toString(),
                 PayloadMasker::Mask);
        QCOMPARE(m.value(QStringLiteral("payload")).toString(), PayloadMasker::Mask); // opaque, fields set
        QCOMPARE(m.value(QStringLiteral("reason")).toString(), QStringLiteral("card ***"));
    }

    // Issue 26: a list's preview cut inside a secret leaves a part too short for its pattern; with
    // patterns only (no fields), the viewer's preview ends before the cut word and its digits.
    void cutPreviewsEndBeforeTheCut_data()
    {
        QTest::addColumn<QString>("preview");
        QTest::addColumn<QString>("shown");
        QTest::newRow("card cut in its groups")
            << QStringLiteral("{\"note\": \"item 2 4111 1111 11") << QStringLiteral("{\"note\": \"item ");
        QTest::newRow("card cut, no spaces")
            << QStringLiteral("{\"n\":\"41111111111") << QStringLiteral("{\"n\":\"");
        QTest::newRow("dashes") << QStringLiteral("pay 4111-1111-11") << QStringLiteral("pay ");
        QTest::newRow("a word cut") << QStringLiteral("{\"a\": 1, \"b\": \"hello wor")
                                    << QStringLiteral("{\"a\": 1, \"b\": \"hello ");
        QTest::newRow("ends at a delimiter")
            << QStringLiteral("{\"a\": \"x\",") << QStringLiteral("{\"a\": \"x\",");
        QTest::newRow("token cut") << QStringLiteral("authorization=Bearer eyJhbGciOi")
                                   << QStringLiteral("authorization=Bearer ");
    }
    void cutPreviewsEndBeforeTheCut()
    {
        QFETCH(QString, preview);
        QFETCH(QString, shown);
        const PayloadMasker patternsOnly({}, {PayloadMasker::CardNumbers});
        const QJsonObject row{{QStringLiteral("payload"), QJsonValue()},
                              {QStringLiteral("payload_preview"), preview},
                              {QStringLiteral("payload_truncated"), true}};
        QCOMPARE(patternsOnly.maskRow(row).value(QStringLiteral("payload_preview")).toString(), shown);
        // A cut stack trace the same; a whole one is left as it is.
        const QJsonObject letter{{QStringLiteral("stacktrace"), preview},
                                 {QStringLiteral("stacktrace_truncated"), true}};
        QCOMPARE(patternsOnly.maskRow(letter).value(QStringLiteral("stacktrace")).toString(), shown);
        const QJsonObject whole{{QStringLiteral("stacktrace"), QStringLiteral("at frame 12")},
                                {QStringLiteral("stacktrace_truncated"), false}};
        QCOMPARE(patternsOnly.maskRow(whole).value(QStringLiteral("stacktrace")).toString(),
                 QStringLiteral("at frame 12"));
    }

    // Issue 38 item 4, as a property: generated card numbers (13 to 19 digits, Luhn-valid) in every
    // script, separator and grouping, glued into longer numbers, as JSON numbers, in escaped JSON
    // and URL-encoded: what stays never holds 8 consecutive digits of the card.
    void generatedCardVariantsAreHidden_data()
    {
        QTest::addColumn<QString>("card");
        QTest::addColumn<int>("shape");
        QTest::addColumn<QString>("text");
        const QStringList separators = {
            QStringLiteral(" "),      QStringLiteral("-"),      QStringLiteral("."),
            QStringLiteral("\u00a0"), QStringLiteral("\u2009"), QStringLiteral("\u200b"),
            QStringLiteral("\u202f"), QStringLiteral(" - "),    QString()};
        const char16_t zeros[] = {u'0', u'\uff10', u'\u0660',
                                  u'\u0966'}; // ASCII, full-width, Arabic, Devanagari
        // CARD stands for the card as written.
        const QStringList contexts = {QStringLiteral("card CARD declined"), QStringLiteral("ref 99CARD77 ok"),
                                      QStringLiteral("{\\\"pan\\\":\\\"CARD\\\"}"),
                                      QStringLiteral("GET /pay?pan%3DCARD%26x%3D1"),
                                      QStringLiteral("{\"note\": \"CARD\"}")};
        QRandomGenerator random(38); // the same rows every run
        for (int i = 0; i < 400; ++i) {
            const QString card = luhnNumber(random, 13 + random.bounded(7));
            const int shape = random.bounded(6); // 5: a JSON number
            QString written;
            const QString separator = separators.at(random.bounded(separators.size()));
            const char16_t zero = zeros[random.bounded(4)];
            for (qsizetype at = 0; at < card.size();) {
                const int group = random.bounded(2) ? 4 : 1 + random.bounded(6);
                if (at > 0)
                    written += separator;
                written += inScript(card.mid(at, group), zero);
                at += group;
            }
            const QString text =
                shape == 5 ? card : QString(contexts.at(shape)).replace(QStringLiteral("CARD"), written);
            QTest::addRow("%d %s", i, text.toUtf8().toPercentEncoding(" {}:/?=\\\"").constData())
                << card << shape << text;
        }
    }
    void generatedCardVariantsAreHidden()
    {
        QFETCH(QString, card);
        QFETCH(int, shape);
        QFETCH(QString, text);
        const PayloadMasker cards({}, {PayloadMasker::CardNumbers});
        QString shown;
        if (shape == 5) {
            const QJsonObject payload{{QStringLiteral("pan"), double(card.toLongLong())}};
            if (QString::number(qint64(payload.value(QStringLiteral("pan")).toDouble())) != card)
                QSKIP("not exactly a double"); // beyond 2^53: no JSON number holds it exactly
            shown = QString::fromUtf8(QJsonDocument(cards.maskValue(payload).toObject()).toJson());
        } else {
            shown = cards.maskText(text);
            // The same text in a payload and in a dead letter's JSON payload.
            QCOMPARE(cards.maskValue(QJsonObject{{QStringLiteral("n"), text}})
                         .toObject()
                         .value(QStringLiteral("n")),
                     QJsonValue(shown));
        }
        const QString digits = digitsOf(shown);
        for (qsizetype at = 0; at + 8 <= card.size(); ++at)
            QVERIFY2(!digits.contains(card.mid(at, 8)), qPrintable(card + QStringLiteral(" -> ") + shown));
    }

    // Field names in every case and encoding a text may carry them in.
    void generatedFieldVariantsAreHidden_data()
    {
        QTest::addColumn<QString>("value");
        QTest::addColumn<QString>("text");
        const QStringList names = {QStringLiteral("secret"), QStringLiteral("authorization"),
                                   QStringLiteral("password")};
        // NAME and VALUE stand for the field's name and its value.
        const QStringList shapes = {
            QStringLiteral("x=1 NAME=VALUE y=2"),
            QStringLiteral("{\"NAME\": \"VALUE and more\", \"y\": 2}"),
            QStringLiteral("failed: {\\\"NAME\\\":\\\"VALUE and more\\\",\\\"y\\\":2}"),
            QStringLiteral("failed: {\\\\\\\"NAME\\\\\\\":\\\\\\\"VALUE and more\\\\\\\"}"),
            QStringLiteral("GET /x?y=2&NAME%3DVALUE%26z%3D1"),
            QStringLiteral("%7B%22NAME%22%3A%22VALUE%20and%20more%22%7D"),
            QStringLiteral("NAME: Bearer VALUE\r\nHost: x"),
            QStringLiteral("'NAME': 'VALUE and more'"),
        };
        QRandomGenerator random(3838);
        for (int i = 0; i < 200; ++i) {
            QString name = names.at(random.bounded(names.size()));
            for (QChar& c : name)
                if (random.bounded(2))
                    c = c.toUpper();
            QString value = QStringLiteral("v");
            for (int k = 0; k < 10; ++k)
                value += QChar(u'a' + random.bounded(26));
            const QString text = QString(shapes.at(random.bounded(shapes.size())))
                                     .replace(QStringLiteral("NAME"), name)
                                     .replace(QStringLiteral("VALUE"), value);
            QTest::addRow("%d %s", i, text.toUtf8().toPercentEncoding(" {}:/?=\\\"'").constData())
                << value << text;
        }
    }
    void generatedFieldVariantsAreHidden()
    {
        QFETCH(QString, value);
        QFETCH(QString, text);
        const QString shown = masker().maskText(text);
        QVERIFY2(!shown.contains(value.mid(1, 6)), qPrintable(shown));
        QVERIFY2(!shown.contains(QStringLiteral("more")), qPrintable(shown)); // the rest of a quoted value
    }

    // Failure groups whose error texts differ only in a hidden value are one group for a viewer:
    // two groups with the same masked fingerprint would tell that the values differ.
    void groupsMergeOnMaskedText()
    {
        const auto group = [](const char* fingerprint, const char* example, int count, int firstId) {
            return QJsonObject{{QStringLiteral("error_class"), QStringLiteral("Broker")},
                               {QStringLiteral("fingerprint"), QString::fromUtf8(fingerprint)},
                               {QStringLiteral("example"), QString::fromUtf8(example)},
                               {QStringLiteral("count"), count},
                               {QStringLiteral("first_id"), firstId}};
        };
        const QJsonArray groups{group("refused secret=hunter2", "refused secret=hunter2", 5, 10),
                                group("timed out", "timed out", 4, 3),
                                group("refused secret=letmein", "refused secret=letmein", 3, 7)};
        const QStringList keys = {QStringLiteral("error_class"), QStringLiteral("fingerprint")};
        const QJsonArray shown = masker().maskGroups(groups, keys);
        QCOMPARE(shown.size(), 2);
        const QJsonObject merged = shown.first().toObject();
        QCOMPARE(merged.value(QStringLiteral("fingerprint")).toString(),
                 QStringLiteral("refused secret=***"));
        QCOMPARE(merged.value(QStringLiteral("example")).toString(), QStringLiteral("refused secret=***"));
        QCOMPARE(merged.value(QStringLiteral("count")).toInt(), 8);
        QCOMPARE(merged.value(QStringLiteral("first_id")).toInt(), 7);
        QCOMPARE(shown.at(1).toObject().value(QStringLiteral("count")).toInt(), 4);
        QCOMPARE(PayloadMasker().maskGroups(groups, keys), groups); // operators: as they are
    }

    void emptyMaskerChangesNothing()
    {
        const PayloadMasker none;
        QVERIFY(none.isEmpty());
        QCOMPARE(none.maskText(QStringLiteral("secret=hunter2 4111111111111111")),
                 QStringLiteral("secret=hunter2 4111111111111111"));
    }
};

QTEST_GUILESS_MAIN(TestPayloadMasker)
#include "tst_payloadmasker.moc"
