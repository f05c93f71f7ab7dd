#include "ui/desktop/overview/OverviewPage.h"

#include "ui/desktop/overview/GappedLine.h"
#include "ui/desktop/overview/LeaseHoldersChart.h"
#include "ui/desktop/overview/OldestPendingChart.h"
#include "ui/desktop/overview/StatTile.h"
#include "ui/desktop/widgets/ChartAxes.h"
#include "ui/desktop/widgets/Controls.h"
#include "ui/desktop/widgets/Labels.h"

#include <QBarCategoryAxis>
#include <QBarSeries>
#include <QBarSet>
#include <QChart>
#include <QChartView>
#include <QCheckBox>
#include <QComboBox>
#include <QDateTimeAxis>
#include <QGraphicsLayout>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QKeyEvent>
#include <QLabel>
#include <QLineSeries>
#include <QLocale>
#include <QPushButton>
#include <QTableWidget>
#include <QValueAxis>
#include <algorithm>
#include <cmath>

namespace outbox::desktop {
namespace {

QColor statusColour(const QString& status)
{
    if (status == QLatin1String("PENDING"))
        return QColor(0x15, 0x65, 0xc0);
    if (status == QLatin1String("SENDING"))
        return QColor(0xf9, 0xa8, 0x25);
    if (status == QLatin1String("FAILED"))
        return QColor(0xe6, 0x51, 0x00);
    return QColor(0xc6, 0x28, 0x28);
}

void fitY(QValueAxis* axis, const QList<GappedLine*>& series)
{
    double max = 0;
    for (GappedLine* s : series)
        for (const QPointF& p : s->points())
            max = std::max(max, p.y());
    niceCountAxis(axis, max);
}

} // namespace

OverviewPage::OverviewPage(bool wallboard, QWidget* parent)
    : QWidget(parent), m_wallboard(wallboard), m_scale(wallboard ? WallboardScale : 1.0)
{
    setObjectName(wallboard ? QStringLiteral("wallboardOverview") : QStringLiteral("overviewPage"));
    auto* layout = new QVBoxLayout(this);

    if (!wallboard) {
        auto* controls = new QHBoxLayout;
        controls->addWidget(new QLabel(tr("Refresh every"), this));
        m_interval = new QComboBox(this);
        m_interval->setObjectName(QStringLiteral("refreshInterval"));
        for (int seconds : {1, 2, 5, 10, 30, 60})
            m_interval->addItem(tr("%n second(s)", nullptr, seconds), seconds * 1000);
        m_interval->setCurrentIndex(1);
        controls->addWidget(m_interval);
        m_pause = new QCheckBox(tr("Pause"), this);
        m_pause->setObjectName(QStringLiteral("pauseSampling"));
        controls->addWidget(m_pause);
        controls->addStretch();
        m_updated = controls::infoLabel(this, QStringLiteral("lastUpdated"));
        controls->addWidget(m_updated);
        auto* wall = controls::button(this, tr("Wallboard"), QStringLiteral("wallboardButton"));
        controls->addWidget(wall);
        layout->addLayout(controls);
        connect(m_interval, &QComboBox::currentIndexChanged, this, [this](int) {
            setSamplingInterval(m_interval->currentData().toInt());
            emit intervalChanged(m_interval->currentData().toInt());
        });
        connect(m_pause, &QCheckBox::toggled, this, &OverviewPage::pausedChanged);
        connect(wall, &QPushButton::clicked, this, &OverviewPage::wallboardRequested);
    }

    auto* tiles = new QHBoxLayout;
    const QList<QPair<QString, QString>> tileSpec{
        {QStringLiteral("oldest"), tr("Oldest pending")}, {QStringLiteral("PENDING"), tr("Pending")},
        {QStringLiteral("FAILED"), tr("Failed")},         {QStringLiteral("DEAD"), tr("Dead")},
        {QStringLiteral("dlq"), tr("Dead letters NEW")},  {QStringLiteral("relays"), tr("Relays up")}};
    for (const auto& spec : tileSpec) {
        auto* tile = new StatTile(spec.second, this);
        tile->setObjectName(QStringLiteral("tile_") + spec.first);
        if (!wallboard) {
            tile->setClickable(tr("Show what this counts"));
            const QString key = spec.first;
            connect(tile, &StatTile::clicked, this, [this, key]() { emit drillDown(key); });
        }
        tiles->addWidget(tile);
        m_tiles.insert(spec.first, tile);
    }
    layout->addLayout(tiles);

    auto* grid = new QGridLayout;
    layout->addLayout(grid, 1);

    m_backlogChart = new QChart;
    m_backlogX = new QDateTimeAxis;
    m_backlogX->setFormat(QStringLiteral("HH:mm:ss"));
    m_backlogY = new QValueAxis;
    m_backlogY->setLabelFormat(QStringLiteral("%d"));
    m_backlogChart->addAxis(m_backlogX, Qt::AlignBottom);
    m_backlogChart->addAxis(m_backlogY, Qt::AlignLeft);
    for (const QString& status : {QStringLiteral("PENDING"), QStringLiteral("SENDING"),
                                  QStringLiteral("FAILED"), QStringLiteral("DEAD")}) {
        m_backlog.insert(status, new GappedLine(m_backlogChart, m_backlogX, m_backlogY,
                                                Labels::status(status), QPen(statusColour(status), 2)));
    }
    m_backlogChart->setObjectName(QStringLiteral("backlogChart"));
    // Beside the plot, not above it: the height goes to the axis values.
    m_backlogChart->legend()->setAlignment(Qt::AlignRight);
    grid->addWidget(makeChartView(m_backlogChart), 0, 0);

    m_rateChart = new QChart;
    QChart* rateChart = m_rateChart;
    m_rateX = new QDateTimeAxis;
    m_rateX->setFormat(QStringLiteral("HH:mm:ss"));
    m_rateY = new QValueAxis;
    m_rateY->setLabelFormat(QStringLiteral("%d"));
    m_rateY->setTitleText(tr("sent"));
    // Failures are few next to sends: they get their own scale on the right, in their colour.
    m_failedY = new QValueAxis;
    m_failedY->setLabelFormat(QStringLiteral("%d"));
    m_failedY->setTitleText(tr("failed"));
    m_failedY->setLabelsColor(QColor(0xc6, 0x28, 0x28));
    m_failedY->setTitleBrush(QColor(0xc6, 0x28, 0x28));
    rateChart->addAxis(m_rateX, Qt::AlignBottom);
    rateChart->addAxis(m_rateY, Qt::AlignLeft);
    rateChart->addAxis(m_failedY, Qt::AlignRight);
    m_sent = new GappedLine(rateChart, m_rateX, m_rateY, tr("sent"), QPen(QColor(0x2e, 0x7d, 0x32), 2));
    QPen failedPen(QColor(0xc6, 0x28, 0x28));
    failedPen.setWidth(2);
    failedPen.setStyle(Qt::DashLine);
    m_failed = new GappedLine(rateChart, m_rateX, m_failedY, tr("failed"), failedPen);
    niceCountAxis(m_rateY, 0);
    niceCountAxis(m_failedY, 0);
    niceCountAxis(m_backlogY, 0);
    rateChart->setObjectName(QStringLiteral("rateChart"));
    rateChart->legend()->setAlignment(Qt::AlignRight);
    grid->addWidget(makeChartView(rateChart), 0, 1);
    setSamplingInterval(2000);

    auto* attemptsChart = new QChart;
    attemptsChart->setTitle(tr("Attempts of unsent events"));
    attemptsChart->setObjectName(QStringLiteral("attemptsChart"));
    m_attempts = new QBarSeries;
    attemptsChart->addSeries(m_attempts);
    m_attemptsX = new QBarCategoryAxis;
    m_attemptsY = new QValueAxis;
    m_attemptsY->setLabelFormat(QStringLiteral("%d"));
    attemptsChart->addAxis(m_attemptsX, Qt::AlignBottom);
    attemptsChart->addAxis(m_attemptsY, Qt::AlignLeft);
    m_attempts->attachAxis(m_attemptsX);
    m_attempts->attachAxis(m_attemptsY);
    attemptsChart->legend()->hide();
    grid->addWidget(makeChartView(attemptsChart), 1, 0);

    m_oldestChart = new OldestPendingChart(HistoryPoints, OldestPendingWarningMs, OldestPendingCriticalMs);
    grid->addWidget(makeChartView(m_oldestChart), 1, 1);
    // Beside the lease holders table: who held how many, over time, and where leases expired.
    m_leaseChart = new LeaseHoldersChart(HistoryPoints);
    grid->addWidget(makeChartView(m_leaseChart), 2, 0);

    auto* tables = new QVBoxLayout;
    m_leases = new QTableWidget(0, 3, this);
    m_leases->setObjectName(QStringLiteral("leaseHolders"));
    m_leases->setHorizontalHeaderLabels({tr("Worker"), tr("Sending"), tr("Expired leases")});
    m_relays = new QTableWidget(0, 4, this);
    m_relays->setObjectName(QStringLiteral("overviewRelays"));
    m_relays->setHorizontalHeaderLabels({tr("Relay"), tr("State"), tr("Heartbeat age"), tr("Health")});
    for (QTableWidget* t : {m_leases, m_relays}) {
        t->setEditTriggers(QAbstractItemView::NoEditTriggers);
        t->horizontalHeader()->setStretchLastSection(true);
        t->verticalHeader()->hide();
        // A header and a row at least: the two tables share a chart's row, not more.
        t->setMinimumHeight(t->horizontalHeader()->sizeHint().height() +
                            t->verticalHeader()->defaultSectionSize() + 2 * t->frameWidth());
    }
    tables->addWidget(new QLabel(tr("Lease holders"), this));
    tables->addWidget(m_leases);
    tables->addWidget(new QLabel(tr("Relays"), this));
    tables->addWidget(m_relays);
    auto* tableBox = new QWidget(this);
    tableBox->setLayout(tables);
    grid->addWidget(tableBox, 2, 1);
    applyScale(m_scale);
}

QChartView* OverviewPage::makeChartView(QChart* chart)
{
    chart->setAnimationOptions(QChart::NoAnimation);
    // Little room around the plot: on a laptop every pixel of height goes to the axis values.
    chart->setMargins(QMargins(4, 2, 4, 2));
    chart->layout()->setContentsMargins(0, 0, 0, 0);
    chart->setBackgroundRoundness(0);
    keepCountLabels(chart);
    auto* view = new QChartView(chart, this);
    view->setObjectName(chart->objectName() + QStringLiteral("View"));
    view->setRenderHint(QPainter::Antialiasing);
    view->setFrameShape(QFrame::NoFrame);
    m_views << view;
    return view;
}

void OverviewPage::applyScale(double scale)
{
    m_scale = scale;
    // The desktop's base font, or the wallboard's larger one (readable across a room); the chart
    // height keeps three rows of charts with their axis values on the screen.
    const QFont base = font();
    const double points = base.pointSizeF() > 0 ? base.pointSizeF() : 9.0;
    for (QChartView* view : std::as_const(m_views)) {
        QChart* chart = view->chart();
        QFont title = base;
        title.setBold(true);
        title.setPointSizeF(m_wallboard ? points * scale * 0.75 : points);
        chart->setTitleFont(title);
        QFont legend = base;
        legend.setPointSizeF(m_wallboard ? points * scale * 0.6 : std::max(7.0, points - 1));
        chart->legend()->setFont(legend);
        for (QAbstractAxis* axis : chart->axes()) {
            QFont labels = base;
            labels.setPointSizeF(m_wallboard ? points * scale * 0.55 : std::max(7.0, points - 1));
            axis->setLabelsFont(labels);
            axis->setTitleFont(labels);
        }
        view->setMinimumHeight(m_wallboard ? int(ChartHeight * scale * 0.6) : ChartHeight);
    }
    if (m_wallboard)
        for (StatTile* tile : std::as_const(m_tiles))
            tile->setScale(scale);
    for (QTableWidget* t : {m_leases, m_relays}) {
        if (!t || !m_wallboard)
            continue;
        QFont f = t->font();
        f.setPointSizeF(points * scale * 0.6);
        t->setFont(f);
        t->verticalHeader()->setDefaultSectionSize(QFontMetrics(f).height() + 8);
    }
}

void OverviewPage::fitScreen(const QSize& screen)
{
    if (!m_wallboard || screen.isEmpty())
        return;
    // WallboardScale fills a 1080p wall screen; a smaller screen gets smaller tiles and charts,
    // never below what a desk can read.
    const double byHeight = WallboardScale * screen.height() / 1080.0;
    const double byWidth = WallboardScale * screen.width() / 1440.0;
    applyScale(std::clamp(std::min(byHeight, byWidth), 1.2, WallboardScale));
}

void OverviewPage::keyPressEvent(QKeyEvent* event)
{
    // The wallboard is a full-screen window of its own: Esc leaves it.
    if (m_wallboard && event->key() == Qt::Key_Escape) {
        close();
        return;
    }
    QWidget::keyPressEvent(event);
}

int OverviewPage::pointCount() const
{
    return int(m_backlog.value(QStringLiteral("PENDING"))->count());
}

void OverviewPage::clearHistory()
{
    for (GappedLine* s : std::as_const(m_backlog))
        s->clear();
    m_sent->clear();
    m_failed->clear();
    m_throughput.reset();
    m_oldestChart->clearHistory();
    m_leaseChart->clearHistory();
}

void OverviewPage::markNotCurrent(const QString& why)
{
    if (!m_lastSample.isValid())
        return; // nothing shown yet
    m_notCurrent = true;
    const QString since = tr("Not current: no sample since %1 (%2)").arg(Labels::time(m_lastSample), why);
    for (StatTile* tile : std::as_const(m_tiles))
        tile->setNotCurrent(since);
    for (GappedLine* line : std::as_const(m_backlog))
        line->breakLine();
    m_sent->breakLine();
    m_failed->breakLine();
    m_throughput.reset(); // the next delta would span the gap
    const QColor grey(0x9e, 0x9e, 0x9e);
    for (QTableWidget* t : {m_leases, m_relays})
        for (int r = 0; r < t->rowCount(); ++r)
            for (int c = 0; c < t->columnCount(); ++c)
                if (QTableWidgetItem* item = t->item(r, c)) {
                    item->setForeground(grey);
                    item->setToolTip(since);
                }
    for (int r = 0; r < m_relays->rowCount(); ++r)
        if (QTableWidgetItem* health = m_relays->item(r, 3))
            health->setText(tr("not current"));
    if (m_updated)
        m_updated->setText(since);
}

void OverviewPage::setSamplingInterval(int ms)
{
    m_intervalMs = ms;
    const QString every = tr("every %1").arg(formatInterval(ms));
    m_backlogChart->setTitle(tr("Backlog by status (sampled %1)").arg(every));
    m_rateChart->setTitle(tr("Sent and failed per interval (%1)").arg(every));
}

QString OverviewPage::formatInterval(int ms)
{
    return ms % 1000 == 0 ? tr("%n s", nullptr, ms / 1000) : tr("%1 ms").arg(ms);
}

void OverviewPage::clearAll()
{
    clearHistory();
    m_notCurrent = false;
    m_lastSample = QDateTime();
    for (StatTile* tile : std::as_const(m_tiles))
        tile->setValue(QStringLiteral("–"));
    m_attempts->clear();
    m_attemptsX->clear();
    m_leases->setRowCount(0);
    m_relays->setRowCount(0);
    if (m_updated)
        m_updated->clear();
}

StatTile::Severity OverviewPage::relaysSeverity(const MetricsSnapshot& s)
{
    const int up = int(s.relays.size()) - s.staleRelays(StaleHeartbeatMs);
    const qint64 backlog =
        s.events.value(QStringLiteral("PENDING")) + s.events.value(QStringLiteral("SENDING"));
    if (up <= 0 && backlog > 0)
        return StatTile::Severity::Critical; // events wait and nobody sends them: the worst
    if (up < s.relays.size())
        return StatTile::Severity::Warning;
    return StatTile::Severity::Normal;
}

StatTile::Severity OverviewPage::ageSeverity(qint64 oldestPendingMs)
{
    if (oldestPendingMs >= OldestPendingCriticalMs)
        return StatTile::Severity::Critical;
    if (oldestPendingMs >= OldestPendingWarningMs)
        return StatTile::Severity::Warning;
    return StatTile::Severity::Normal;
}

void OverviewPage::showSnapshot(const MetricsSnapshot& s)
{
    const QLocale locale;
    m_notCurrent = false;
    m_lastSample = s.takenAt;
    using Severity = StatTile::Severity;
    const auto warnIfAny = [](qint64 n) { return n > 0 ? Severity::Warning : Severity::Normal; };
    m_tiles.value(QStringLiteral("oldest"))
        ->setValue(Labels::age(s.oldestPendingAgeMs), ageSeverity(s.oldestPendingAgeMs));
    m_tiles.value(QStringLiteral("PENDING"))
        ->setValue(locale.toString(s.events.value(QStringLiteral("PENDING"))));
    m_tiles.value(QStringLiteral("FAILED"))
        ->setValue(locale.toString(s.events.value(QStringLiteral("FAILED"))),
                   warnIfAny(s.events.value(QStringLiteral("FAILED"))));
    m_tiles.value(QStringLiteral("DEAD"))
        ->setValue(locale.toString(s.events.value(QStringLiteral("DEAD"))),
                   warnIfAny(s.events.value(QStringLiteral("DEAD"))));
    m_tiles.value(QStringLiteral("dlq"))
        ->setValue(locale.toString(s.deadLetters.value(QStringLiteral("NEW"))),
                   warnIfAny(s.deadLetters.value(QStringLiteral("NEW"))));
    const int stale = s.staleRelays(StaleHeartbeatMs);
    m_tiles.value(QStringLiteral("relays"))
        ->setValue(QStringLiteral("%1/%2").arg(s.relays.size() - stale).arg(s.relays.size()),
                   relaysSeverity(s));

    const qint64 x = s.takenAt.toMSecsSinceEpoch();
    for (auto it = m_backlog.cbegin(); it != m_backlog.cend(); ++it) {
        it.value()->append(double(x), double(s.events.value(it.key())));
        it.value()->trim(HistoryPoints);
    }
    fitTimeAxis(m_backlogX, qint64(m_backlog.first()->firstX()), x);
    fitY(m_backlogY, m_backlog.values());

    const ThroughputTracker::Delta delta = m_throughput.add(s);
    if (!delta.first) {
        m_sent->append(double(x), double(delta.sent));
        m_failed->append(double(x), double(delta.failed));
        m_sent->trim(HistoryPoints);
        m_failed->trim(HistoryPoints);
        fitTimeAxis(m_rateX, qint64(m_sent->firstX()), x);
        fitY(m_rateY, {m_sent});
        fitY(m_failedY, {m_failed});
    }

    m_oldestChart->addSnapshot(s);
    m_leaseChart->addSnapshot(s);

    m_attempts->clear();
    auto* set = new QBarSet(tr("events"));
    QStringList categories;
    qint64 maxCount = 1;
    for (auto it = s.attemptsOfUnsent.cbegin(); it != s.attemptsOfUnsent.cend(); ++it) {
        categories << QString::number(it.key());
        *set << double(it.value());
        maxCount = std::max(maxCount, it.value());
    }
    m_attempts->append(set);
    m_attemptsX->setCategories(categories);
    niceCountAxis(m_attemptsY, double(maxCount));

    if (m_updated)
        m_updated->setText(tr("Updated %1 (%2 ms)%3")
                               .arg(Labels::time(s.takenAt))
                               .arg(s.queryMillis)
                               .arg(s.sentIsEstimate ? tr("; SENT is an estimate") : QString()));
    m_leases->setRowCount(s.leaseHolders.size());
    for (int i = 0; i < s.leaseHolders.size(); ++i) {
        const LeaseHolder& h = s.leaseHolders.at(i);
        const QStringList cells{h.workerId, QString::number(h.sending), QString::number(h.expired)};
        for (int c = 0; c < cells.size(); ++c) {
            auto* item = new QTableWidgetItem(cells.at(c));
            if (h.expired > 0)
                item->setBackground(QColor(0xff, 0xcd, 0xd2));
            m_leases->setItem(i, c, item);
        }
    }
    m_relays->setRowCount(s.relays.size());
    for (int i = 0; i < s.relays.size(); ++i) {
        const RelayRecord& r = s.relays.at(i);
        const bool isStale = r.heartbeatAgeMs > StaleHeartbeatMs;
        // A relay whose heartbeat stopped is not RUNNING, whatever its row last said.
        const QStringList cells{
            r.workerId, isStale ? tr("STALE, presumed dead (last reported %1)").arg(r.state) : r.state,
            Labels::age(r.heartbeatAgeMs), isStale ? tr("stale heartbeat") : tr("ok")};
        for (int c = 0; c < cells.size(); ++c) {
            auto* item = new QTableWidgetItem(cells.at(c));
            if (isStale)
                item->setBackground(QColor(0xff, 0xcd, 0xd2));
            m_relays->setItem(i, c, item);
        }
    }
    // Names and states whole, whatever the font size (the wallboard's is large).
    for (QTableWidget* t : {m_leases, m_relays})
        for (int c = 0; c + 1 < t->columnCount(); ++c)
            t->resizeColumnToContents(c);
}

} // namespace outbox::desktop
