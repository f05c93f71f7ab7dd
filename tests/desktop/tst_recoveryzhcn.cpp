// Issue 25 item 10: the Recovery page in zh_CN. The console's and core's catalogues are loaded as
// outbox-console loads them; findings of several kinds are chosen with clicks and every visible
// text of the page (labels, buttons, group titles, list and table cells, headers, the tab) is
// walked: a text still in English fails, and so does any lookup of the console's or core's texts
// that the catalogues do not translate (the recording translator below sees every tr() call).
#include "core/db/DeadLetterStore.h"
#include "core/db/RelayStore.h"
#include "tests/support/ConsoleClicks.h"
#include "tests/support/RecordingTranslator.h"
#include "tests/support/TestDatabases.h"
#include "tests/support/TestPaths.h"
#include "tests/support/WidgetFinder.h"
#include "ui/desktop/MainWindow.h"
#include "ui/desktop/recovery/FindingsModel.h"
#include "ui/desktop/recovery/RecoveryFlow.h"
#include "ui/desktop/recovery/RecoveryPage.h"

#include <QAbstractButton>
#include <QGroupBox>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QRegularExpression>
#include <QSet>
#include <QStandardPaths>
#include <QTabBar>
#include <QTabWidget>
#include <QTableView>
#include <QTest>
#include <QTranslator>

using namespace outbox;
using namespace outbox::desktop;
using namespace outbox::test;

namespace {

// Every text an operator sees on `root` (visible widgets only).
QStringList visibleTexts(QWidget* root)
{
    QStringList texts;
    const auto visible = [root](QWidget* w) { return w->isVisibleTo(root) && w->window()->isVisible(); };
    for (QLabel* w : root->findChildren<QLabel*>())
        if (visible(w))
            texts << w->text();
    for (QAbstractButton* w : root->findChildren<QAbstractButton*>())
        if (visible(w))
            texts << w->text();
    for (QGroupBox* w : root->findChildren<QGroupBox*>())
        if (visible(w))
            texts << w->title();
    for (QLineEdit* w : root->findChildren<QLineEdit*>())
        if (visible(w))
            texts << w->text() << w->placeholderText();
    for (QPlainTextEdit* w : root->findChildren<QPlainTextEdit*>())
        if (visible(w))
            texts << w->toPlainText();
    for (QListWidget* w : root->findChildren<QListWidget*>())
        if (visible(w))
            for (int i = 0; i < w->count(); ++i)
                texts << w->item(i)->text();
    for (QTableView* w : root->findChildren<QTableView*>()) {
        if (!visible(w) || !w->model())
            continue;
        const QAbstractItemModel* m = w->model();
        for (int c = 0; c < m->columnCount(); ++c)
            texts << m->headerData(c, Qt::Horizontal).toString();
        for (int r = 0; r < m->rowCount(); ++r)
            for (int c = 0; c < m->columnCount(); ++c)
                texts << m->index(r, c).data().toString();
    }
    texts.removeAll(QString());
    return texts;
}

// English left in `text`: two or more Latin words in a row and no Chinese at all. Commands
// (outboxctl …) and the database's own text (`data`) are shown as they are.
bool looksEnglish(QString text, const QStringList& data)
{
    static const QRegularExpression han(QStringLiteral("[\\x{4e00}-\\x{9fff}]"));
    static const QRegularExpression words(QStringLiteral("[A-Za-z]{2,}[ ,]+[A-Za-z]{2,}"));
    for (const QString& d : data)
        text.remove(d);
    text.remove(QLatin1Char('&'));
    if (text.trimmed().startsWith(QStringLiteral("outboxctl ")) || text.contains(han))
        return false;
    return text.contains(words);
}

} // namespace

class TestRecoveryZhCn : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QCoreApplication::setOrganizationName(QStringLiteral("OutboxConsoleTest"));
        QStandardPaths::setTestModeEnabled(true);
        QLocale::setDefault(QLocale(QLocale::Chinese, QLocale::China));
        QVERIFY(m_translator.load(outbox::test::qmPath()));
        QCoreApplication::installTranslator(&m_translator);
    }

    void everyVisibleTextOfTheRecoveryPageIsChinese()
    {
        auto db =
            TestDatabases::fresh(QStringLiteral("sqlite"), TestDatabases::uniqueName(QStringLiteral("zhcn")));
        const QString authorization = QStringLiteral("Broker: Topic authorization failed");
        const QString tooLarge = QStringLiteral("Broker: Message size too large");
        const QString sku = QStringLiteral("unknown SKU SKU-1");
        const auto ids = insertEvents(*db, 8);
        exec(*db,
             QStringLiteral("UPDATE {events} SET created_at = %1")
                 .arg(db->dialect().nowPlusMillis(QStringLiteral(":ms"))),
             {{QStringLiteral(":ms"), -600000}});
        forceStatus(*db, {ids.at(0), ids.at(1)}, QStringLiteral("FAILED"), authorization);
        forceStatus(*db, {ids.at(2)}, QStringLiteral("DEAD"), tooLarge);
        DeadLetter letter;
        letter.consumerName = QStringLiteral("inventory");
        letter.eventId = QStringLiteral("ev-1");
        letter.topic = QStringLiteral("Order");
        letter.payload = "{}";
        letter.error = sku;
        QVERIFY(DeadLetterStore(*db).insert(letter).ok());
        RelayRecord relay;
        relay.workerId = QStringLiteral("relay-old");
        relay.host = QStringLiteral("relay-host");
        relay.state = QStringLiteral("RUNNING");
        QVERIFY(RelayStore(*db).heartbeat(relay).ok());
        exec(*db,
             QStringLiteral("UPDATE {relays} SET heartbeat_at = %1")
                 .arg(db->dialect().nowPlusMillis(QStringLiteral(":ms"))),
             {{QStringLiteral(":ms"), -600000}});
        const QStringList data{authorization,
                               tooLarge,
                               sku,
                               QStringLiteral("topic-authorization"),
                               QStringLiteral("message-too-large"),
                               QStringLiteral("OrderCreated")};

        MainWindow window;
        window.resize(1280, 800);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY(window.connectToText(TestDatabases::urlText(db->url())));
        const int tab = window.pages()->indexOf(window.recovery());
        QTRY_VERIFY_WITH_TIMEOUT(window.pages()->tabText(tab).startsWith(QStringLiteral("故障恢复（")),
                                 20000);

        QStringList english;
        QSet<QString> kinds;
        const QStringList findingIds{QStringLiteral("no-relay"),    QStringLiteral("relay-stale"),
                                     QStringLiteral("backlog-age"), QStringLiteral("failed-events"),
                                     QStringLiteral("dead-events"), QStringLiteral("dead-letters")};
        for (const QString& id : findingIds) {
            QVERIFY2(chooseFinding(window, id), qPrintable(id));
            kinds << id;
            RecoveryFlow* flow = window.recovery()->flow();
            QTRY_VERIFY(child<QListWidget>(flow, "findingRunbook")->count() > 0);
            QStringList texts = visibleTexts(window.recovery());
            texts << window.pages()->tabText(tab);
            for (const QString& text : std::as_const(texts))
                if (looksEnglish(text, data))
                    english << id + QStringLiteral(": ") + text;
            // The preview of the first prepared action (step 2).
            auto* actions = child<QListWidget>(flow, "findingActions");
            auto* preview = child<QPushButton>(flow, "previewAction");
            if (id == QLatin1String("failed-events") && actions->count() > 0) {
                QTest::mouseClick(actions->viewport(), Qt::LeftButton, {},
                                  actions->visualItemRect(actions->item(0)).center());
                QVERIFY(preview->isEnabled());
                QTest::mouseClick(preview, Qt::LeftButton);
                QTRY_COMPARE_WITH_TIMEOUT(flow->step(), RecoveryFlow::Preview, 20000);
                for (const QString& text : visibleTexts(window.recovery()))
                    if (looksEnglish(text, data))
                        english << id + QStringLiteral(" preview: ") + text;
            }
        }
        QCOMPARE(kinds.size(), findingIds.size());
        QVERIFY2(english.isEmpty(), qPrintable(english.join(QLatin1Char('\n'))));
        const QStringList missed = m_translator.missed();
        QVERIFY2(missed.isEmpty(), qPrintable(missed.join(QLatin1Char('\n'))));
    }

    // The walk above is able to fail: English text on the page is reported.
    void anEnglishTextIsReported()
    {
        QVERIFY(looksEnglish(QStringLiteral("Why (likely causes)"), {}));
        QVERIFY(looksEnglish(QStringLiteral("Requeue the 2 FAILED event(s) of this group"), {}));
        QVERIFY(!looksEnglish(QStringLiteral("原因（可能的原因）"), {}));
        QVERIFY(!looksEnglish(QStringLiteral("outboxctl requeue --db=sqlite:///x -- 1"), {}));
        QVERIFY(!looksEnglish(QStringLiteral("Broker: Topic authorization failed"),
                              {QStringLiteral("Broker: Topic authorization failed")}));
    }

private:
    RecordingTranslator m_translator;
};

QTEST_MAIN(TestRecoveryZhCn)
#include "tst_recoveryzhcn.moc"
