#include "tests/support/ConsoleClicks.h"

#include "tests/support/WidgetFinder.h"
#include "ui/desktop/MainWindow.h"
#include "ui/desktop/recovery/FindingsModel.h"
#include "ui/desktop/recovery/RecoveryFlow.h"
#include "ui/desktop/recovery/RecoveryPage.h"

#include <QAbstractButton>
#include <QAction>
#include <QLineEdit>
#include <QMenu>
#include <QMenuBar>
#include <QTabBar>
#include <QTabWidget>
#include <QTableView>

namespace outbox::test {

using desktop::FindingsModel;
using desktop::MainWindow;

bool confirmAndRun(QLineEdit* confirm, QAbstractButton* run, const QString& phrase, const QString& wrong)
{
    QTest::keyClicks(confirm, wrong);
    if (run->isEnabled()) {
        qWarning("%s is enabled before the confirmation \"%s\" is typed", qPrintable(run->objectName()),
                 qPrintable(phrase));
        return false;
    }
    confirm->clear();
    QTest::keyClicks(confirm, phrase);
    if (!run->isEnabled()) {
        qWarning("%s stays disabled with \"%s\" typed", qPrintable(run->objectName()), qPrintable(phrase));
        return false;
    }
    QTest::mouseClick(run, Qt::LeftButton);
    return true;
}

bool clickTab(MainWindow& window, QWidget* page)
{
    QTabBar* tabs = window.pages()->tabBar();
    QTest::mouseClick(tabs, Qt::LeftButton, {}, tabs->tabRect(window.pages()->indexOf(page)).center());
    return window.pages()->currentWidget() == page;
}

bool chooseFinding(MainWindow& window, const QString& id)
{
    if (!clickTab(window, window.recovery()))
        return false;
    FindingsModel* model = window.recovery()->model();
    int row = -1;
    if (!QTest::qWaitFor(
            [&]() {
                for (int i = 0; i < model->rowCount(); ++i)
                    if (model->at(i)->id == id)
                        row = i;
                return row >= 0;
            },
            20000))
        return false;
    auto* table = child<QTableView>(&window, "recoveryFindings");
    QTest::mouseClick(table->viewport(), Qt::LeftButton, {},
                      table->visualRect(model->index(row, FindingsModel::TitleColumn)).center());
    return window.recovery()->flow()->finding().id == id;
}

QAction* menuAction(MainWindow& window, const QString& nameOrText)
{
    for (QAction* menu : window.menuBar()->actions())
        if (menu->menu())
            for (QAction* a : menu->menu()->actions())
                if (a->objectName() == nameOrText || a->text() == nameOrText)
                    return a;
    qWarning("no menu action %s", qPrintable(nameOrText));
    return nullptr;
}

} // namespace outbox::test
