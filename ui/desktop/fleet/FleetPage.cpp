#include "ui/desktop/fleet/FleetPage.h"

#include "core/fleet/FleetSampler.h"
#include "ui/desktop/fleet/BacklogSparklineDelegate.h"
#include "ui/desktop/fleet/FleetTableModel.h"
#include "ui/desktop/widgets/Controls.h"
#include "ui/desktop/widgets/Labels.h"
#include "ui/desktop/widgets/RecordTable.h"

#include <QDateTime>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QVBoxLayout>
#include <algorithm>

namespace outbox::desktop {

FleetPage::FleetPage(const Fleet& fleet, const DiagnosisOptions& options, QWidget* parent)
    : QWidget(parent), m_fleet(fleet)
{
    setObjectName(QStringLiteral("fleetPage"));
    auto* layout = new QVBoxLayout(this);
    auto* bar = new QHBoxLayout;
    m_filter = controls::filterEdit(this, QStringLiteral("fleetFilter"),
                                    tr("Filter by name or tag (team=checkout)"));
    bar->addWidget(new QLabel(tr("Filter:"), this));
    bar->addWidget(m_filter, 1);
    m_summary = controls::infoLabel(this, QStringLiteral("fleetSummary"));
    bar->addWidget(m_summary, 2);
    layout->addLayout(bar);

    m_model = new FleetTableModel(this);
    m_filtered = new QSortFilterProxyModel(this);
    m_filtered->setSourceModel(m_model);
    m_filtered->setFilterRole(FleetTableModel::FilterTextRole);
    m_filtered->setFilterCaseSensitivity(Qt::CaseInsensitive);
    m_filtered->setFilterKeyColumn(FleetTableModel::Member);
    connect(m_filter, &QLineEdit::textChanged, m_filtered, &QSortFilterProxyModel::setFilterFixedString);

    m_table =
        new RecordTable(QStringLiteral("fleetTable"), m_filtered, QAbstractItemView::SingleSelection, this);
    m_table->setItemDelegateForColumn(FleetTableModel::Trend, new BacklogSparklineDelegate(m_table));
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    // Unlike the other record tables: at 1280 px the error (last, stretching) wraps onto up to three
    // lines and the other texts are whole (fitColumns); anything still cut off is whole in its tooltip.
    m_table->setWordWrap(true);
    m_table->setTextElideMode(Qt::ElideRight);
    m_table->verticalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_table->verticalHeader()->setMaximumSectionSize(m_table->fontMetrics().lineSpacing() * MaxErrorLines +
                                                     8);
    m_table->setColumnWidth(FleetTableModel::Trend, 120);
    connect(m_table, &QTableView::doubleClicked, this, &FleetPage::openRow);
    connect(m_table, &QTableView::activated, this, &FleetPage::openRow); // Enter on a row
    layout->addWidget(m_table, 1);
    auto* hint =
        new QLabel(tr("Double-click a member (or press Enter) to open it in the console's pages."), this);
    layout->addWidget(hint);

    m_summary->setText(
        tr("%n member(s) of %1, sampling…", nullptr, int(m_fleet.members().size())).arg(m_fleet.file()));
    m_sampler = std::make_unique<FleetSampler>(m_fleet, options);
    connect(m_sampler.get(), &FleetSampler::tickFinished, this, &FleetPage::showTick);
    m_sampler->start();
}

FleetPage::~FleetPage()
{
    // Stops ticking without waiting: samples still out (a member that never answers) end on their
    // own threads and their results are dropped.
    m_sampler.reset();
}

void FleetPage::showTick(const QVector<MemberSample>& samples)
{
    ++m_ticks;
    const QString selected = m_table->currentIndex().data(FleetTableModel::MemberNameRole).toString();
    m_model->update(samples);
    fitColumns();
    if (!selected.isEmpty())
        for (int row = 0; row < m_filtered->rowCount(); ++row) {
            const QModelIndex i = m_filtered->index(row, 0);
            if (i.data(FleetTableModel::MemberNameRole).toString() == selected)
                m_table->setCurrentIndex(i);
        }
    int sick = 0;
    for (const MemberSample& s : samples)
        sick += s.state != MemberSample::State::Ok;
    m_summary->setText(
        tr("%n member(s) of %1, %2 not ok; sampled at %3 (every %4)", nullptr, int(samples.size()))
            .arg(m_fleet.file())
            .arg(sick)
            .arg(Labels::time(QDateTime::currentDateTime()))
            .arg(Labels::age(m_fleet.intervalMs())));
}

void FleetPage::fitColumns()
{
    // Numbers, states, findings and tags as wide as their widest text, within a fifth of the table
    // each (a long list of tags wraps); the error takes the rest.
    const int cap = std::max(160, m_table->viewport()->width() / 5);
    for (int c = 0; c < FleetTableModel::ErrorText; ++c) {
        if (c == FleetTableModel::Trend)
            continue;
        m_table->resizeColumnToContents(c);
        if (m_table->columnWidth(c) > cap)
            m_table->setColumnWidth(c, cap);
    }
}

void FleetPage::openRow(const QModelIndex& index)
{
    const QString name = index.data(FleetTableModel::MemberNameRole).toString();
    if (!name.isEmpty())
        emit memberOpened(name);
}

} // namespace outbox::desktop
