#include "ui/desktop/overview/OverviewPage.h"

#include "ui/desktop/overview/StatTile.h"

#include <QBarCategoryAxis>
#include <QBarSeries>
#include <QBarSet>
#include <QChart>
#include <QChartView>
#include <QCheckBox>
#include <QComboBox>
#include <QDateTimeAxis>
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

void trim(QLineSeries* series, int points)
{
    if (series->count() > points)
        series->removePoints(0, series->count() - points);
}

void fitY(QValueAxis* axis, const QList<QLineSeries*>& series)
{
    double max = 1;
    for (QLineSeries* s : series)
        for (const QPointF& p : s->points())
            max = std::max(max, p.y());
    axis->setRange(0, max * 1.15);
}

} // namespace

OverviewPage::OverviewPage(bool wallboard, QWidget* parent) : QWidget(parent), m_wallboard(wallboard)
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
        m_updated = new QLabel(this);
        m_updated->setObjectName(QStringLiteral("lastUpdated"));
        controls->addWidget(m_updated);
        auto* wall = new QPushButton(tr("Wallboard"), this);
        wall->setObjectName(QStringLiteral("wallboardButton"));
        controls->addWidget(wall);
        layout->addLayout(controls);
        connect(m_interval, &QComboBox::currentIndexChanged, this,
                [this](int) { emit intervalChanged(m_interval->currentData().toInt()); });
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
        tile->setScale(wallboard ? 3.0 : 1.0);
        tiles->addWidget(tile);
        m_tiles.insert(spec.first, tile);
    }
    layout->addLayout(tiles);

    auto* grid = new QGridLayout;
    layout->addLayout(grid, 1);

    m_backlogChart = new QChart;
    m_backlogChart->setTitle(tr("Backlog by status"));
    m_backlogX = new QDateTimeAxis;
    m_backlogX->setFormat(QStringLiteral("HH:mm:ss"));
    m_backlogY = new QValueAxis;
    m_backlogY->setLabelFormat(QStringLiteral("%d"));
    m_backlogChart->addAxis(m_backlogX, Qt::AlignBottom);
    m_backlogChart->addAxis(m_backlogY, Qt::AlignLeft);
    for (const QString& status : {QStringLiteral("PENDING"), QStringLiteral("SENDING"),
                                  QStringLiteral("FAILED"), QStringLiteral("DEAD")}) {
        auto* series = new QLineSeries;
        series->setName(status);
        series->setColor(statusColour(status));
        m_backlogChart->addSeries(series);
        series->attachAxis(m_backlogX);
        series->attachAxis(m_backlogY);
        m_backlog.insert(status, series);
    }
    grid->addWidget(makeChartView(m_backlogChart), 0, 0);

    auto* rateChart = new QChart;
    rateChart->setTitle(tr("Sent and failed per interval"));
    m_rateX = new QDateTimeAxis;
    m_rateX->setFormat(QStringLiteral("HH:mm:ss"));
    m_rateY = new QValueAxis;
    m_rateY->setLabelFormat(QStringLiteral("%d"));
    rateChart->addAxis(m_rateX, Qt::AlignBottom);
    rateChart->addAxis(m_rateY, Qt::AlignLeft);
    m_sent = new QLineSeries;
    m_sent->setName(tr("sent"));
    m_sent->setColor(QColor(0x2e, 0x7d, 0x32));
    m_failed = new QLineSeries;
    m_failed->setName(tr("failed"));
    m_failed->setColor(QColor(0xc6, 0x28, 0x28));
    for (QLineSeries* s : {m_sent, m_failed}) {
        rateChart->addSeries(s);
        s->attachAxis(m_rateX);
        s->attachAxis(m_rateY);
    }
    grid->addWidget(makeChartView(rateChart), 0, 1);

    auto* attemptsChart = new QChart;
    attemptsChart->setTitle(tr("Attempts of unsent events"));
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

    auto* tables = new QVBoxLayout;
    m_leases = new QTableWidget(0, 3, this);
    m_leases->setObjectName(QStringLiteral("leaseHolders"));
    m_leases->setHorizontalHeaderLabels({tr("Worker"), tr("Sending"), tr("Expired leases")});
    m_relays = new QTableWidget(0, 4, this);
    m_relays->setObjectName(QStringLiteral("overviewRelays"));
    m_relays->setHorizontalHeaderLabels({tr("Relay"), tr("State"), tr("Heartbeat age"), tr("Health")});
    for (QTableWidget* t : {m_leases, m_relays}) {
        if (wallboard) {
            QFont f = t->font();
            f.setPointSize(16);
            t->setFont(f);
            t->verticalHeader()->setDefaultSectionSize(36);
        }
        t->setEditTriggers(QAbstractItemView::NoEditTriggers);
        t->horizontalHeader()->setStretchLastSection(true);
        t->verticalHeader()->hide();
    }
    tables->addWidget(new QLabel(tr("Lease holders"), this));
    tables->addWidget(m_leases);
    tables->addWidget(new QLabel(tr("Relays"), this));
    tables->addWidget(m_relays);
    auto* tableBox = new QWidget(this);
    tableBox->setLayout(tables);
    grid->addWidget(tableBox, 1, 1);
}

QChartView* OverviewPage::makeChartView(QChart* chart)
{
    if (m_wallboard) {
        QFont f = chart->titleFont();
        f.setPointSize(18);
        chart->setTitleFont(f);
        QFont lf = chart->legend()->font();
        lf.setPointSize(14);
        chart->legend()->setFont(lf);
        for (QAbstractAxis* axis : chart->axes()) {
            QFont af = axis->labelsFont();
            af.setPointSize(13);
            axis->setLabelsFont(af);
        }
    }
    chart->setAnimationOptions(QChart::NoAnimation);
    auto* view = new QChartView(chart, this);
    view->setRenderHint(QPainter::Antialiasing);
    view->setMinimumHeight(m_wallboard ? 300 : 200);
    return view;
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

QString OverviewPage::formatAge(qint64 ms)
{
    if (ms < 0)
        return tr("none");
    if (ms < 60000)
        return tr("%1 s").arg(ms / 1000);
    if (ms < 3600000)
        return tr("%1 min").arg(ms / 60000);
    if (ms < 86400000)
        return tr("%1 h").arg(QString::number(double(ms) / 3600000.0, 'f', 1));
    return tr("%1 d").arg(QString::number(double(ms) / 86400000.0, 'f', 1));
}

int OverviewPage::pointCount() const
{
    return int(m_backlog.value(QStringLiteral("PENDING"))->count());
}

void OverviewPage::clearHistory()
{
    for (QLineSeries* s : std::as_const(m_backlog))
        s->clear();
    m_sent->clear();
    m_failed->clear();
    m_throughput.reset();
}

void OverviewPage::showSnapshot(const MetricsSnapshot& s)
{
    const QLocale locale;
    m_tiles.value(QStringLiteral("oldest"))
        ->setValue(formatAge(s.oldestPendingAgeMs), s.oldestPendingAgeMs > 300000);
    m_tiles.value(QStringLiteral("PENDING"))
        ->setValue(locale.toString(s.events.value(QStringLiteral("PENDING"))));
    m_tiles.value(QStringLiteral("FAILED"))
        ->setValue(locale.toString(s.events.value(QStringLiteral("FAILED"))),
                   s.events.value(QStringLiteral("FAILED")) > 0);
    m_tiles.value(QStringLiteral("DEAD"))
        ->setValue(locale.toString(s.events.value(QStringLiteral("DEAD"))),
                   s.events.value(QStringLiteral("DEAD")) > 0);
    m_tiles.value(QStringLiteral("dlq"))
        ->setValue(locale.toString(s.deadLetters.value(QStringLiteral("NEW"))),
                   s.deadLetters.value(QStringLiteral("NEW")) > 0);
    const int stale = s.staleRelays(StaleHeartbeatMs);
    m_tiles.value(QStringLiteral("relays"))
        ->setValue(QStringLiteral("%1/%2").arg(s.relays.size() - stale).arg(s.relays.size()), stale > 0);

    const qint64 x = s.takenAt.toMSecsSinceEpoch();
    for (auto it = m_backlog.cbegin(); it != m_backlog.cend(); ++it) {
        it.value()->append(double(x), double(s.events.value(it.key())));
        trim(it.value(), HistoryPoints);
    }
    const QDateTime from = QDateTime::fromMSecsSinceEpoch(qint64(m_backlog.first()->at(0).x()));
    m_backlogX->setRange(from, s.takenAt.addSecs(1));
    fitY(m_backlogY, m_backlog.values());

    const ThroughputTracker::Delta delta = m_throughput.add(s);
    if (!delta.first) {
        m_sent->append(double(x), double(delta.sent));
        m_failed->append(double(x), double(delta.failed));
        trim(m_sent, HistoryPoints);
        trim(m_failed, HistoryPoints);
        m_rateX->setRange(QDateTime::fromMSecsSinceEpoch(qint64(m_sent->at(0).x())), s.takenAt.addSecs(1));
        fitY(m_rateY, {m_sent, m_failed});
    }

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
    m_attemptsY->setRange(0, double(maxCount) * 1.15);

    if (m_updated)
        m_updated->setText(tr("Updated %1 (%2 ms)%3")
                               .arg(locale.toString(s.takenAt.toLocalTime().time(), QLocale::ShortFormat))
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
        const QStringList cells{r.workerId, r.state, formatAge(r.heartbeatAgeMs),
                                isStale ? tr("stale heartbeat") : tr("ok")};
        for (int c = 0; c < cells.size(); ++c) {
            auto* item = new QTableWidgetItem(cells.at(c));
            if (isStale)
                item->setBackground(QColor(0xff, 0xcd, 0xd2));
            m_relays->setItem(i, c, item);
        }
    }
}

} // namespace outbox::desktop
