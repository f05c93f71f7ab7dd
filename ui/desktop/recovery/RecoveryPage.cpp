#include "ui/desktop/recovery/RecoveryPage.h"

#include "core/diagnosis/DiagnosisMonitor.h"
#include "ui/desktop/connection/DatabaseSession.h"
#include "ui/desktop/recovery/FindingsModel.h"
#include "ui/desktop/recovery/RecoveryFlow.h"
#include "ui/desktop/widgets/Controls.h"
#include "ui/desktop/widgets/RecordTable.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QPushButton>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>

namespace outbox::desktop {

RecoveryPage::RecoveryPage(QWidget* parent) : QWidget(parent)
{
    auto* layout = new QHBoxLayout(this);
    auto* split = new QSplitter(Qt::Horizontal, this);
    auto* left = new QWidget(split);
    auto* leftLayout = new QVBoxLayout(left);
    auto* top = new QHBoxLayout;
    m_lastRun = controls::paragraph(left, QStringLiteral("doctorLastRun"));
    m_lastRun->setText(tr("The doctor has not run yet."));
    m_runNow = controls::button(left, tr("Run the doctor now"), QStringLiteral("runDoctor"));
    m_runNow->setEnabled(false);
    top->addWidget(m_lastRun, 1);
    top->addWidget(m_runNow);
    leftLayout->addLayout(top);
    m_model = new FindingsModel(this);
    auto* table = new RecordTable(QStringLiteral("recoveryFindings"), m_model,
                                  QAbstractItemView::SingleSelection, left);
    m_table = table;
    // The title takes the room and keeps its beginning; severity, check and count fit their text.
    m_table->setTextElideMode(Qt::ElideRight);
    m_table->horizontalHeader()->setStretchLastSection(false);
    m_table->horizontalHeader()->setSectionResizeMode(FindingsModel::TitleColumn, QHeaderView::Stretch);
    m_table->horizontalHeader()->setSectionResizeMode(FindingsModel::SeverityColumn,
                                                      QHeaderView::ResizeToContents);
    m_table->horizontalHeader()->setSectionResizeMode(FindingsModel::CheckColumn,
                                                      QHeaderView::ResizeToContents);
    m_table->horizontalHeader()->setSectionResizeMode(FindingsModel::CountColumn,
                                                      QHeaderView::ResizeToContents);
    leftLayout->addWidget(m_table, 1);
    m_flow = new RecoveryFlow(split);
    split->addWidget(left);
    split->addWidget(m_flow);
    split->setStretchFactor(0, 2);
    split->setStretchFactor(1, 3);
    layout->addWidget(split);

    connect(m_runNow, &QPushButton::clicked, this, &RecoveryPage::runDoctor);
    connect(table, &RecordTable::currentRowChanged, this, &RecoveryPage::choose);
    connect(m_flow, &RecoveryFlow::statusMessage, this, &RecoveryPage::statusMessage);
    connect(m_flow, &RecoveryFlow::acted, this, &RecoveryPage::runDoctor);
    connect(m_flow, &RecoveryFlow::startManagedRelay, this, &RecoveryPage::startManagedRelay);
    connect(m_flow, &RecoveryFlow::done, this, [this]() {
        m_table->clearSelection();
        m_table->setCurrentIndex(QModelIndex());
        m_flow->clear();
    });
}

RecoveryPage::~RecoveryPage() = default;

void RecoveryPage::setContext(const ConsoleContext& context, const DiagnosisOptions& options)
{
    m_context = context;
    m_monitor.reset();
    m_model->setFindings({});
    m_flow->clear();
    m_reports = 0;
    m_lastReport.invalidate();
    emit countsChanged(0, 0);
    m_runNow->setEnabled(context.browse != nullptr);
    if (!context.browse) {
        m_lastRun->setText(tr("Not connected."));
        m_flow->setContext(context, options);
        return;
    }
    DiagnosisOptions doctor = options;
    doctor.connectionArguments = context.target.outboxctlArguments();
    m_flow->setContext(context, doctor);
    m_monitor = std::make_unique<DiagnosisMonitor>(context.target, doctor);
    connect(m_monitor.get(), &DiagnosisMonitor::reportReady, this, &RecoveryPage::showReport);
    connect(m_monitor.get(), &DiagnosisMonitor::failed, this, [this](const QString& message) {
        m_lastRun->setText(tr("The doctor cannot read the database: %1").arg(message));
    });
    m_lastRun->setText(tr("The doctor is running…"));
    m_monitor->start(IntervalMs);
}

void RecoveryPage::runDoctor()
{
    if (m_monitor)
        m_monitor->runNow();
}

void RecoveryPage::showReport(const DiagnosisReport& report)
{
    ++m_reports;
    // Keep the operator's place: the chosen finding stays selected while it exists.
    const QModelIndex current = m_table->currentIndex();
    const QString chosen = current.isValid() ? m_model->data(current, Qt::UserRole).toString() : QString();
    QSignalBlocker block(m_table->selectionModel());
    m_model->setFindings(report.findings);
    const int row = chosen.isEmpty() ? -1 : m_model->rowOfKey(chosen);
    if (row >= 0)
        m_table->setCurrentIndex(m_model->index(row, 0));
    // The finding on screen says what is true now: an action offered for "123" events must not
    // stay on screen once 122 remain (before the preview, which counts again anyway).
    if (m_flow->step() == RecoveryFlow::WhatHappened && !chosen.isEmpty()) {
        if (const Finding* f = m_model->at(row))
            m_flow->refreshFinding(*f);
        else
            m_flow->clear(); // it went away
    }
    m_lastReport.start();
    const int critical = report.count(Severity::Critical);
    const int warning = report.count(Severity::Warning);
    m_lastRun->setText(
        report.findings.isEmpty()
            ? tr("No findings (checked %1).").arg(QLocale().toString(report.takenAt.toLocalTime().time()))
            : tr("%1 critical, %2 warning, %3 info (checked %4).")
                  .arg(critical)
                  .arg(warning)
                  .arg(report.count(Severity::Info))
                  .arg(QLocale().toString(report.takenAt.toLocalTime().time())));
    emit countsChanged(critical, warning);
}

void RecoveryPage::choose(int row)
{
    const Finding* f = m_model->at(row);
    if (!f) {
        return;
    }
    if (m_flow->step() == RecoveryFlow::Running)
        return; // a run is under way: it finishes (or is cancelled) first
    if (m_flow->step() != RecoveryFlow::WhatHappened && m_flow->finding().key == f->key)
        return; // mid-flow on this finding: keep going
    m_flow->showFinding(*f);
    // Counts older than a few seconds are checked again before the operator acts on them.
    if (!m_lastReport.isValid() || m_lastReport.elapsed() > FreshReportMs)
        runDoctor();
}

} // namespace outbox::desktop
