#include "ui/desktop/consumers/ConsumersPage.h"

#include "core/db/InboxStore.h"
#include "ui/desktop/connection/DatabaseSession.h"
#include "ui/desktop/widgets/ChartAxes.h"
#include "ui/desktop/widgets/Controls.h"
#include "ui/desktop/widgets/EmptyHint.h"
#include "ui/desktop/widgets/Labels.h"
#include "ui/desktop/widgets/RecordTable.h"
#include "ui/desktop/widgets/RecordTableModel.h"

#include <QChart>
#include <QChartView>
#include <QComboBox>
#include <QDateTimeAxis>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QJsonArray>
#include <QLabel>
#include <QLineEdit>
#include <QLineSeries>
#include <QPushButton>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>
#include <QValueAxis>
#include <algorithm>
#include <cmath>

namespace outbox::desktop {

ConsumersPage::ConsumersPage(QWidget* parent) : QWidget(parent)
{
    setObjectName(QStringLiteral("consumersPage"));
    auto* layout = new QVBoxLayout(this);

    auto* bar = new QHBoxLayout;
    auto* refresh = controls::button(this, tr("Refresh"), QStringLiteral("consumersRefresh"));
    m_bootstrap = controls::filterEdit(this, QStringLiteral("consumersBootstrap"),
                                       tr("Kafka bootstrap for lag, e.g. localhost:9092"));
    m_info = controls::infoLabel(this, QStringLiteral("consumersInfo"));
    bar->addWidget(refresh);
    bar->addWidget(new QLabel(tr("Lag from:"), this));
    bar->addWidget(m_bootstrap, 1);
    bar->addWidget(m_info, 1);
    // Counting unconsumed events walks the SENT events: on a big inbox that takes a while, and
    // the operator may not want to wait for it.
    m_cancelReconcile =
        controls::button(this, tr("Cancel the count"), QStringLiteral("consumersCancelReconcile"));
    m_cancelReconcile->hide();
    bar->addWidget(m_cancelReconcile);
    connect(m_cancelReconcile, &QPushButton::clicked, this, &ConsumersPage::cancelReconcile);
    layout->addLayout(bar);

    auto* split = new QSplitter(Qt::Vertical, this);
    auto* top = new QSplitter(Qt::Horizontal, split);

    auto* left = new QWidget(top);
    auto* leftLayout = new QVBoxLayout(left);
    leftLayout->setContentsMargins(0, 0, 0, 0);
    m_consumers = new RecordTableModel({{QStringLiteral("consumer"), tr("Consumer")},
                                        {QStringLiteral("processed"), tr("Processed")},
                                        {QStringLiteral("failed"), tr("Failed")},
                                        {QStringLiteral("duplicates"), tr("Duplicates")},
                                        {QStringLiteral("dead_letters_new"), tr("Dead letters NEW")},
                                        {QStringLiteral("unconsumed"), tr("Unconsumed")},
                                        {QStringLiteral("last_processed_at"), tr("Last processed"), true},
                                        {QStringLiteral("total_lag"), tr("Lag")}},
                                       this);
    auto* consumerTable = new RecordTable(QStringLiteral("consumersTable"), m_consumers,
                                          QAbstractItemView::ExtendedSelection, left);
    m_consumerTable = consumerTable;
    m_consumerHint = consumerTable->hint();
    m_consumerHint->setReason(tr("Not connected."));
    leftLayout->addWidget(m_consumerTable, 2);
    m_lag = new RecordTableModel({{QStringLiteral("consumer"), tr("Consumer")},
                                  {QStringLiteral("topic"), tr("Topic")},
                                  {QStringLiteral("partition"), tr("Partition")},
                                  {QStringLiteral("committed_offset"), tr("Committed")},
                                  {QStringLiteral("high_watermark"), tr("High watermark")},
                                  {QStringLiteral("lag"), tr("Lag")}},
                                 this);
    m_lagTable = new RecordTable(QStringLiteral("consumerLagTable"), m_lag,
                                 QAbstractItemView::ExtendedSelection, left);
    leftLayout->addWidget(m_lagTable, 1);

    m_chart = new QChart;
    m_chart->setObjectName(QStringLiteral("consumerRateChart"));
    m_chart->setTitle(tr("Processed per minute"));
    m_chartX = new QDateTimeAxis;
    m_chartX->setFormat(QStringLiteral("HH:mm"));
    m_chartY = new QValueAxis;
    m_chart->addAxis(m_chartX, Qt::AlignBottom);
    m_chart->addAxis(m_chartY, Qt::AlignLeft);
    // Whole, round steps: an idle consumer's axis reads 0 1, not 1 1 1 0 0.
    niceCountAxis(m_chartY, 0);
    keepCountLabels(m_chart);
    auto* chartView = new QChartView(m_chart, top);
    chartView->setObjectName(QStringLiteral("consumerRateChartView"));
    chartView->setRenderHint(QPainter::Antialiasing);
    chartView->setMinimumWidth(320);
    top->addWidget(left);
    top->addWidget(chartView);
    top->setStretchFactor(0, 3);
    top->setStretchFactor(1, 2);

    auto* inboxBox = new QGroupBox(tr("Inbox"), split);
    auto* inboxLayout = new QVBoxLayout(inboxBox);
    auto* filters = new QHBoxLayout;
    m_inboxConsumer = new QLineEdit(inboxBox);
    m_inboxConsumer->setObjectName(QStringLiteral("inboxConsumer"));
    m_inboxConsumer->setPlaceholderText(tr("consumer (exact)"));
    m_inboxStatus = controls::statusBox(inboxBox, QStringLiteral("inboxStatus"), tr("Any status"),
                                        {QStringLiteral("PROCESSED"), QStringLiteral("FAILED")});
    m_inboxEventId = new QLineEdit(inboxBox);
    m_inboxEventId->setObjectName(QStringLiteral("inboxEventId"));
    m_inboxEventId->setPlaceholderText(tr("event id (exact)"));
    auto* apply = controls::button(inboxBox, tr("Apply"), QStringLiteral("inboxApply"));
    m_inboxMore = controls::button(inboxBox, tr("Load more"), QStringLiteral("inboxMore"));
    m_inboxMore->setEnabled(false);
    m_inboxInfo = controls::infoLabel(inboxBox, QStringLiteral("inboxInfo"));
    filters->addWidget(m_inboxConsumer, 1);
    filters->addWidget(m_inboxStatus);
    filters->addWidget(m_inboxEventId, 2);
    filters->addWidget(apply);
    filters->addWidget(m_inboxMore);
    filters->addWidget(m_inboxInfo, 1);
    inboxLayout->addLayout(filters);
    m_inbox = new RecordTableModel({{QStringLiteral("id"), tr("Id")},
                                    {QStringLiteral("consumer"), tr("Consumer")},
                                    {QStringLiteral("status"), tr("Status")},
                                    {QStringLiteral("attempts"), tr("Attempts")},
                                    {QStringLiteral("event_id"), tr("Event id")},
                                    {QStringLiteral("aggregate_id"), tr("Aggregate")},
                                    {QStringLiteral("processed_at"), tr("At"), true},
                                    {QStringLiteral("last_error"), tr("Last error")},
                                    {QStringLiteral("traceparent"), tr("Trace (traceparent)")}},
                                   this);
    auto* inboxTable = new RecordTable(QStringLiteral("inboxTable"), m_inbox,
                                       QAbstractItemView::ExtendedSelection, inboxBox);
    m_inboxTable = inboxTable;
    m_inboxHint = inboxTable->hint();
    m_inboxHint->setReason(tr("Not connected."));
    inboxLayout->addWidget(m_inboxTable, 1);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    layout->addWidget(split, 1);

    connect(refresh, &QPushButton::clicked, this, &ConsumersPage::refresh);
    connect(m_bootstrap, &QLineEdit::returnPressed, this, &ConsumersPage::refresh);
    connect(apply, &QPushButton::clicked, this, &ConsumersPage::reloadInbox);
    connect(m_inboxEventId, &QLineEdit::returnPressed, this, &ConsumersPage::reloadInbox);
    connect(m_inboxConsumer, &QLineEdit::returnPressed, this, &ConsumersPage::reloadInbox);
    connect(m_inboxMore, &QPushButton::clicked, this, &ConsumersPage::loadMoreInbox);
    // A double click on a consumer opens its inbox below.
    connect(m_consumerTable, &QTableView::doubleClicked, this, [this](const QModelIndex& index) {
        if (!index.isValid() || index.row() >= m_consumers->rowCount())
            return;
        m_inboxConsumer->setText(
            m_consumers->record(index.row()).value(QStringLiteral("consumer")).toString());
        reloadInbox();
    });
}

void ConsumersPage::setContext(const ConsoleContext& context)
{
    m_context = context;
    m_overviewStale = true;
    if (isVisible() || !context.browse)
        refresh();
    reloadInbox();
}

void ConsumersPage::showEvent(QShowEvent* event)
{
    QWidget::showEvent(event);
    if (m_overviewStale)
        refresh();
}

void ConsumersPage::refresh()
{
    ++m_overviewGeneration;
    m_overviewStale = false;
    if (m_reconcileCancelled)
        m_reconcileCancelled->store(true);
    m_cancelReconcile->hide();
    if (!m_context.analysis && !m_context.browse) {
        m_consumers->setRows({});
        m_lag->setRows({});
        m_consumerHint->setReason(tr("Not connected."));
        m_info->clear();
        return;
    }
    // First the fast figures (counts and rates, on the browsing connection), then the slow ones
    // (unconsumed events, lag) on the analysis connection, cancellable; neither on this thread.
    DatabaseSession* fast = m_context.browse ? m_context.browse : m_context.analysis;
    ConsumerOverviewQuery::Options options;
    options.lag.bootstrap = m_bootstrap->text().trimmed();
    options.lag.timeoutMs = 5000;
    ConsumerOverviewQuery::Options quick = options;
    quick.reconcile = false;
    quick.lag.bootstrap.clear();
    const quint64 generation = m_overviewGeneration;
    m_loadingOverview = true;
    m_info->setText(tr("Reading the consumers…"));
    m_consumerHint->setReason(tr("Reading the consumers…"));
    fast->run<ConsumerOverview>(
        this, [quick](Database& db) { return ConsumerOverviewQuery(db).load(quick); },
        [this, generation, options](const Result<ConsumerOverview>& r) {
            if (generation != m_overviewGeneration)
                return;
            m_loadingOverview = false;
            if (!r.ok()) {
                m_info->setText(tr("Cannot read the consumers: %1").arg(r.message()));
                m_consumerHint->setReason(tr("Cannot read the consumers: %1").arg(r.message()));
                emit statusMessage(r.message());
                return;
            }
            m_figures = *r;
            showOverview(*r);
            emit figuresLoaded();
            ConsumerOverviewQuery::Options counts = options;
            counts.figures = false; // shown already: only the counts and the lag are left
            for (const ConsumerSummary& c : r->consumers)
                counts.consumers << c.consumerName;
            if (!counts.consumers.isEmpty())
                reconcile(generation, counts);
            else
                emit overviewLoaded();
        });
}

void ConsumersPage::reconcile(quint64 generation, const ConsumerOverviewQuery::Options& given)
{
    DatabaseSession* slow = m_context.analysis ? m_context.analysis : m_context.browse;
    if (!slow)
        return;
    ConsumerOverviewQuery::Options options = given;
    m_reconcileCancelled = std::make_shared<std::atomic<bool>>(false);
    options.cancelled = m_reconcileCancelled;
    const QString figures = m_info->text();
    m_info->setText(tr("%1 — counting unconsumed events…").arg(figures));
    m_cancelReconcile->show();
    m_cancelReconcile->setEnabled(true);
    const auto cancelled = m_reconcileCancelled;
    slow->run<ConsumerOverview>(
        this, [options](Database& db) { return ConsumerOverviewQuery(db).load(options); },
        [this, generation, cancelled, figures](const Result<ConsumerOverview>& r) {
            if (generation != m_overviewGeneration || cancelled->load())
                return;
            m_cancelReconcile->hide();
            if (!r.ok()) {
                m_info->setText(tr("%1 — unconsumed events not counted: %2").arg(figures, r.message()));
                emit statusMessage(r.message());
                return;
            }
            showOverview(m_figures.withCountsOf(*r));
            emit overviewLoaded();
        });
}

void ConsumersPage::cancelReconcile()
{
    if (!m_reconcileCancelled)
        return;
    m_reconcileCancelled->store(true);
    m_cancelReconcile->hide();
    QString info = m_info->text();
    info.replace(tr("counting unconsumed events…"), tr("count of unconsumed events cancelled"));
    m_info->setText(info);
}

void ConsumersPage::showOverview(const ConsumerOverview& overview)
{
    const QJsonObject json = overview.toJson();
    QVector<QJsonObject> rows;
    QVector<QJsonObject> lagRows;
    for (const QJsonValue& v : json.value(QStringLiteral("consumers")).toArray()) {
        rows << v.toObject();
        for (const QJsonValue& l : v.toObject().value(QStringLiteral("lag")).toArray())
            lagRows << l.toObject();
    }
    m_consumers->setRows(rows);
    m_lag->setRows(lagRows);
    m_lagTable->setVisible(overview.lagQueried);
    m_consumerHint->setReason(tr("No consumer has written to the inbox or the dead letters yet."));

    // The rate chart: one line per consumer, processed per minute for each bucket.
    m_chart->removeAllSeries();
    const double perMinute = 60000.0 / double(std::max<qint64>(1, overview.bucketMs));
    double max = 0;
    for (const ConsumerSummary& c : overview.consumers) {
        auto* series = new QLineSeries;
        series->setName(c.consumerName);
        for (int i = 0; i < c.rateCounts.size(); ++i) {
            const double y = double(c.rateCounts.at(i)) * perMinute;
            max = std::max(max, y);
            series->append(double(overview.rateSince.addMSecs(overview.bucketMs * i + overview.bucketMs / 2)
                                      .toMSecsSinceEpoch()),
                           y);
        }
        m_chart->addSeries(series);
        series->attachAxis(m_chartX);
        series->attachAxis(m_chartY);
    }
    m_chartX->setRange(overview.rateSince.toLocalTime(), overview.takenAt.toLocalTime());
    niceCountAxis(m_chartY, std::ceil(max));

    QString info = tr("%n consumer(s), as of %1", nullptr, int(overview.consumers.size()))
                       .arg(Labels::time(overview.takenAt.toLocalTime()));
    if (!overview.lagError.isEmpty())
        info += QLatin1String(" — ") + tr("lag unavailable: %1").arg(overview.lagError);
    m_info->setText(info);
}

void ConsumersPage::reloadInbox()
{
    ++m_inboxGeneration;
    m_inboxCursor = 0;
    m_inbox->setRows({});
    m_inboxInfo->clear();
    m_inboxMore->setEnabled(false);
    if (!m_context.browse) {
        m_inboxHint->setReason(tr("Not connected."));
        return;
    }
    InboxFilter filter;
    filter.consumerName = m_inboxConsumer->text().trimmed();
    filter.status = m_inboxStatus->currentData().toString();
    filter.eventId = m_inboxEventId->text().trimmed();
    m_loadedFilter = filter;
    loadMoreInbox();
}

void ConsumersPage::loadMoreInbox()
{
    if (!m_context.browse || m_inboxCursor < 0)
        return;
    const InboxFilter filter = m_loadedFilter; // further pages of the list on screen
    const qint64 after = m_inboxCursor;
    const quint64 generation = m_inboxGeneration;
    m_inboxMore->setEnabled(false);
    m_context.browse->run<InboxPage>(
        this, [filter, after](Database& db) { return InboxStore(db).list(filter, after, InboxPageSize); },
        [this, generation](const Result<InboxPage>& r) {
            if (generation != m_inboxGeneration)
                return;
            if (!r.ok()) {
                m_inboxInfo->setText(r.message());
                emit statusMessage(r.message());
                return;
            }
            m_inbox->appendRecords(r->records);
            m_inboxCursor = r->nextAfterId > 0 ? r->nextAfterId : -1;
            m_inboxMore->setEnabled(m_inboxCursor > 0);
            m_inboxInfo->setText(tr("%n row(s)", nullptr, m_inbox->rowCount()));
            m_inboxHint->setReason(tr("No inbox rows match the filter."));
            emit inboxLoaded();
        });
}

} // namespace outbox::desktop
