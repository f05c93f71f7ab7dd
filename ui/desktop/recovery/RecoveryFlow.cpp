#include "ui/desktop/recovery/RecoveryFlow.h"

#include "core/db/DeadLetterStore.h"
#include "core/diagnosis/Doctor.h"
#include "core/diagnosis/PreparedActionRunner.h"
#include "ui/desktop/actions/PreviewSample.h"
#include "ui/desktop/connection/DatabaseSession.h"
#include "ui/desktop/widgets/Controls.h"
#include "ui/desktop/widgets/DeadLetterText.h"
#include "ui/desktop/widgets/EventInspector.h"
#include "ui/desktop/widgets/Labels.h"

#include <QApplication>
#include <QClipboard>
#include <QCoreApplication>
#include <QDialog>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPlainTextEdit>
#include <QPointer>
#include <QProgressBar>
#include <QPushButton>
#include <QScrollArea>
#include <QSplitter>
#include <QStackedWidget>
#include <QTableWidget>
#include <QVBoxLayout>

namespace outbox::desktop {

namespace {

QString time(const QDateTime& t)
{
    return t.isValid() ? QLocale().toString(t.toLocalTime(), QStringLiteral("yyyy-MM-dd HH:mm:ss"))
                       : QString();
}

QListWidget* list(const QString& name, QWidget* parent)
{
    auto* w = new QListWidget(parent);
    w->setObjectName(name);
    w->setWordWrap(true);
    w->setTextElideMode(Qt::ElideNone);
    return w;
}

// A step's page inside a scroll area: a long evidence text or audit summary scrolls within the
// page instead of making the window taller than the screen.
void addScrolled(QStackedWidget* steps, QWidget* page)
{
    auto* scroll = new QScrollArea(steps);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    scroll->setWidget(page);
    steps->addWidget(scroll);
}

// Two lines at least; the rest of the height is the splitter's to share.
void keepLow(QListWidget* list)
{
    list->setMinimumHeight(list->fontMetrics().lineSpacing() * 2 + 2 * list->frameWidth() + 4);
}

} // namespace

RecoveryFlow::RecoveryFlow(QWidget* parent) : QWidget(parent)
{
    auto* layout = new QVBoxLayout(this);
    m_stepLabel = controls::infoLabel(this, QStringLiteral("recoveryStep"));
    QFont bold = m_stepLabel->font();
    bold.setBold(true);
    m_stepLabel->setFont(bold);
    layout->addWidget(m_stepLabel);
    m_steps = new QStackedWidget(this);
    layout->addWidget(m_steps, 1);
    buildWhatHappened();
    buildPreview();
    buildRunning();
    buildVerification();
    clear();
}

void RecoveryFlow::buildWhatHappened()
{
    auto* page = new QWidget(m_steps);
    auto* layout = new QVBoxLayout(page);
    m_title = controls::paragraph(page, QStringLiteral("findingTitle"), true);
    QFont big = m_title->font();
    big.setPointSizeF(big.pointSizeF() * 1.2);
    big.setBold(true);
    m_title->setFont(big);
    layout->addWidget(m_title);

    auto* happened = new QGroupBox(tr("What happened"), page);
    auto* happenedLayout = new QVBoxLayout(happened);
    m_evidence = controls::paragraph(happened, QStringLiteral("findingEvidence"), true);
    // Long evidence scrolls in its box: a word-wrapped label's height would otherwise become the
    // page's least height and make the window taller than a laptop's screen.
    happenedLayout->addWidget(
        controls::scrollBox(m_evidence, happened, QStringLiteral("findingEvidenceScroll")), 1);
    auto* samplesRow = new QHBoxLayout;
    m_samples = list(QStringLiteral("findingSamples"), happened);
    m_samples->setFlow(QListView::LeftToRight);
    m_samples->setWrapping(true);
    m_samples->setMaximumHeight(m_samples->fontMetrics().height() * 4);
    m_openSample = controls::button(happened, tr("Open in inspector"), QStringLiteral("openSample"));
    samplesRow->addWidget(m_samples, 1);
    samplesRow->addWidget(m_openSample);
    happenedLayout->addLayout(samplesRow);
    connect(m_samples, &QListWidget::itemDoubleClicked, this,
            [this](QListWidgetItem* item) { openSample(m_samples->row(item)); });
    connect(m_openSample, &QPushButton::clicked, this, [this]() { openSample(m_samples->currentRow()); });
    connect(m_samples, &QListWidget::currentRowChanged, this, [this](int row) {
        m_openSample->setEnabled(row >= 0 && m_finding.evidence.sampleKind != QLatin1String("relay"));
    });

    auto* why = new QGroupBox(tr("Why (likely causes)"), page);
    auto* whyLayout = new QVBoxLayout(why);
    m_causes = list(QStringLiteral("findingCauses"), why);
    whyLayout->addWidget(m_causes);

    auto* todo = new QGroupBox(tr("What to do (tick the steps off)"), page);
    auto* todoLayout = new QVBoxLayout(todo);
    m_runbook = list(QStringLiteral("findingRunbook"), todo);
    todoLayout->addWidget(m_runbook);

    auto* actions = new QGroupBox(tr("Prepared actions"), page);
    auto* actionsLayout = new QVBoxLayout(actions);
    m_actions = list(QStringLiteral("findingActions"), actions);
    m_actions->setMaximumHeight(m_actions->fontMetrics().height() * 5);
    actionsLayout->addWidget(m_actions);
    m_consequence = controls::paragraph(actions, QStringLiteral("recoveryConsequence"));
    actionsLayout->addWidget(m_consequence);
    auto* commandRow = new QHBoxLayout;
    m_command = new QLineEdit(actions);
    m_command->setObjectName(QStringLiteral("recoveryCommand"));
    m_command->setReadOnly(true);
    m_command->setToolTip(
        tr("The same action from a shell, with the finding as its reason (change it as you like)."));
    m_copyCommand = controls::button(actions, tr("Copy command"), QStringLiteral("copyCommand"));
    m_previewButton = controls::button(actions, tr("Preview…"), QStringLiteral("previewAction"));
    m_startRelay =
        controls::button(actions, tr("Start a managed relay"), QStringLiteral("startManagedRelay"));
    m_startRelay->setToolTip(
        tr("The console starts outboxctl relay on this database as its child (Relays page)."));
    m_startRelay->hide();
    m_editGroup = controls::button(actions, tr("Edit group…"), QStringLiteral("recoveryEditGroup"));
    m_editGroup->setToolTip(tr("Repair the payloads of the group: one JSON change, every letter's diff "
                               "previewed, a reason and the count typed."));
    m_editGroup->hide();
    commandRow->addWidget(new QLabel(tr("outboxctl:"), actions));
    commandRow->addWidget(m_command, 1);
    commandRow->addWidget(m_copyCommand);
    commandRow->addWidget(m_previewButton);
    commandRow->addWidget(m_startRelay);
    commandRow->addWidget(m_editGroup);
    actionsLayout->addLayout(commandRow);
    connect(m_actions, &QListWidget::currentRowChanged, this, &RecoveryFlow::selectAction);
    connect(m_copyCommand, &QPushButton::clicked, this, [this]() {
        QApplication::clipboard()->setText(m_command->text());
        emit statusMessage(tr("Command copied to the clipboard."));
    });
    connect(m_previewButton, &QPushButton::clicked, this, &RecoveryFlow::preparePreview);
    connect(m_editGroup, &QPushButton::clicked, this, &RecoveryFlow::editGroup);
    connect(m_startRelay, &QPushButton::clicked, this, [this]() {
        if (const PreparedAction* a = selectedAction(); a && a->startsRelay)
            emit startManagedRelay(a->relayArguments, a->brokerKnown);
    });

    for (QListWidget* w : {m_samples, m_causes, m_runbook, m_actions})
        keepLow(w);
    auto* split = new QSplitter(Qt::Vertical, page);
    split->addWidget(happened);
    split->addWidget(why);
    split->addWidget(todo);
    split->addWidget(actions);
    layout->addWidget(split, 1);
    m_steps->addWidget(page);
}

void RecoveryFlow::buildPreview()
{
    auto* page = new QWidget(m_steps);
    auto* layout = new QVBoxLayout(page);
    m_previewSummary = controls::paragraph(page, QStringLiteral("previewSummary"));
    layout->addWidget(m_previewSummary);
    m_previewOrdering = controls::paragraph(page, QStringLiteral("recoveryOrdering"));
    // Up to nine lines (PreviewSample::ordering): they scroll in a box of a few lines, so that the
    // preview never makes the window taller than a laptop's screen.
    m_previewOrderingBox =
        controls::scrollBox(m_previewOrdering, page, QStringLiteral("recoveryOrderingBox"));
    m_previewOrderingBox->setMaximumHeight(m_previewOrdering->fontMetrics().lineSpacing() * 5);
    m_previewOrderingBox->hide();
    layout->addWidget(m_previewOrderingBox);
    m_previewSample = new QTableWidget(page);
    m_previewSample->setObjectName(QStringLiteral("previewSample"));
    m_previewSample->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_previewSample->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_previewSample->setWordWrap(false);
    m_previewSample->setTextElideMode(Qt::ElideMiddle);
    m_previewSample->horizontalHeader()->setStretchLastSection(true);
    m_previewSample->verticalHeader()->hide();
    layout->addWidget(m_previewSample, 1);
    auto* form = new QFormLayout;
    m_reason = new QLineEdit(page);
    m_reason->setObjectName(QStringLiteral("recoveryReason"));
    m_reason->setMaxLength(BulkActionEngine::MaxReasonLength);
    form->addRow(tr("Reason (kept in the audit log):"), m_reason);
    m_confirmLabel = new QLabel(page);
    m_confirmLabel->setTextFormat(Qt::PlainText);
    m_confirm = new QLineEdit(page);
    m_confirm->setObjectName(QStringLiteral("recoveryConfirm"));
    form->addRow(m_confirmLabel, m_confirm);
    layout->addLayout(form);
    auto* buttons = new QHBoxLayout;
    auto* back = controls::button(page, tr("Back"), QStringLiteral("backToFinding"));
    m_run = controls::button(page, tr("Run"), QStringLiteral("recoveryRun"));
    buttons->addWidget(back);
    buttons->addStretch(1);
    buttons->addWidget(m_run);
    layout->addLayout(buttons);
    connect(back, &QPushButton::clicked, this, [this]() { setStep(WhatHappened); });
    connect(m_reason, &QLineEdit::textChanged, this, &RecoveryFlow::updateRunButton);
    connect(m_confirm, &QLineEdit::textChanged, this, &RecoveryFlow::updateRunButton);
    connect(m_run, &QPushButton::clicked, this, &RecoveryFlow::run);
    m_steps->addWidget(page);
}

void RecoveryFlow::buildRunning()
{
    auto* page = new QWidget(m_steps);
    auto* layout = new QVBoxLayout(page);
    m_progressText = controls::paragraph(page, QStringLiteral("recoveryProgressText"));
    m_progress = new QProgressBar(page);
    m_progress->setObjectName(QStringLiteral("recoveryProgress"));
    m_cancelButton = controls::button(page, tr("Cancel"), QStringLiteral("recoveryCancel"));
    m_cancelButton->setToolTip(tr("Stops between chunks: finished chunks stay committed and audited."));
    layout->addWidget(m_progressText);
    layout->addWidget(m_progress);
    layout->addWidget(m_cancelButton, 0, Qt::AlignLeft);
    layout->addStretch(1);
    connect(m_cancelButton, &QPushButton::clicked, this, [this]() {
        if (m_cancel)
            m_cancel->store(true);
        m_cancelButton->setEnabled(false);
        m_progressText->setText(tr("Cancelling after the chunk under way…"));
    });
    addScrolled(m_steps, page);
}

void RecoveryFlow::buildVerification()
{
    auto* page = new QWidget(m_steps);
    auto* layout = new QVBoxLayout(page);
    m_verifyText = controls::paragraph(page, QStringLiteral("verificationResult"), true);
    m_auditText = controls::paragraph(page, QStringLiteral("verificationAudit"), true);
    layout->addWidget(m_verifyText);
    layout->addWidget(m_auditText);
    auto* buttons = new QHBoxLayout;
    m_verifyAgain = controls::button(page, tr("Check again"), QStringLiteral("verifyAgain"));
    auto* finished = controls::button(page, tr("Back to the findings"), QStringLiteral("backToFindings"));
    buttons->addWidget(m_verifyAgain);
    buttons->addStretch(1);
    buttons->addWidget(finished);
    layout->addLayout(buttons);
    layout->addStretch(1);
    connect(m_verifyAgain, &QPushButton::clicked, this, &RecoveryFlow::verify);
    connect(finished, &QPushButton::clicked, this, &RecoveryFlow::done);
    addScrolled(m_steps, page);
}

void RecoveryFlow::setContext(const ConsoleContext& context, const DiagnosisOptions& options)
{
    m_context = context;
    m_options = options;
    if (!context.actions)
        clear();
}

void RecoveryFlow::clear()
{
    ++m_generation;
    m_hasFinding = false;
    m_finding = Finding();
    m_action = -1;
    m_title->setText(tr("Choose a finding to start its recovery."));
    for (QListWidget* w : {m_samples, m_causes, m_runbook, m_actions})
        w->clear();
    m_evidence->clear();
    m_consequence->clear();
    m_command->clear();
    m_previewButton->setEnabled(false);
    m_copyCommand->setEnabled(false);
    m_startRelay->hide();
    m_editGroup->hide();
    m_openSample->setEnabled(false);
    setStep(WhatHappened);
}

int RecoveryFlow::step() const
{
    return m_steps->currentIndex();
}

void RecoveryFlow::setStep(Step step)
{
    static const char* const names[] = {QT_TR_NOOP("1 What happened, why, what to do"),
                                        QT_TR_NOOP("2 Preview"), QT_TR_NOOP("3 Running"),
                                        QT_TR_NOOP("4 Verification")};
    m_steps->setCurrentIndex(step);
    m_stepLabel->setText(tr(names[step]));
}

void RecoveryFlow::showFinding(const Finding& finding)
{
    clear();
    m_finding = finding;
    m_hasFinding = true;
    m_title->setText(QStringLiteral("[%1] %2").arg(finding.id, finding.title));
    const FindingEvidence& e = finding.evidence;
    QStringList lines{tr("%1 %2").arg(e.count).arg(e.unitText())};
    if (e.oldest.isValid())
        lines << tr("oldest: %1").arg(time(e.oldest));
    if (e.newest.isValid() && e.newest != e.oldest)
        lines << tr("newest: %1").arg(time(e.newest));
    static const char* const details[][2] = {{"error_class", QT_TR_NOOP("error class: %1")},
                                             {"example", QT_TR_NOOP("example: %1")},
                                             {"payload", QT_TR_NOOP("payload: %1")},
                                             {"consumer", QT_TR_NOOP("consumer: %1")},
                                             {"last_error", QT_TR_NOOP("last error: %1")}};
    for (const auto& detail : details) {
        QString v = e.details.value(QLatin1String(detail[0])).toString();
        if (v.isEmpty())
            continue;
        if (qstrcmp(detail[0], "error_class") == 0)
            v = Labels::errorClass(v); // a word of the console's, not the relay's text
        lines << tr(detail[1]).arg(v);
    }
    m_evidence->setText(lines.join(QLatin1Char('\n')));
    for (qint64 id : e.sampleIds) {
        auto* item = new QListWidgetItem(QStringLiteral("#%1").arg(id), m_samples);
        item->setData(Qt::UserRole, id);
    }
    for (const QString& name : e.sampleNames)
        new QListWidgetItem(name, m_samples);
    if (m_samples->count() > 0)
        m_samples->setCurrentRow(0);
    for (const QString& cause : finding.causes)
        new QListWidgetItem(cause, m_causes);
    for (int i = 0; i < finding.runbook.size(); ++i) {
        auto* item =
            new QListWidgetItem(QStringLiteral("%1. %2").arg(i + 1).arg(finding.runbook.at(i)), m_runbook);
        item->setFlags(item->flags() | Qt::ItemIsUserCheckable);
        item->setCheckState(Qt::Unchecked);
    }
    for (const PreparedAction& a : finding.actions)
        new QListWidgetItem(a.label, m_actions);
    if (!finding.actions.isEmpty())
        m_actions->setCurrentRow(0);
}

void RecoveryFlow::refreshFinding(const Finding& finding)
{
    const int action = m_actions->currentRow();
    QVector<Qt::CheckState> ticked;
    for (int i = 0; i < m_runbook->count(); ++i)
        ticked << m_runbook->item(i)->checkState();
    const int sample = m_samples->currentRow();
    showFinding(finding);
    for (int i = 0; i < std::min(int(ticked.size()), int(m_runbook->count())); ++i)
        m_runbook->item(i)->setCheckState(ticked.at(i));
    if (action >= 0 && action < m_actions->count())
        m_actions->setCurrentRow(action);
    if (sample >= 0 && sample < m_samples->count())
        m_samples->setCurrentRow(sample);
}

const PreparedAction* RecoveryFlow::selectedAction() const
{
    return m_action >= 0 && m_action < m_finding.actions.size() ? &m_finding.actions.at(m_action) : nullptr;
}

void RecoveryFlow::selectAction(int row)
{
    m_action = row;
    const PreparedAction* a = selectedAction();
    m_consequence->setText(a ? a->consequence : QString());
    m_command->setText(a ? a->command : QString());
    m_command->setPlaceholderText(a ? a->commandRefused : QString());
    m_command->setCursorPosition(0);
    m_copyCommand->setEnabled(a && !a->command.isEmpty());
    m_previewButton->setEnabled(a && a->isAudited() && m_context.actions);
    // A relay start: the console's own managed relay does it, with the prepared broker and ordering.
    m_startRelay->setVisible(a && a->startsRelay);
    m_startRelay->setEnabled(a && a->startsRelay && m_context.browse);
    // A dead-letter group's repair (a command outside the bulk actions): the console's group editor.
    const bool repair = a && !a->isAudited() && a->deadLetterGroup.has_value();
    m_editGroup->setVisible(repair);
    m_editGroup->setEnabled(repair && m_context.actions);
    m_previewButton->setVisible(!repair);
    m_previewButton->setToolTip(a && !a->isAudited() ? tr("Runs outside the console: copy the command.")
                                                     : QString());
}

void RecoveryFlow::editGroup()
{
    if (const PreparedAction* a = selectedAction(); a && a->deadLetterGroup && m_context.actions)
        emit editDeadLetterGroup(*a->deadLetterGroup);
}

void RecoveryFlow::openSample(int row)
{
    QListWidgetItem* item = m_samples->item(row);
    if (!item || !m_context.browse || m_finding.evidence.sampleKind == QLatin1String("relay"))
        return;
    const qint64 id = item->data(Qt::UserRole).toLongLong();
    auto* dialog = new QDialog(window());
    dialog->setObjectName(QStringLiteral("sampleInspector"));
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->resize(900, 650);
    auto* layout = new QVBoxLayout(dialog);
    if (m_finding.evidence.sampleKind == QLatin1String("event")) {
        dialog->setWindowTitle(tr("Event #%1").arg(id));
        auto* inspector = new EventInspector(dialog);
        inspector->setSession(m_context.browse);
        layout->addWidget(inspector);
        inspector->inspect(id);
    } else {
        // As the Dead letters page shows one: the error, an edit's changes, every field.
        dialog->setWindowTitle(tr("Dead letter #%1").arg(id));
        auto* text = new QPlainTextEdit(dialog);
        text->setObjectName(QStringLiteral("sampleDeadLetter"));
        text->setReadOnly(true);
        layout->addWidget(text);
        m_context.browse->run<QJsonObject>(
            dialog,
            [id](Database& db) -> Result<QJsonObject> {
                auto letter = DeadLetterStore(db).find(id);
                if (!letter)
                    return letter.error();
                return letter->toJson();
            },
            [text](const Result<QJsonObject>& r) {
                text->setPlainText(r ? DeadLetterText::detail(*r) : r.message());
            });
    }
    auto* close = new QDialogButtonBox(QDialogButtonBox::Close, dialog);
    connect(close, &QDialogButtonBox::rejected, dialog, &QDialog::reject);
    layout->addWidget(close);
    dialog->show();
}

void RecoveryFlow::preparePreview()
{
    const PreparedAction* a = selectedAction();
    if (!a || !a->isAudited() || !m_context.actions)
        return;
    const PreparedAction action = *a;
    const quint64 generation = m_generation;
    m_previewButton->setEnabled(false);
    emit statusMessage(tr("Preparing the preview (a dry run)…"));
    auto done = [this, generation](const Result<ActionResult>& r) {
        if (generation != m_generation)
            return;
        selectAction(m_action);
        if (!r) {
            emit statusMessage(tr("Preview failed: %1").arg(r.message()));
            return;
        }
        showPreview(*r);
    };
    // Core decides which engine the operation needs (PreparedActionRunner).
    const qint64 staleAfter = m_options.relayStaleAfterMs();
    const QString actor = m_context.actor;
    const bool production = m_context.production; // core asks a production profile to type every time
    m_context.actions->run<ActionResult>(
        this,
        [action, staleAfter, actor, production](Database& db) {
            return PreparedActionRunner(db, staleAfter).preview(action, actor, production);
        },
        done);
}

void RecoveryFlow::showPreview(const ActionResult& preview)
{
    const PreparedAction& a = *selectedAction();
    m_preview = preview;
    QString summary =
        tr("%1 — %2 row(s) will change. %3").arg(a.label).arg(preview.matched).arg(a.consequence);
    for (auto it = preview.skipped.cbegin(); it != preview.skipped.cend(); ++it)
        summary +=
            QLatin1Char(' ') + tr("%1 %2 row(s) match but are not eligible.").arg(it.value()).arg(it.key());
    if (preview.conflictCount > 0)
        summary += QLatin1Char(' ') +
                   tr("%1 named row(s) are in another state and are left alone.").arg(preview.conflictCount);
    if (preview.runsAsJob)
        summary += QLatin1Char(' ') +
                   tr("It runs in chunks of %1 rows, each its own audited transaction; Cancel stops "
                      "it between chunks.")
                       .arg(BulkActionEngine::MaxChunkSize);
    if (m_context.production)
        summary += QLatin1Char(' ') + tr("This is a PRODUCTION connection.");
    if (preview.matched == 0)
        summary = tr("Nothing to change: no row is in a state this action accepts (any more).");
    m_previewSummary->setText(summary);

    // The sample and the ordering read as in the Events and Blocked dialogs (PreviewSample).
    const auto bulk = PreparedActionRunner::bulkKind(a.operation);
    const PreviewSample::Kind kind = a.operation == PreparedAction::Operation::SwitchNotifyOff
                                         ? PreviewSample::Kind::Trigger
                                     : !bulk                ? PreviewSample::Kind::Relays
                                     : isEventAction(*bulk) ? PreviewSample::Kind::Events
                                                            : PreviewSample::Kind::DeadLetters;
    m_previewSample->clear();
    PreviewSample::fill(m_previewSample, kind, preview.sample);
    m_previewOrdering->setText(PreviewSample::ordering(preview.consequences));
    m_previewOrderingBox->setVisible(!preview.consequences.isEmpty());

    m_reason->setText(m_finding.id + QStringLiteral(": "));
    m_confirmPhrase = preview.confirmation; // core decides it (production asks for it every time)
    const bool confirm = !m_confirmPhrase.isEmpty();
    m_confirmLabel->setText(tr("Type \"%1\" to confirm:").arg(m_confirmPhrase));
    m_confirmLabel->setVisible(confirm);
    m_confirm->setVisible(confirm);
    m_confirm->clear();
    setStep(Preview);
    updateRunButton();
    m_reason->setFocus();
    m_reason->end(false);
    emit statusMessage(tr("Preview ready: nothing has changed yet."));
}

void RecoveryFlow::updateRunButton()
{
    const QString prefill = m_finding.id + QStringLiteral(": ");
    const QString reason = m_reason->text().trimmed();
    // The reason names the finding (prefilled) and says more than that.
    const bool reasonOk = !reason.isEmpty() && reason != prefill.trimmed();
    const bool confirmOk = m_confirmPhrase.isEmpty() || m_confirm->text().trimmed() == m_confirmPhrase;
    m_run->setEnabled(m_preview.matched > 0 && reasonOk && confirmOk);
}

void RecoveryFlow::run()
{
    const PreparedAction* a = selectedAction();
    if (!a || !m_context.actions || !m_run->isEnabled())
        return;
    const PreparedAction action = *a;
    const QString reason = m_reason->text().trimmed();
    const quint64 generation = m_generation;
    m_cancel = std::make_shared<std::atomic<bool>>(false);
    m_progress->setRange(0, int(std::min<qint64>(std::max<qint64>(1, m_preview.matched), INT_MAX)));
    m_progress->setValue(0);
    m_progressText->setText(tr("Running %1 in audited chunks of at most %2 rows…")
                                .arg(action.operationName())
                                .arg(BulkActionEngine::MaxChunkSize));
    // Only the bulk engine stops between chunks; a relay or trigger switch is one statement.
    m_cancelButton->setEnabled(PreparedActionRunner::bulkKind(action.operation).ok());
    setStep(Running);
    auto done = [this, generation](const Result<ActionResult>& r) {
        if (generation == m_generation)
            finishRun(r);
    };
    const QString actor = m_context.actor;
    const qint64 staleAfter = m_options.relayStaleAfterMs();
    const ActionResult previewed = m_preview;
    const auto cancel = m_cancel;
    const QPointer<RecoveryFlow> self(this);
    m_context.actions->run<ActionResult>(
        this,
        [action, reason, actor, staleAfter, previewed, cancel, self, generation](Database& db) {
            BulkControl control;
            control.cancelRequested = [cancel]() { return cancel->load(); };
            control.progress = [self, generation](const BulkProgress& p) { // on the session thread
                QMetaObject::invokeMethod(
                    QCoreApplication::instance(),
                    [self, generation, p]() {
                        if (!self || self->m_generation != generation)
                            return;
                        self->m_progress->setMaximum(
                            int(std::min<qint64>(std::max(p.expected, p.processed), INT_MAX)));
                        self->m_progress->setValue(int(std::min<qint64>(p.processed, INT_MAX)));
                        self->m_progressText->setText(
                            tr("%1 of %2 row(s) done in %3 chunk(s); %4 conflict(s).")
                                .arg(p.affected)
                                .arg(p.expected)
                                .arg(p.chunks)
                                .arg(p.conflicts));
                    },
                    Qt::QueuedConnection);
            };
            // The preview the operator confirmed gives the count: no second count before the run.
            return PreparedActionRunner(db, staleAfter).run(action, reason, actor, previewed, control);
        },
        done);
}

void RecoveryFlow::finishRun(const Result<ActionResult>& result)
{
    emit acted();
    if (!result) {
        m_verifyText->setText(
            tr("The action failed: %1. Chunks committed before the error stay committed and are in "
               "the audit log.")
                .arg(result.message()));
        m_auditText->clear();
        setStep(Verification);
        verify();
        return;
    }
    m_result = *result;
    m_progress->setValue(m_progress->maximum());
    QStringList audits;
    for (qint64 id : result->auditIds)
        audits << QStringLiteral("#%1").arg(id);
    m_auditText->setText(tr("%1 row(s) changed, %2 conflict(s)%3. Audit rows: %4 (reason \"%5\").")
                             .arg(result->affected)
                             .arg(result->conflictCount)
                             .arg(result->cancelled ? tr(", cancelled before the end") : QString())
                             .arg(audits.isEmpty() ? tr("none") : audits.join(QStringLiteral(", ")))
                             .arg(m_reason->text().trimmed()));
    setStep(Verification);
    verify();
}

void RecoveryFlow::verify()
{
    if (!m_context.actions || !m_hasFinding)
        return;
    const QString checkId = m_finding.id;
    const QString key = m_finding.key;
    const qint64 before = m_finding.evidence.count;
    const QString unit = m_finding.evidence.unitText();
    DiagnosisOptions options = m_options;
    options.onlyChecks = QStringList{checkId};
    const quint64 generation = m_generation;
    m_verifyAgain->setEnabled(false);
    m_verifyText->setText(tr("Running the %1 check again…").arg(checkId));
    m_context.actions->run<DiagnosisReport>(
        this, [options](Database& db) { return Doctor(db, options).run(); },
        [this, generation, key, before, unit, checkId](const Result<DiagnosisReport>& r) {
            if (generation != m_generation)
                return;
            m_verifyAgain->setEnabled(true);
            if (!r) {
                m_verifyText->setText(tr("The check could not run: %1").arg(r.message()));
                return;
            }
            const Finding* after = r->findByKey(key);
            QString text = tr("Before: %1 %2.").arg(before).arg(unit) + QLatin1Char(' ');
            if (!after)
                text += tr("After: the finding is gone — the %1 check finds nothing of it any more.")
                            .arg(checkId);
            else
                text += tr("After: %1 %2 still — %3")
                            .arg(after->evidence.count)
                            .arg(after->evidence.unitText(), after->title);
            m_verifyText->setText(text);
            m_verifyText->setProperty("findingGone", after == nullptr);
            emit statusMessage(after ? tr("The finding is still there.") : tr("The finding is gone."));
        });
}

} // namespace outbox::desktop
