// Issue 40 item 8: the console in zh_CN beyond the Recovery page (tst_recoveryzhcn): Qt's own texts
// (the file dialog, standard buttons) from qtbase's catalogue as outbox-console loads it, the
// dead-letter error classes, the Connect dialog's, the Fleet page's and the banner's "cannot
// connect", an event's trail and the error classes of the Recovery page's evidence. Real clicks on
// the real MainWindow; a text in English outside the database's own words fails.
#include "core/db/DeadLetterStore.h"
#include "core/db/InboxStore.h"
#include "core/ops/OperatorActions.h"
#include "tests/support/ConsoleClicks.h"
#include "tests/support/ScreenTexts.h"
#include "tests/support/TestDatabases.h"
#include "tests/support/TestPaths.h"
#include "tests/support/WidgetFinder.h"
#include "ui/desktop/MainWindow.h"
#include "ui/desktop/deadletters/DeadLettersPage.h"
#include "ui/desktop/fleet/FleetPage.h"
#include "ui/desktop/fleet/FleetTableModel.h"
#include "ui/desktop/recovery/FindingsModel.h"
#include "ui/desktop/recovery/RecoveryFlow.h"
#include "ui/desktop/recovery/RecoveryPage.h"
#include "ui/desktop/relays/ManagedRelay.h"
#include "ui/desktop/relays/RelaysPage.h"

#include <QAbstractButton>
#include <QAction>
#include <QApplication>
#include <QDialog>
#include <QFile>
#include <QFileDialog>
#include <QLabel>
#include <QLibraryInfo>
#include <QLineEdit>
#include <QListWidget>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QRegularExpression>
#include <QSet>
#include <QSettings>
#include <QStandardPaths>
#include <QSysInfo>
#include <QTabBar>
#include <QTabWidget>
#include <QTableView>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QTextDocument>
#include <QTimer>
#include <QTranslator>

using namespace outbox;
using namespace outbox::desktop;
using namespace outbox::test;

namespace {

// English left in `text`: two or more Latin words in a row and no Chinese at all.
bool looksEnglish(QString text, const QStringList& data = {})
{
    static const QRegularExpression han(QStringLiteral("[\\x{4e00}-\\x{9fff}]"));
    static const QRegularExpression words(
        QStringLiteral("[A-Za-z]{2,}[ ,:]*[A-Za-z]{2,}|^[A-Za-z]{3,}[.:…]*$"));
    for (const QString& d : data)
        text.remove(d);
    text.remove(QLatin1Char('&'));
    text = text.trimmed();
    if (text.contains(han))
        return false;
    return text.contains(words);
}

// The visible labels and buttons of a window.
QStringList englishTexts(QWidget* root, const QStringList& data = {})
{
    QStringList english;
    for (QLabel* w : root->findChildren<QLabel*>())
        if (w->isVisibleTo(root) && looksEnglish(w->text(), data))
            english << w->text();
    for (QAbstractButton* w : root->findChildren<QAbstractButton*>())
        if (w->isVisibleTo(root) && looksEnglish(w->text(), data))
            english << w->text();
    return english;
}

// The Latin words (three letters or more) left in `text` once the database's words (`data`) are
// taken out: in a Chinese sentence about data, none.
QStringList latinWords(QString text, const QStringList& data)
{
    static const QRegularExpression word(QStringLiteral("[A-Za-z]{3,}"));
    for (const QString& d : data)
        text.remove(d);
    QStringList found;
    for (auto it = word.globalMatch(text); it.hasNext();)
        found << it.next().captured();
    return found;
}

} // namespace

class TestConsoleZhCn : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QCoreApplication::setOrganizationName(QStringLiteral("OutboxConsoleZhCnTest"));
        QStandardPaths::setTestModeEnabled(true);
        QSettings().clear();
        QLocale::setDefault(QLocale(QLocale::Chinese, QLocale::China));
        // As outbox-console's main() loads them: its own, core's and Qt's (qtbase) catalogues.
        QVERIFY(m_console.load(outbox::test::qmPath(QStringLiteral("outbox_console_zh_CN.qm"))));
        QVERIFY(m_core.load(outbox::test::qmPath(QStringLiteral("outbox_core_zh_CN.qm"))));
        QVERIFY2(
            m_qt.load(QLocale(), QStringLiteral("qtbase"), QStringLiteral("_"),
                      QLibraryInfo::path(QLibraryInfo::TranslationsPath)),
            "qtbase_zh_CN.qm is not installed (Debian: qt6-translations-l10n, installer/install-deps.sh)");
        for (QTranslator* t : {&m_qt, &m_core, &m_console})
            QCoreApplication::installTranslator(t);
    }

    // File › Open fleet file…: Qt's file dialog with Chinese labels and buttons.
    void fileDialogIsChinese()
    {
        MainWindow window;
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QAction* open = nullptr;
        for (QAction* menu : window.menuBar()->actions())
            if (menu->menu())
                for (QAction* a : menu->menu()->actions())
                    if (a->objectName() == QLatin1String("openFleetAction"))
                        open = a;
        QVERIFY(open);
        open->trigger();
        auto* dialog = waitForTopLevel<QFileDialog>(QStringLiteral("openFleetDialog"));
        QVERIFY(dialog);
        const QStringList english = englishTexts(dialog);
        QVERIFY2(english.isEmpty(), qPrintable(english.join(QStringLiteral(" | "))));
        dialog->reject();
    }

    // Dead letters › Groups…: the class column and Qt's Close button in Chinese; the consumer's
    // error text is the database's and stays as it is.
    void deadLetterGroupsAreChinese()
    {
        auto db = TestDatabases::fresh(QStringLiteral("sqlite"),
                                       TestDatabases::uniqueName(QStringLiteral("zhdlq")));
        const QString error = QStringLiteral("unknown SKU SKU-1");
        DeadLetter letter;
        letter.consumerName = QStringLiteral("inventory");
        letter.eventId = QStringLiteral("ev-1");
        letter.topic = QStringLiteral("Order");
        letter.payload = "{}";
        letter.error = error;
        QVERIFY(DeadLetterStore(*db).insert(letter).ok());
        MainWindow window;
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY(window.connectToText(TestDatabases::urlText(db->url())));
        QTRY_VERIFY_WITH_TIMEOUT(window.snapshotsSeen() > 0, 10000);
        QTabBar* tabs = window.pages()->tabBar();
        QTest::mouseClick(tabs, Qt::LeftButton, {},
                          tabs->tabRect(window.pages()->indexOf(window.deadLetters())).center());
        QTest::mouseClick(child<QPushButton>(&window, "groupsButton"), Qt::LeftButton);
        auto* dialog = waitForTopLevel<QDialog>(QStringLiteral("dlqGroupsDialog"));
        QVERIFY(dialog);
        auto* table = child<QTableView>(dialog, "dlqGroupsTable");
        QTRY_COMPARE_WITH_TIMEOUT(table->model()->rowCount(), 1, 10000);
        // The consumer's words, its name and their fingerprint (digits as <n>) are the database's.
        const QStringList data{error, QStringLiteral("unknown SKU SKU-<n>"), QStringLiteral("inventory")};
        QStringList english;
        for (int c = 0; c < table->model()->columnCount(); ++c) {
            const QString header = table->model()->headerData(c, Qt::Horizontal).toString();
            const QString cell = table->model()->index(0, c).data().toString();
            for (const QString& text : {header, cell})
                if (looksEnglish(text, data))
                    english << text;
        }
        english << englishTexts(dialog, data);
        QVERIFY2(english.isEmpty(), qPrintable(english.join(QStringLiteral(" | "))));
        dialog->reject();
    }

    // Connection › Connect… to a server that refuses the connection: the sentence is Chinese, the
    // URL and the driver's own words are shown as they are.
    void cannotConnectIsChinese()
    {
        MainWindow window;
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        menuAction(window, MainWindow::tr("&Connect…"))->trigger();
        auto* dialog = waitForTopLevel<QDialog>(QStringLiteral("connectDialog"));
        QVERIFY(dialog);
        const QString url = QStringLiteral("mysql://outbox@127.0.0.1:1/outbox");
        QTest::keyClicks(child<QLineEdit>(dialog, "profileUrl"), url);
        QTest::mouseClick(child<QPushButton>(dialog, "connectButton"), Qt::LeftButton);
        auto* error = child<QLabel>(dialog, "connectError");
        QTRY_VERIFY_WITH_TIMEOUT(error->isVisible() && !error->text().isEmpty(), 15000);
        const QString text = error->text();
        QVERIFY2(text.startsWith(QStringLiteral("无法连接到 ")), qPrintable(text));
        QVERIFY2(text.contains(url), qPrintable(text));
        QVERIFY2(!text.contains(QStringLiteral("annot connect")), qPrintable(text));
        dialog->reject();
    }

    // A URL the console cannot use: the Connect dialog says why in Chinese (core's DatabaseUrl).
    void invalidUrlIsChinese()
    {
        MainWindow window;
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        menuAction(window, MainWindow::tr("&Connect…"))->trigger();
        QDialog* dialog = nullptr; // this window's (another test's may wait for its deletion)
        QTRY_VERIFY((dialog = window.findChild<QDialog*>(QStringLiteral("connectDialog"))) &&
                    dialog->isVisible());
        auto* field = child<QLineEdit>(dialog, "profileUrl");
        auto* error = child<QLabel>(dialog, "connectError");
        QVERIFY(field && error);
        const QList<QPair<QString, QString>> cases{
            {QStringLiteral("redis://outbox@db/outbox"),
             QStringLiteral("未知的协议“redis”（应为 postgresql、mysql 或 sqlite）")},
            {QStringLiteral("mysql://outbox@db/shop/outbox"), QStringLiteral("路径中应恰好有一个数据库名")},
            // QUrl's own English errors, said in core's words.
            {QStringLiteral("postgresql://outbox@db:99999/outbox"), QStringLiteral("无效的端口")},
            {QStringLiteral("postgresql://out box@db/outbox"),
             QStringLiteral("用户名含有 URL 中不允许的字符")}};
        for (const auto& [url, expected] : cases) {
            field->clear();
            QTest::keyClicks(field, url);
            QTest::mouseClick(child<QPushButton>(dialog, "connectButton"), Qt::LeftButton);
            QTRY_VERIFY_WITH_TIMEOUT(error->isVisible() && error->text().contains(url), 15000);
            const QString text = error->text();
            QVERIFY2(text.contains(QStringLiteral("无效的数据库 URL")) && text.contains(expected),
                     qPrintable(text));
            QVERIFY2(latinWords(text, {url, QStringLiteral("URL"), QStringLiteral("redis"),
                                       QStringLiteral("postgresql"), QStringLiteral("mysql"),
                                       QStringLiteral("sqlite"), QStringLiteral("SQLite")})
                         .isEmpty(),
                     qPrintable(text));
        }
        dialog->reject();
    }

    // Recovery › a failure group: its error class is a word of the console ("确定性"), and the
    // sample event's Trail tab reads in Chinese: created, claims, last error (its class translated),
    // the operator's requeue, a consumer's inbox row and dead letter. The relay's error, names,
    // statuses, the action's name, the reason and the times are the database's words.
    void trailAndErrorClassesAreChinese()
    {
        auto db = TestDatabases::fresh(QStringLiteral("sqlite"),
                                       TestDatabases::uniqueName(QStringLiteral("zhtrail")));
        const QString error = QStringLiteral("Broker: Topic authorization failed");
        const QVector<qint64> ids = insertEvents(*db, 1);
        const qint64 id = ids.first();
        // An operator requeued it once (an audit row), then it failed again for good.
        ActionRequest requeue;
        requeue.ids = {id};
        requeue.reason = QStringLiteral("INC-7 retry");
        requeue.actor = QStringLiteral("alice");
        forceStatus(*db, ids, QStringLiteral("FAILED"), error);
        auto requeued = OperatorActions(*db).requeue(requeue);
        QVERIFY2(requeued.ok() && requeued->affected == 1, qPrintable(requeued.message()));
        forceStatus(*db, ids, QStringLiteral("FAILED"), error);
        exec(*db,
             QStringLiteral("UPDATE {events} SET last_error_class = 'deterministic', attempts = 3, "
                            "worker_id = 'relay-a' WHERE id = :id"),
             {{QStringLiteral(":id"), id}});
        auto q = db->exec(QStringLiteral("SELECT event_id FROM {events} WHERE id = :id"),
                          {{QStringLiteral(":id"), id}});
        QVERIFY(q.ok() && q->next());
        const QString eventId = q->value(0).toString();
        QVERIFY(InboxStore(*db).recordProcessed(eventId, QStringLiteral("billing"), QString(), 1).ok());
        DeadLetter letter;
        letter.consumerName = QStringLiteral("inventory");
        letter.eventId = eventId;
        letter.topic = QStringLiteral("Order");
        letter.payload = "{}";
        letter.error = QStringLiteral("unknown SKU SKU-1");
        QVERIFY(DeadLetterStore(*db).insert(letter).ok());

        MainWindow window;
        window.resize(1280, 800);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY(window.connectToText(TestDatabases::urlText(db->url())));
        QVERIFY(chooseFinding(window, QStringLiteral("failed-events")));
        RecoveryFlow* flow = window.recovery()->flow();
        const QString evidence = child<QLabel>(flow, "findingEvidence")->text();
        QVERIFY2(evidence.contains(QStringLiteral("确定性")) &&
                     !evidence.contains(QLatin1String("deterministic")),
                 qPrintable(evidence));

        // The sample (the event) opens in the inspector; its Trail tab.
        auto* samples = child<QListWidget>(flow, "findingSamples");
        QVERIFY(samples && samples->count() == 1);
        QTest::mouseClick(samples->viewport(), Qt::LeftButton, {},
                          samples->visualItemRect(samples->item(0)).center());
        QTest::mouseClick(child<QPushButton>(flow, "openSample"), Qt::LeftButton);
        auto* inspector = waitForTopLevel<QDialog>(QStringLiteral("sampleInspector"));
        QVERIFY(inspector);
        auto* trail = child<QTableWidget>(inspector, "eventTrail");
        QVERIFY(trail);
        QTRY_VERIFY_WITH_TIMEOUT(trail->rowCount() >= 6, 15000);
        const QStringList data{error,
                               QStringLiteral("unknown SKU SKU-1"),
                               eventId,
                               QStringLiteral("OrderCreated"),
                               QStringLiteral("Order/order-0"),
                               QStringLiteral("Order"),
                               QStringLiteral("relay-a"),
                               QStringLiteral("alice"),
                               QStringLiteral("@") + QSysInfo::machineHostName(),
                               QStringLiteral("INC-7 retry"),
                               QStringLiteral("events.requeue"),
                               QStringLiteral("billing"),
                               QStringLiteral("inventory"),
                               QStringLiteral("PROCESSED"),
                               QStringLiteral("FAILED")};
        QStringList english;
        QSet<QString> steps;
        for (int r = 0; r < trail->rowCount(); ++r) {
            steps << trail->item(r, 1)->data(Qt::UserRole).toString();
            for (int c = 1; c < trail->columnCount(); ++c) {
                const QString text = trail->item(r, c)->text();
                if (!latinWords(text, data).isEmpty())
                    english << text;
            }
        }
        QVERIFY2(english.isEmpty(), qPrintable(english.join(QLatin1Char('\n'))));
        for (const char* kind : {"created", "attempts", "last_error", "audit", "inbox", "dead_letter"})
            QVERIFY2(steps.contains(QLatin1String(kind)), kind);
        inspector->close();
    }

    // A fleet member that refuses connections: the Fleet page says "无法连接到" with the URL and the
    // driver's words, in the cell and its tooltip.
    void fleetCannotConnectIsChinese()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString path = dir.filePath(QStringLiteral("fleet.ini"));
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("[fleet]\ninterval = 1s\ntimeout = 2s\n[member refused]\nurl = "
                   "mysql://outbox@127.0.0.1:1/outbox\n");
        file.close();
        MainWindow window;
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY(window.openFleet(path).ok());
        QVERIFY(window.fleetPage());
        FleetTableModel* model = window.fleetPage()->model();
        QTRY_VERIFY_WITH_TIMEOUT(model->rowCount() == 1 &&
                                     !model->index(0, FleetTableModel::ErrorText).data().toString().isEmpty(),
                                 15000);
        const QString text = model->index(0, FleetTableModel::ErrorText).data().toString();
        QVERIFY2(text.startsWith(QStringLiteral("无法连接到 ")), qPrintable(text));
        QVERIFY2(!text.contains(QLatin1String("annot connect")), qPrintable(text));
        QTextDocument tip;
        tip.setHtml(model->index(0, FleetTableModel::ErrorText).data(Qt::ToolTipRole).toString());
        QVERIFY2(tip.toPlainText().contains(QStringLiteral("无法连接到 ")), qPrintable(tip.toPlainText()));
    }

    // JSON parse errors in Chinese (Qt's QJsonParseError::errorString() is English in every
    // language): the dead-letter editor's payload and headers, with line and column, and a group
    // repair's preview of a letter whose stored payload is not JSON.
    void jsonParseErrorsAreChinese()
    {
        auto db = TestDatabases::fresh(QStringLiteral("sqlite"),
                                       TestDatabases::uniqueName(QStringLiteral("zhjson")));
        const QString error = QStringLiteral("unknown SKU SKU-1");
        qint64 good = 0;
        qint64 broken = 0;
        for (const QByteArray& payload : {QByteArray("{\"sku\":\"SKU-1\"}"), QByteArray("{\"sku\": ")}) {
            DeadLetter letter;
            letter.consumerName = QStringLiteral("inventory");
            letter.eventId = QStringLiteral("ev-%1").arg(good + broken + 1);
            letter.topic = QStringLiteral("Order");
            letter.payload = payload;
            letter.error = error;
            auto id = DeadLetterStore(*db).insert(letter);
            QVERIFY(id.ok());
            (good ? broken : good) = *id;
        }
        MainWindow window;
        window.resize(1280, 800);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY(window.connectToText(TestDatabases::urlText(db->url())));
        QVERIFY(clickTab(window, window.deadLetters()));
        auto* table = child<QTableView>(&window, "deadLettersTable");
        QTRY_COMPARE_WITH_TIMEOUT(table->model()->rowCount(), 2, 10000);
        int row = -1;
        for (int r = 0; r < 2; ++r)
            if (table->model()->index(r, 0).data().toLongLong() == good)
                row = r;
        QVERIFY(row >= 0);
        QTest::mouseClick(table->viewport(), Qt::LeftButton, {},
                          table->visualRect(table->model()->index(row, 0)).center());
        QTest::mouseClick(child<QPushButton>(&window, "editButton"), Qt::LeftButton);
        auto* edit = waitForTopLevel<QDialog>(QStringLiteral("dlqEditDialog"));
        QVERIFY(edit);
        auto* payload = child<QPlainTextEdit>(edit, "dlqEditPayload");
        auto* problem = child<QLabel>(edit, "dlqEditError");
        payload->selectAll();
        QTest::keyClicks(payload, QStringLiteral("{\"sku\": \"SKU-1\","));
        QTest::keyClick(payload, Qt::Key_Return);
        QTest::keyClicks(payload, QStringLiteral("  "));
        QTest::keyClicks(child<QLineEdit>(edit, "dlqEditReason"), QStringLiteral("SKU"));
        QTest::mouseClick(child<QPushButton>(edit, "dlqEditSave"), Qt::LeftButton);
        QTRY_VERIFY(!problem->text().isEmpty());
        QVERIFY2(problem->text().startsWith(QStringLiteral("载荷不是有效的 JSON：")) &&
                     problem->text().contains(QStringLiteral("（第 2 行，第 3 列）")),
                 qPrintable(problem->text()));
        QVERIFY2(ScreenTexts::latinWords(problem->text(), {}).isEmpty(), qPrintable(problem->text()));
        payload->selectAll();
        QTest::keyClicks(payload, QStringLiteral("{\"sku\": \"SKU-2\"}"));
        auto* headers = child<QPlainTextEdit>(edit, "dlqEditHeaders");
        headers->selectAll();
        QTest::keyClicks(headers, QStringLiteral("{\"trace_id\" \"t-1\"}"));
        QTest::mouseClick(child<QPushButton>(edit, "dlqEditSave"), Qt::LeftButton);
        QTRY_VERIFY(problem->text().startsWith(QStringLiteral("消息头不是有效的 JSON：")));
        QVERIFY2(ScreenTexts::latinWords(problem->text(), {}).isEmpty(), qPrintable(problem->text()));
        edit->reject();

        // Groups… › Edit group…: the broken letter is listed unchanged, with why, in Chinese.
        QTest::mouseClick(child<QPushButton>(&window, "groupsButton"), Qt::LeftButton);
        auto* groups = waitForTopLevel<QDialog>(QStringLiteral("dlqGroupsDialog"));
        QVERIFY(groups);
        auto* groupTable = child<QTableView>(groups, "dlqGroupsTable");
        QTRY_COMPARE_WITH_TIMEOUT(groupTable->model()->rowCount(), 1, 10000);
        QTest::mouseClick(groupTable->viewport(), Qt::LeftButton, {},
                          groupTable->visualRect(groupTable->model()->index(0, 0)).center());
        QTest::mouseClick(child<QPushButton>(groups, "dlqGroupEdit"), Qt::LeftButton);
        auto* repair = waitForTopLevel<QDialog>(QStringLiteral("groupEditDialog"));
        QVERIFY(repair);
        QTest::keyClicks(child<QLineEdit>(repair, "groupEditPath"), QStringLiteral("sku"));
        QTest::keyClicks(child<QLineEdit>(repair, "groupEditTo"), QStringLiteral("\"SKU-2\""));
        QTest::mouseClick(child<QPushButton>(repair, "groupEditPreview"), Qt::LeftButton);
        auto* diffs = child<QPlainTextEdit>(repair, "groupEditDiffs");
        QTRY_VERIFY_WITH_TIMEOUT(diffs->toPlainText().contains(QLatin1Char('#') + QString::number(broken)),
                                 15000);
        const QString text = diffs->toPlainText();
        QVERIFY2(text.contains(QStringLiteral("载荷不是 JSON（")), qPrintable(text));
        QVERIFY2(ScreenTexts::latinWords(
                     text, {QStringLiteral("sku"), QStringLiteral("SKU-1"), QStringLiteral("SKU-2")})
                     .isEmpty(),
                 qPrintable(text));
        repair->close();
        groups->close();
    }

    // A fleet file the console cannot read, opened by File › Open fleet file…: Qt's warning box says
    // why in Chinese, for a syntax error (IniFile) and for a value the configuration refuses.
    void fleetFileErrorsAreChinese_data()
    {
        QTest::addColumn<QByteArray>("content");
        QTest::addColumn<QString>("expected");
        QTest::newRow("syntax") << QByteArray("[member a]\nurl = \"sqlite:///tmp/a.db\n")
                                << QStringLiteral("引号中的值没有结束");
        QTest::newRow("table prefix")
            << QByteArray("[member a]\nurl = sqlite:///tmp/a.db\ntable_prefix = Shop-\n")
            << QStringLiteral("必须以小写字母或 _ 开头");
        QTest::newRow("duration") << QByteArray(
                                         "[fleet]\ninterval = soon\n[member a]\nurl = sqlite:///tmp/a.db\n")
                                  << QStringLiteral("必须是");
    }

    void fleetFileErrorsAreChinese()
    {
        QFETCH(QByteArray, content);
        QFETCH(QString, expected);
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString path = dir.filePath(QStringLiteral("fleet.ini"));
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(content);
        file.close();
        MainWindow window;
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        menuAction(window, QStringLiteral("openFleetAction"))->trigger();
        auto* dialog = waitForTopLevel<QFileDialog>(QStringLiteral("openFleetDialog"));
        QVERIFY(dialog);
        // QMessageBox::warning runs its own event loop: it is read and closed from a timer.
        QString warning;
        QTimer poll;
        connect(&poll, &QTimer::timeout, this, [&]() {
            for (QWidget* w : QApplication::topLevelWidgets())
                if (auto* box = qobject_cast<QMessageBox*>(w); box && box->isVisible()) {
                    poll.stop();
                    warning = box->text();
                    box->done(QMessageBox::Ok);
                }
        });
        poll.start(50);
        dialog->selectFile(path); // the file, as a double click in its list chooses it
        QMetaObject::invokeMethod(dialog, "accept");
        QTRY_VERIFY_WITH_TIMEOUT(!warning.isEmpty(), 10000);
        QVERIFY2(warning.contains(expected), qPrintable(warning));
        QVERIFY2(latinWords(warning, {path, QStringLiteral("sqlite:///tmp/a.db"), QStringLiteral("Shop-"),
                                      QStringLiteral("soon"), QStringLiteral("interval"),
                                      QStringLiteral("fleet"), QStringLiteral("table_prefix")})
                     .isEmpty(),
                 qPrintable(warning));
    }

    // The managed relay's output (the child writes English log lines, for its journal) reads in
    // Chinese on the Relays page: its start line and how it wakes up.
    void managedRelayLinesAreChinese()
    {
        if (qEnvironmentVariable("OUTBOXCTL").isEmpty())
            QSKIP("OUTBOXCTL not set");
        auto db = TestDatabases::fresh(QStringLiteral("sqlite"),
                                       TestDatabases::uniqueName(QStringLiteral("zhrelaylog")));
        MainWindow window;
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY(window.connectToText(TestDatabases::urlText(db->url())));
        QTRY_VERIFY_WITH_TIMEOUT(window.snapshotsSeen() > 0, 10000);
        QVERIFY(clickTab(window, window.relays()));
        QTest::keyClicks(child<QLineEdit>(&window, "relayArguments"),
                         QStringLiteral("--kafka-bootstrap 127.0.0.1:9"));
        QTest::mouseClick(child<QPushButton>(&window, "startRelay"), Qt::LeftButton);
        auto* log = child<QPlainTextEdit>(&window, "relayLog");
        QTRY_VERIFY_WITH_TIMEOUT(log->toPlainText().contains(QStringLiteral("唤醒方式：")), 20000);
        const QString text = log->toPlainText();
        QVERIFY2(text.contains(QStringLiteral("outboxctl relay: 1 个工作者，")), qPrintable(text));
        QVERIFY2(!text.contains(QLatin1String("wake-up")) && !text.contains(QLatin1String("worker(s)")),
                 qPrintable(text));
        QTest::mouseClick(child<QPushButton>(&window, "stopRelay"), Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(!window.relays()->managedRelay()->isActive(), 20000);
    }

    // The check above can fail.
    void anEnglishTextIsReported()
    {
        QVERIFY(looksEnglish(QStringLiteral("Look in:")));
        QVERIFY(looksEnglish(QStringLiteral("Cancel")));
        QVERIFY(looksEnglish(QStringLiteral("permanent")));
        QVERIFY(!looksEnglish(QStringLiteral("取消")));
        QVERIFY(!looksEnglish(QStringLiteral("unknown SKU SKU-1"), {QStringLiteral("unknown SKU SKU-1")}));
        QCOMPARE(
            latinWords(QStringLiteral("claimed 3 time(s); status now FAILED"), {QStringLiteral("FAILED")}),
            (QStringList{QStringLiteral("claimed"), QStringLiteral("time"), QStringLiteral("status"),
                         QStringLiteral("now")}));
        QVERIFY(
            latinWords(QStringLiteral("已认领 3 次；当前状态 FAILED"), {QStringLiteral("FAILED")}).isEmpty());
    }

private:
    QTranslator m_console;
    QTranslator m_core;
    QTranslator m_qt;
};

QTEST_MAIN(TestConsoleZhCn)
#include "tst_consolezhcn.moc"
