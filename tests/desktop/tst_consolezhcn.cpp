// Issue 40 item 8: the console in zh_CN beyond the Recovery page (tst_recoveryzhcn): Qt's own texts
// (the file dialog, standard buttons) from qtbase's catalogue as outbox-console loads it, the
// dead-letter error classes and the Connect dialog's "cannot connect". Real clicks on the real
// MainWindow; a text in English outside the database's own words fails.
#include "core/db/DeadLetterStore.h"
#include "tests/support/TestDatabases.h"
#include "tests/support/WidgetFinder.h"
#include "ui/desktop/MainWindow.h"
#include "ui/desktop/deadletters/DeadLettersPage.h"

#include <QAbstractButton>
#include <QAction>
#include <QApplication>
#include <QDialog>
#include <QFileDialog>
#include <QLabel>
#include <QLibraryInfo>
#include <QLineEdit>
#include <QMenu>
#include <QMenuBar>
#include <QPushButton>
#include <QRegularExpression>
#include <QSettings>
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

QAction* menuAction(MainWindow& window, const QString& text)
{
    for (QAction* menu : window.menuBar()->actions())
        if (menu->menu())
            for (QAction* a : menu->menu()->actions())
                if (a->text() == text)
                    return a;
    qWarning("no menu action %s", qPrintable(text));
    return nullptr;
}

template <typename T> T* waitForTopLevel(const QString& name)
{
    T* found = nullptr;
    (void)QTest::qWaitFor(
        [&]() {
            for (QWidget* w : QApplication::topLevelWidgets())
                if (w->objectName() == name && w->isVisible())
                    found = qobject_cast<T*>(w);
            return found != nullptr;
        },
        10000);
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
        QVERIFY(m_console.load(QStringLiteral(OUTBOX_QM_DIR "/outbox_console_zh_CN.qm")));
        QVERIFY(m_core.load(QStringLiteral(OUTBOX_QM_DIR "/outbox_core_zh_CN.qm")));
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

    // The check above can fail.
    void anEnglishTextIsReported()
    {
        QVERIFY(looksEnglish(QStringLiteral("Look in:")));
        QVERIFY(looksEnglish(QStringLiteral("Cancel")));
        QVERIFY(looksEnglish(QStringLiteral("permanent")));
        QVERIFY(!looksEnglish(QStringLiteral("取消")));
        QVERIFY(!looksEnglish(QStringLiteral("unknown SKU SKU-1"), {QStringLiteral("unknown SKU SKU-1")}));
    }

private:
    QTranslator m_console;
    QTranslator m_core;
    QTranslator m_qt;
};

QTEST_MAIN(TestConsoleZhCn)
#include "tst_consolezhcn.moc"
