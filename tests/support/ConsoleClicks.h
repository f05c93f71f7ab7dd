#pragma once

#include <QApplication>
#include <QString>
#include <QTest>
#include <QWidget>

class QAbstractButton;
class QAction;
class QLineEdit;

namespace outbox::desktop {
class MainWindow;
}

namespace outbox::test {

// The console's GUI tests drive the real MainWindow as an operator does: a click on a page's tab,
// a click on a finding's row, a menu entry, a dialog that opens on top.

// Clicks the tab of `page`; true when it became the current page.
bool clickTab(desktop::MainWindow& window, QWidget* page);
// Clicks the Recovery tab, waits (up to 20 s) for the finding `id` and clicks its row; true once the
// flow shows that finding.
bool chooseFinding(desktop::MainWindow& window, const QString& id);
// The entry of one of the window's menus with this objectName or (translated) text; warns and
// returns null when there is none.
QAction* menuAction(desktop::MainWindow& window, const QString& nameOrText);

// The typed confirmation as an operator meets it: `run` stays disabled with `wrong` typed into
// `confirm` (or with nothing, when `wrong` is empty); with `phrase` typed instead it is enabled and
// clicked. False, with a warning, when either does not hold.
bool confirmAndRun(QLineEdit* confirm, QAbstractButton* run, const QString& phrase,
                   const QString& wrong = {});

// The visible top-level window of type T with this objectName, once it appears (null after `ms`).
template <typename T> T* waitForTopLevel(const QString& name, int ms = 15000)
{
    T* found = nullptr;
    (void)QTest::qWaitFor(
        [&]() {
            for (QWidget* w : QApplication::topLevelWidgets())
                if (w->objectName() == name && w->isVisible())
                    found = qobject_cast<T*>(w);
            return found != nullptr;
        },
        ms);
    return found;
}

} // namespace outbox::test
