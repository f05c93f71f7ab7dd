// Issue 40 item 1: the console on a 1280×800 laptop. Qt's offscreen platform is given one screen of
// exactly that size (its JSON configuration, see main() below); the real MainWindow is driven by
// clicks: every page, every finding of an incident and its preview, a saved geometry larger than
// the screen, the Wallboard and the Overview's charts at their smallest.
#include "core/db/DeadLetterStore.h"
#include "tests/support/TestDatabases.h"
#include "tests/support/WidgetFinder.h"
#include "ui/desktop/MainWindow.h"
#include "ui/desktop/deadletters/DeadLettersPage.h"
#include "ui/desktop/fleet/FleetPage.h"
#include "ui/desktop/fleet/FleetTableModel.h"
#include "ui/desktop/overview/OverviewPage.h"
#include "ui/desktop/recovery/FindingsModel.h"
#include "ui/desktop/recovery/RecoveryFlow.h"
#include "ui/desktop/recovery/RecoveryPage.h"

#include <QAction>
#include <QApplication>
#include <QChart>
#include <QChartView>
#include <QDir>
#include <QFile>
#include <QGraphicsTextItem>
#include <QLayout>
#include <QLineSeries>
#include <QListWidget>
#include <QMenu>
#include <QMenuBar>
#include <QPushButton>
#include <QScreen>
#include <QSettings>
#include <QStandardPaths>
#include <QStatusBar>
#include <QStyle>
#include <QTabBar>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QTextDocument>

using namespace outbox;
using namespace outbox::desktop;
using namespace outbox::test;

namespace {

constexpr int ScreenWidth = 1280;
constexpr int ScreenHeight = 800;
// What a laptop's panel and the window's title bar leave of 800 px, and then some.
constexpr int MaxMinimumHeight = 720;

QString sizeText(const QSize& s)
{
    return QStringLiteral("%1x%2").arg(s.width()).arg(s.height());
}

QString rectText(const QRect& r)
{
    return QStringLiteral("%1x%2%3%4%5%6")
        .arg(r.width())
        .arg(r.height())
        .arg(r.x() >= 0 ? QStringLiteral("+") : QString())
        .arg(r.x())
        .arg(r.y() >= 0 ? QStringLiteral("+") : QString())
        .arg(r.y());
}

// The size the window cannot go below (what its layout imposes on it).
QSize leastSize(QWidget& window)
{
    return window.minimumSize().expandedTo(window.minimumSizeHint());
}

// A widget an operator can see: shown, inside the window and not cut off by a scroll area.
bool onScreen(QWidget* w)
{
    if (!w || !w->isVisible())
        return false;
    QWidget* window = w->window();
    const QRect r(w->mapTo(window, QPoint(0, 0)), w->size());
    return window->rect().contains(r) && w->visibleRegion().boundingRect().size() == w->size();
}

// With DUMP_SIZES set: the least heights down the tree, to see which widget holds the window up.
void dumpLeastHeights(QWidget* w, int depth = 0)
{
    if (!qEnvironmentVariableIsSet("DUMP_SIZES") || depth > 12)
        return;
    qDebug().noquote() << QString(depth * 2, QLatin1Char(' ')) << w->metaObject()->className()
                       << w->objectName() << w->minimumSizeHint().height() << w->minimumHeight()
                       << w->height();
    for (QObject* o : w->children())
        if (auto* c = qobject_cast<QWidget*>(o); c && !c->isWindow())
            dumpLeastHeights(c, depth + 1);
}

void clickTab(MainWindow& window, QWidget* page)
{
    QTabBar* tabs = window.pages()->tabBar();
    QTest::mouseClick(tabs, Qt::LeftButton, {}, tabs->tabRect(window.pages()->indexOf(page)).center());
}

// The cells of `columns` whose text the view cannot show whole (it elides them): wider than their
// column on one line, or, in a view that wraps, taller than their row; as "row,column: text".
QStringList cutCells(QTableView* table, const QList<int>& columns)
{
    QStringList cut;
    const QAbstractItemModel* model = table->model();
    const QFontMetrics fm(table->font());
    // The delegate's margins: the focus frame's on either side of the text.
    const int margins = 2 * (table->style()->pixelMetric(QStyle::PM_FocusFrameHMargin, nullptr, table) + 1);
    for (int row = 0; row < model->rowCount(); ++row)
        for (int column : columns) {
            const QModelIndex i = model->index(row, column);
            const QString text = i.data().toString();
            if (text.isEmpty())
                continue;
            // On one line, or (a view that wraps) on as many as the row's height holds.
            const int width = table->columnWidth(column) - margins;
            const QRect needed = table->wordWrap()
                                     ? fm.boundingRect(QRect(0, 0, width, 100000), Qt::TextWordWrap, text)
                                     : QRect(0, 0, fm.horizontalAdvance(text), fm.height());
            if (needed.width() > width || needed.height() > table->rowHeight(row))
                cut << QStringLiteral("%1,%2: %3 (%4x%5 px in %6x%7)")
                           .arg(row)
                           .arg(column)
                           .arg(text)
                           .arg(needed.width())
                           .arg(needed.height())
                           .arg(width)
                           .arg(table->rowHeight(row));
        }
    return cut;
}

// A tooltip's text as it reads (PlainToolTip escapes and wraps it), on one line.
QString tipText(const QModelIndex& index)
{
    QTextDocument doc;
    doc.setHtml(index.data(Qt::ToolTipRole).toString());
    return doc.toPlainText().simplified();
}

// The axis and title texts a chart view draws that QtCharts cut to "..." for want of room.
QStringList elidedChartTexts(QChartView* view)
{
    QStringList elided;
    for (QGraphicsItem* item : view->scene()->items()) {
        auto* text = dynamic_cast<QGraphicsTextItem*>(item);
        if (text && text->isVisible() &&
            (text->toPlainText().contains(QLatin1String("...")) ||
             text->toPlainText().contains(QChar(0x2026))))
            elided << text->toPlainText();
    }
    return elided;
}

} // namespace

class TestLaptopScreen : public QObject
{
    Q_OBJECT

private:
    // An incident with many findings: no relay (one stale), an old backlog, FAILED events of two
    // errors (one blocking its aggregate), DEAD events and dead letters.
    static std::unique_ptr<Database> incident()
    {
        auto db = TestDatabases::fresh(QStringLiteral("sqlite"),
                                       TestDatabases::uniqueName(QStringLiteral("laptop")));
        const auto ids = insertEvents(*db, 12);
        exec(*db,
             QStringLiteral("UPDATE {events} SET created_at = %1, available_at = %1")
                 .arg(db->dialect().nowPlusMillis(QStringLiteral(":ms"))),
             {{QStringLiteral(":ms"), -900000}});
        forceStatus(*db, {ids.at(0), ids.at(1)}, QStringLiteral("FAILED"),
                    QStringLiteral("Broker: Topic authorization failed — a long error text that an operator "
                                   "reads whole, with the broker's own words and the topic's name in it"));
        forceStatus(*db, {ids.at(2)}, QStringLiteral("DEAD"),
                    QStringLiteral("Broker: Message size too large"));
        // ids[3] waits behind the FAILED ids[0] of the same aggregate.
        exec(*db, QStringLiteral("UPDATE {events} SET aggregate_id = 'order-0' WHERE id = :id"),
             {{QStringLiteral(":id"), ids.at(3)}});
        for (int i = 0; i < 3; ++i) {
            DeadLetter letter;
            letter.consumerName = QStringLiteral("inventory");
            letter.eventId = QStringLiteral("ev-%1").arg(i);
            letter.topic = QStringLiteral("Order");
            letter.payload = "{\"sku\":\"SKU-1\"}";
            letter.error = QStringLiteral("unknown SKU SKU-1");
            if (!DeadLetterStore(*db).insert(letter).ok())
                qFatal("dead letter");
        }
        registerRelay(*db, QStringLiteral("relay-old"), 600000);
        return db;
    }

    static QWidget* waitForTopLevel(const QString& name)
    {
        QWidget* found = nullptr;
        (void)QTest::qWaitFor(
            [&]() {
                for (QWidget* w : QApplication::topLevelWidgets())
                    if (w->objectName() == name && w->isVisible())
                        found = w;
                return found != nullptr;
            },
            10000);
        return found;
    }

private slots:
    void initTestCase()
    {
        QCoreApplication::setOrganizationName(QStringLiteral("OutboxLaptopScreenTest"));
        QStandardPaths::setTestModeEnabled(true);
        QSettings().clear();
        const QRect screen = QGuiApplication::primaryScreen()->geometry();
        QCOMPARE(screen.size(), QSize(ScreenWidth, ScreenHeight));
    }

    void init() { QSettings().clear(); }

    // The window opens inside the screen, title bar included; its least height leaves room for a
    // panel; no page (opened by its tab) and no finding (chosen by a click, then previewed) makes
    // it taller: the Back/Run row and the status bar stay on screen.
    void fitsAndNeverGrows()
    {
        auto db = incident();
        const QRect available = QGuiApplication::primaryScreen()->availableGeometry();
        MainWindow window;
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY2(available.contains(window.frameGeometry()),
                 qPrintable(rectText(window.frameGeometry()) + QStringLiteral(" on ") + rectText(available)));
        QVERIFY2(window.geometry().top() > window.frameGeometry().top() || window.frameGeometry().top() >= 0,
                 "title bar above the screen");
        QVERIFY(window.connectToText(TestDatabases::urlText(db->url())));
        QTRY_VERIFY_WITH_TIMEOUT(window.snapshotsSeen() > 0, 10000);
        const QSize opened = window.size();

        for (int i = 0; i < window.pages()->count(); ++i) {
            QWidget* page = window.pages()->widget(i);
            clickTab(window, page);
            QTest::qWait(50);
            qInfo("%s: least size %s, page %d", qPrintable(window.pages()->tabText(i)),
                  qPrintable(sizeText(leastSize(window))), page->minimumSizeHint().height());
            QVERIFY2(leastSize(window).height() <= MaxMinimumHeight &&
                         leastSize(window).width() <= ScreenWidth,
                     qPrintable(QStringLiteral("%1: least size %2")
                                    .arg(window.pages()->tabText(i), sizeText(leastSize(window)))));
            QVERIFY2(
                window.size() == opened,
                qPrintable(QStringLiteral("%1: %2, was %3")
                               .arg(window.pages()->tabText(i), sizeText(window.size()), sizeText(opened))));
        }

        clickTab(window, window.recovery());
        FindingsModel* model = window.recovery()->model();
        const QStringList expected{QStringLiteral("no-relay"),          QStringLiteral("backlog-age"),
                                   QStringLiteral("failed-events"),     QStringLiteral("dead-events"),
                                   QStringLiteral("dead-letters"),      QStringLiteral("relay-stale"),
                                   QStringLiteral("blocked-aggregates")};
        QTRY_VERIFY_WITH_TIMEOUT(
            [&]() {
                QSet<QString> ids;
                for (int i = 0; i < model->rowCount(); ++i)
                    ids << model->at(i)->id;
                for (const QString& id : expected)
                    if (!ids.contains(id))
                        return false;
                return true;
            }(),
            20000);
        auto* table = child<QTableView>(&window, "recoveryFindings");
        RecoveryFlow* flow = window.recovery()->flow();
        int previews = 0;
        for (int row = 0; row < model->rowCount(); ++row) {
            const QString id = model->at(row)->id;
            QTest::mouseClick(table->viewport(), Qt::LeftButton, {},
                              table->visualRect(model->index(row, FindingsModel::TitleColumn)).center());
            QTRY_COMPARE(flow->finding().id, id);
            QTest::qWait(50);
            QVERIFY2(window.size() == opened,
                     qPrintable(QStringLiteral("after choosing %1: %2, was %3")
                                    .arg(id, sizeText(window.size()), sizeText(opened))));
            if (leastSize(window).height() > MaxMinimumHeight)
                dumpLeastHeights(flow);
            QVERIFY2(leastSize(window).height() <= MaxMinimumHeight,
                     qPrintable(QStringLiteral("%1: least size %2").arg(id, sizeText(leastSize(window)))));
            QVERIFY2(onScreen(window.statusBar()), qPrintable(id));
            QVERIFY2(onScreen(child<QWidget>(flow, "findingTitle")), qPrintable(id));
            auto* actions = child<QListWidget>(flow, "findingActions");
            auto* preview = child<QPushButton>(flow, "previewAction");
            if (actions->count() == 0)
                continue;
            QTest::mouseClick(actions->viewport(), Qt::LeftButton, {},
                              actions->visualItemRect(actions->item(0)).center());
            if (!preview->isEnabled() || !preview->isVisible())
                continue;
            if (!onScreen(preview))
                dumpLeastHeights(flow);
            QVERIFY2(onScreen(preview), qPrintable(id));
            QTest::mouseClick(preview, Qt::LeftButton);
            QTRY_COMPARE_WITH_TIMEOUT(flow->step(), RecoveryFlow::Preview, 20000);
            QTest::qWait(50);
            ++previews;
            QVERIFY2(window.size() == opened,
                     qPrintable(QStringLiteral("preview of %1: %2, was %3")
                                    .arg(id, sizeText(window.size()), sizeText(opened))));
            for (const char* name : {"backToFinding", "recoveryRun", "recoveryReason"})
                QVERIFY2(onScreen(child<QWidget>(flow, name)),
                         qPrintable(id + QStringLiteral(": ") + QLatin1String(name)));
            QVERIFY2(onScreen(window.statusBar()), qPrintable(id));
            QTest::mouseClick(child<QPushButton>(flow, "backToFinding"), Qt::LeftButton);
            QCOMPARE(flow->step(), RecoveryFlow::WhatHappened);
        }
        QVERIFY2(previews >= 3, qPrintable(QString::number(previews)));

        // What is saved on closing is what fits.
        window.close();
        const QByteArray saved = QSettings().value(QStringLiteral("window/geometry")).toByteArray();
        QVERIFY(!saved.isEmpty());
        MainWindow again;
        again.show();
        QVERIFY(QTest::qWaitForWindowExposed(&again));
        QVERIFY2(available.contains(again.frameGeometry()), qPrintable(rectText(again.frameGeometry())));
    }

    // A geometry saved on a bigger screen (or by an older version that grew the window) comes back
    // inside this one, title bar on screen.
    void savedGeometryIsClampedToTheScreen_data()
    {
        QTest::addColumn<QRect>("saved");
        QTest::newRow("taller than the screen") << QRect(40, 20, 1200, 980);
        QTest::newRow("wider and taller") << QRect(0, 0, 1900, 1150);
        QTest::newRow("title bar above the screen") << QRect(100, -60, 1000, 700);
        QTest::newRow("mostly off to the right") << QRect(1100, 100, 1000, 600);
    }

    void savedGeometryIsClampedToTheScreen()
    {
        QFETCH(QRect, saved);
        {
            // Saved as the console saves it (QWidget::saveGeometry), by a window that could be that big.
            QWidget big;
            big.setGeometry(saved);
            QSettings().setValue(QStringLiteral("window/geometry"), big.saveGeometry());
        }
        const QRect available = QGuiApplication::primaryScreen()->availableGeometry();
        MainWindow window;
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY2(available.contains(window.frameGeometry()),
                 qPrintable(rectText(window.frameGeometry()) + QStringLiteral(" on ") + rectText(available)));
        QVERIFY(window.geometry().top() >= available.top());
        QVERIFY2(window.width() >= 600 && window.height() >= 400, qPrintable(sizeText(window.size())));
    }

    // The Overview's Wallboard button opens it on this screen, fitting it: no tile or chart below
    // its edge, no chart label cut to "...".
    void wallboardFitsItsScreen()
    {
        auto db = incident();
        MainWindow window;
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY(window.connectToText(TestDatabases::urlText(db->url())));
        QTRY_VERIFY_WITH_TIMEOUT(window.snapshotsSeen() > 1, 10000);
        clickTab(window, window.overview());
        QTest::mouseClick(child<QPushButton>(&window, "wallboardButton"), Qt::LeftButton);
        QWidget* board = waitForTopLevel(QStringLiteral("wallboardOverview"));
        QVERIFY(board);
        QVERIFY(QTest::qWaitForWindowExposed(board));
        QTest::qWait(100);
        const QRect screen = board->screen()->geometry();
        QVERIFY2(leastSize(*board).height() <= screen.height(), qPrintable(sizeText(leastSize(*board))));
        QVERIFY2(screen.contains(board->frameGeometry()),
                 qPrintable(rectText(board->frameGeometry()) + QStringLiteral(" on ") + rectText(screen)));
        int tiles = 0;
        for (QWidget* tile : board->findChildren<QWidget*>()) {
            if (!tile->objectName().startsWith(QLatin1String("tile_")))
                continue;
            ++tiles;
            QVERIFY2(board->rect().contains(QRect(tile->mapTo(board, QPoint(0, 0)), tile->size())),
                     qPrintable(tile->objectName()));
        }
        QCOMPARE(tiles, 6);
        for (QChartView* view : board->findChildren<QChartView*>()) {
            QVERIFY2(view->isVisible() &&
                         board->rect().contains(QRect(view->mapTo(board, QPoint(0, 0)), view->size())),
                     qPrintable(view->objectName() + QLatin1Char(' ') +
                                rectText(QRect(view->mapTo(board, QPoint(0, 0)), view->size())) +
                                QStringLiteral(" in ") + rectText(board->rect()) +
                                QStringLiteral(" visible ") +
                                rectText(view->visibleRegion().boundingRect())));
            const QStringList elided = elidedChartTexts(view);
            QVERIFY2(elided.isEmpty(),
                     qPrintable(view->objectName() + QStringLiteral(": ") + elided.join(u' ')));
        }
        QTest::keyClick(board, Qt::Key_Escape);
        QTRY_VERIFY(!board->isVisible());
    }

    // Item 10: the Fleet page at the width of the screen: states, numbers, findings and tags whole
    // (no "…"); the long error of a refused member wraps onto more than one line and is whole in its
    // tooltip; the window does not grow for any of it.
    void fleetTableFitsTheScreen()
    {
        auto shop = TestDatabases::fresh(QStringLiteral("sqlite"),
                                         TestDatabases::uniqueName(QStringLiteral("laptopfleet_shop")));
        forceStatus(*shop, insertEvents(*shop, 3), QStringLiteral("FAILED"), QStringLiteral("no broker"));
        auto edge = TestDatabases::fresh(QStringLiteral("sqlite"),
                                         TestDatabases::uniqueName(QStringLiteral("laptopfleet_edge")));
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString path = dir.filePath(QStringLiteral("fleet.ini"));
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(
            QStringLiteral("[fleet]\ninterval = 1s\ntimeout = 2s\n"
                           "[member shop-eu-west-1]\nurl = %1\ntags = team=payments, region=eu-west-1, "
                           "tier=gold\n"
                           "[member edge]\nurl = %2\ntags = team=edge\n"
                           "[member refused]\nurl = postgresql://outbox@127.0.0.1:1/outbox\n"
                           "tags = team=checkout\n")
                .arg(shop->url().redacted(), edge->url().redacted())
                .toUtf8());
        file.close();

        MainWindow window;
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        window.resize(QGuiApplication::primaryScreen()->availableGeometry().width() -
                          (window.frameGeometry().width() - window.width()),
                      window.height());
        const QSize opened = window.size();
        QVERIFY2(window.openFleet(path).ok(), qPrintable(path));
        FleetPage* page = window.fleetPage();
        QVERIFY(page);
        auto* table = child<QTableView>(&window, "fleetTable");
        QTRY_VERIFY_WITH_TIMEOUT(
            table->model()->rowCount() == 3 && page->ticks() >= 1 &&
                !table->model()->index(0, FleetTableModel::ErrorText).data().toString().isEmpty(),
            20000);
        QTest::qWait(100);
        QCOMPARE(window.size(), opened);
        QList<int> whole;
        for (int c = FleetTableModel::Member; c < FleetTableModel::ErrorText; ++c)
            if (c != FleetTableModel::Trend)
                whole << c;
        const QStringList cut = cutCells(table, whole);
        QVERIFY2(cut.isEmpty(), qPrintable(cut.join(QLatin1Char('\n'))));
        // Every text is whole in its tooltip; the refused member's error (first: worst first) wraps.
        const QAbstractItemModel* model = table->model();
        for (int row = 0; row < model->rowCount(); ++row)
            for (int c = FleetTableModel::State; c <= FleetTableModel::ErrorText; ++c) {
                const QString text = model->index(row, c).data().toString();
                if (!text.isEmpty() && c != FleetTableModel::ErrorText)
                    QVERIFY2(tipText(model->index(row, c)).contains(text.simplified()), qPrintable(text));
            }
        const QModelIndex error = model->index(0, FleetTableModel::ErrorText);
        const QString errorText = error.data().toString();
        QVERIFY2(tipText(error).contains(errorText.simplified()), qPrintable(errorText));
        if (table->fontMetrics().horizontalAdvance(errorText) >
            table->columnWidth(FleetTableModel::ErrorText))
            QVERIFY2(table->rowHeight(0) > table->fontMetrics().lineSpacing() * 3 / 2,
                     qPrintable(QStringLiteral("%1 px high for \"%2\" in %3 px")
                                    .arg(table->rowHeight(0))
                                    .arg(errorText)
                                    .arg(table->columnWidth(FleetTableModel::ErrorText))));
    }

    // Item 10: the Dead letters page at the width of the screen: ids, states, attempts and times whole.
    void deadLettersTimesFitTheScreen()
    {
        auto db = incident();
        // An error longer than the column and than what a cell shows (300 characters): its start
        // and its end on screen, elided in the middle, the whole of it in the tooltip.
        DeadLetter longer;
        longer.consumerName = QStringLiteral("inventory");
        longer.eventId = QStringLiteral("ev-long");
        longer.topic = QStringLiteral("Order");
        longer.payload = "{}";
        longer.error =
            QStringLiteral("START-OF-ERROR handler refused the message: ") +
            QStringLiteral("the reservation service answered 409 for the line item; ").repeated(8) +
            QStringLiteral("END-OF-ERROR");
        QVERIFY(DeadLetterStore(*db).insert(longer).ok());
        MainWindow window;
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        window.resize(QGuiApplication::primaryScreen()->availableGeometry().width() -
                          (window.frameGeometry().width() - window.width()),
                      window.height());
        QVERIFY(window.connectToText(TestDatabases::urlText(db->url())));
        clickTab(window, window.deadLetters());
        auto* table = child<QTableView>(&window, "deadLettersTable");
        QTRY_COMPARE_WITH_TIMEOUT(table->model()->rowCount(), 4, 15000);
        QTest::qWait(100);
        const QStringList cut = cutCells(table, {0, 1, 5, 6});
        QVERIFY2(cut.isEmpty(), qPrintable(cut.join(QLatin1Char('\n'))));
        // The error column (the last): the long one is elided in the middle, as the view draws it.
        const int errorColumn = table->model()->columnCount() - 1;
        int row = -1;
        for (int r = 0; r < table->model()->rowCount(); ++r)
            if (table->model()->index(r, errorColumn).data().toString().startsWith(QStringLiteral("START")))
                row = r;
        QVERIFY(row >= 0);
        const QModelIndex error = table->model()->index(row, errorColumn);
        QCOMPARE(table->textElideMode(), Qt::ElideMiddle);
        const int margins =
            2 * (table->style()->pixelMetric(QStyle::PM_FocusFrameHMargin, nullptr, table) + 1);
        const QString drawn = QFontMetrics(table->font())
                                  .elidedText(error.data().toString(), table->textElideMode(),
                                              table->columnWidth(errorColumn) - margins);
        QVERIFY2(drawn.startsWith(QStringLiteral("START-OF-ERROR")) &&
                     drawn.endsWith(QStringLiteral("END-OF-ERROR")) && drawn.contains(QChar(0x2026)),
                 qPrintable(drawn));
        QCOMPARE(tipText(error), longer.error.simplified());
    }

    // The check below can fail: a chart squeezed below what its labels need shows "…" and is caught.
    void aSqueezedChartIsCaught()
    {
        auto* chart = new QChart;
        chart->setTitle(QStringLiteral("Backlog by status (sampled every 2 s)"));
        auto* series = new QLineSeries;
        series->append(0, 0);
        series->append(1, 12345);
        chart->addSeries(series);
        chart->createDefaultAxes();
        QChartView view(chart);
        view.resize(400, 70);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        QTest::qWait(50);
        QVERIFY(!elidedChartTexts(&view).isEmpty());
    }

    // The Overview's charts keep their axis values (no "…") with the window at its least size.
    void chartsKeepTheirAxisLabelsWhenSmall()
    {
        auto db = incident();
        MainWindow window;
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY(window.connectToText(TestDatabases::urlText(db->url())));
        QTRY_VERIFY_WITH_TIMEOUT(window.snapshotsSeen() > 2, 15000);
        clickTab(window, window.overview());
        for (const QSize& size : {QSize(ScreenWidth, ScreenHeight - 40), leastSize(window)}) {
            window.resize(size);
            QTest::qWait(200);
            const QList<QChartView*> views = window.overview()->findChildren<QChartView*>();
            QCOMPARE(views.size(), 5);
            for (QChartView* view : views) {
                QVERIFY2(view->isVisible() && view->height() > 0, qPrintable(view->objectName()));
                const QStringList elided = elidedChartTexts(view);
                QVERIFY2(elided.isEmpty(), qPrintable(QStringLiteral("%1 at %2 px: %3")
                                                          .arg(view->objectName())
                                                          .arg(view->height())
                                                          .arg(elided.join(u' '))));
            }
        }
    }
};

// Qt's offscreen platform with one 1280×800 screen (its JSON configuration file), unless the
// environment already names another platform (for a run on a real display).
int main(int argc, char** argv)
{
    const QString config = QDir::temp().filePath(
        QStringLiteral("outbox-laptop-screen-%1.json").arg(QCoreApplication::applicationPid()));
    if (qEnvironmentVariable("QT_QPA_PLATFORM", QStringLiteral("offscreen")) == QLatin1String("offscreen")) {
        QFile file(config);
        if (!file.open(QIODevice::WriteOnly))
            qFatal("cannot write %s", qPrintable(config));
        file.write(QStringLiteral(R"({"synchronousWindowSystemEvents": false, "windowFrameMargins": true,
  "screens": [{"name": "laptop", "x": 0, "y": 0, "width": %1, "height": %2,
               "logicalDpi": 96, "logicalBaseDpi": 96, "dpr": 1}]})")
                       .arg(ScreenWidth)
                       .arg(ScreenHeight)
                       .toUtf8());
        file.close();
        qputenv("QT_QPA_PLATFORM", QByteArray("offscreen:configfile=") + config.toUtf8());
    }
    QApplication app(argc, argv);
    TestLaptopScreen test;
    const int failed = QTest::qExec(&test, argc, argv);
    QFile::remove(config);
    return failed;
}

#include "tst_laptopscreen.moc"
