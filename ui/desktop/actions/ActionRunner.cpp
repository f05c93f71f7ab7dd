#include "ui/desktop/actions/ActionRunner.h"

#include "core/db/Database.h"
#include "core/support/Failpoints.h"
#include "ui/desktop/actions/ActionDialog.h"
#include "ui/desktop/actions/ActionResultDialog.h"
#include "ui/desktop/connection/DatabaseSession.h"

#include <QCoreApplication>
#include <QProgressDialog>

namespace outbox::desktop {

namespace {

// The console's hint for a request core refuses: what to change on this screen.
QString hintFor(ActionInput input)
{
    switch (input) {
    case ActionInput::Filter:
        return ActionRunner::tr("narrow the filter (status, type, aggregate, error or time) and press Apply");
    case ActionInput::Targets:
    case ActionInput::Ids:
        return ActionRunner::tr("select the rows to act on");
    case ActionInput::Group:
        return ActionRunner::tr("select a failure group");
    case ActionInput::Reason:
        return ActionRunner::tr("type a reason in the dialog");
    case ActionInput::Actor:
        return ActionRunner::tr("set an actor name for this profile");
    case ActionInput::SampleSize:
    case ActionInput::ChunkSize:
    case ActionInput::ReplayTopic:
        break;
    }
    return {};
}

} // namespace

ActionRunner::ActionRunner(DatabaseSession* session, ActionKind kind, ActionTarget target,
                           QString description, bool production, QString actor, QWidget* dialogParent)
    : QObject(dialogParent), m_session(session), m_kind(kind), m_target(std::move(target)),
      m_description(std::move(description)), m_production(production), m_actor(std::move(actor)),
      m_parent(dialogParent)
{
}

void ActionRunner::run(QPointer<ActionRunner>& holder, const ConsoleContext& context, ActionKind kind,
                       ActionTarget target, QString description, QWidget* parent,
                       const std::function<void(const QString& summary)>& finished)
{
    auto* runner = new ActionRunner(context.actions, kind, std::move(target), std::move(description),
                                    context.production, context.actor, parent);
    connect(runner, &ActionRunner::finished, parent,
            [finished](const QString& summary, bool) { finished(summary); });
    holder = runner;
    runner->start();
}

ActionRunner::~ActionRunner()
{
    // A run still going on the worker thread stops before its next chunk.
    m_cancel->store(true);
}

void ActionRunner::abandon()
{
    if (m_finished)
        return;
    m_cancel->store(true);
    m_abandoned = true;
    closeDialog();
    finish(false, tr("Disconnected; a run under way stops before its next chunk (every finished chunk is "
                     "committed and audited)."));
}

QString ActionRunner::actionTitle(ActionKind kind)
{
    switch (kind) {
    case ActionKind::Requeue:
        return tr("Requeue events");
    case ActionKind::MarkDead:
        return tr("Mark events DEAD");
    case ActionKind::ReplayDeadLetters:
        return tr("Replay dead letters");
    case ActionKind::DiscardDeadLetters:
        return tr("Discard dead letters");
    }
    return {};
}

ActionRequest ActionRunner::request() const
{
    ActionRequest r;
    static_cast<ActionTarget&>(r) = m_target;
    r.actor = m_actor;
    r.reason = m_reason;
    r.replayTopic = m_replayTopic;
    r.chunkSize = ChunkSize;
    r.confirmAlways = m_production; // a production profile confirms every action by typing
    return r;
}

void ActionRunner::start()
{
    ActionRequest preview = request();
    preview.dryRun = true;
    ActionInput input = ActionInput::Targets;
    if (Status s = BulkActionEngine::validate(m_kind, preview, &input); !s) {
        const QString hint = hintFor(input);
        finish(false, hint.isEmpty() ? s.message() : tr("%1: %2").arg(s.message(), hint));
        return;
    }
    // The dialog opens at once, busy, while the preview is read on the session thread.
    auto* dialog = new ActionDialog(m_kind, actionTitle(m_kind), m_description, m_parent);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    m_dialog = dialog;
    connect(dialog, &QDialog::accepted, this, [this, dialog]() {
        m_reason = dialog->reason();
        m_replayTopic = dialog->replayTopic();
        execute();
    });
    connect(dialog, &QDialog::rejected, this, [this]() { finish(false, tr("Cancelled; nothing changed.")); });
    dialog->open();

    const ActionKind kind = m_kind;
    m_session->run<ActionResult>(
        this,
        [kind, preview](Database& db) -> Result<ActionResult> {
            if (Status s = Failpoints::hit("console.action.preview"); !s)
                return s.error();
            return BulkActionEngine(db).preview(kind, preview);
        },
        [this](const Result<ActionResult>& r) {
            if (!m_dialog || m_finished)
                return; // cancelled while the preview was being read
            if (!r.ok()) {
                closeDialog();
                finish(false, r.message());
                return;
            }
            showPreview(*r);
        });
}

void ActionRunner::closeDialog()
{
    if (m_dialog) {
        m_dialog->disconnect(this);
        m_dialog->close();
    }
}

void ActionRunner::showPreview(const ActionResult& preview)
{
    if (preview.matched == 0) {
        closeDialog();
        finish(false, tr("Nothing to change: none of the targeted rows is in a state this action accepts (%n "
                         "conflict(s)).",
                         nullptr, int(preview.conflictCount)));
        return;
    }
    QString summary = tr("%1: %2 row(s) will change.").arg(m_description).arg(preview.matched);
    if (preview.conflictCount > 0)
        summary += QLatin1Char(' ') + tr("%n targeted row(s) are in another state and will be left alone.",
                                         nullptr, int(preview.conflictCount));
    for (auto it = preview.skipped.cbegin(); it != preview.skipped.cend(); ++it)
        summary +=
            QLatin1Char(' ') + tr("%1 %2 row(s) match but are not eligible.").arg(it.value()).arg(it.key());
    if (preview.runsAsJob)
        summary += QLatin1Char(' ') + tr("It runs in chunks of %1 rows, each its own audited transaction; "
                                         "Cancel stops it between chunks.")
                                          .arg(ChunkSize);
    if (m_production)
        summary += QLatin1Char(' ') + tr("This is a PRODUCTION connection.");

    m_preview = preview;
    m_result.expected = preview.matched;
    m_dialog->setOrdering(preview.consequences);
    m_dialog->setPreview(summary, preview.matched, preview.sample, preview.confirmation);
}

void ActionRunner::execute()
{
    m_executed = true;
    if (m_preview.runsAsJob) {
        m_progress = new QProgressDialog(tr("Applying in chunks of %1…").arg(ChunkSize), tr("Cancel"), 0,
                                         int(std::min<qint64>(m_result.expected, INT_MAX)), m_parent);
        m_progress->setObjectName(QStringLiteral("actionProgress"));
        m_progress->setWindowTitle(actionTitle(m_kind));
        m_progress->setAttribute(Qt::WA_DeleteOnClose);
        m_progress->setAutoClose(false);
        m_progress->setAutoReset(false);
        m_progress->setMinimumDuration(0);
        m_progress->setValue(0);
        connect(m_progress, &QProgressDialog::canceled, this, [this]() {
            m_cancel->store(true);
            m_cancelled = true;
        });
    }
    const ActionKind kind = m_kind;
    const ActionRequest request = this->request();
    const ActionResult previewed = m_preview; // the one the operator confirmed
    const auto cancel = m_cancel;
    const QPointer<ActionRunner> self(this);
    m_session->run<ActionResult>(
        this,
        [kind, request, previewed, cancel, self](Database& db) {
            BulkControl control;
            control.cancelRequested = [cancel]() { return cancel->load(); };
            // Called on the session thread: hand each report to the GUI thread.
            control.progress = [self](const BulkProgress& p) {
                QMetaObject::invokeMethod(
                    QCoreApplication::instance(),
                    [self, p]() {
                        if (self)
                            self->onProgress(p);
                    },
                    Qt::QueuedConnection);
            };
            // The preview's count is the progress total: no second count before the run.
            return BulkActionEngine(db).run(kind, request, previewed, control);
        },
        [this](const Result<ActionResult>& r) {
            if (!r.ok()) {
                m_runError = r.message();
                finish(false, r.message());
                return;
            }
            m_result = *r;
            if (r->cancelled)
                finish(false, tr("Cancelled after %n row(s); every finished chunk is committed and audited, "
                                 "the rest is untouched.",
                                 nullptr, int(r->affected)));
            else
                finish(true);
        });
}

void ActionRunner::onProgress(const BulkProgress& progress)
{
    m_result.affected = progress.affected;
    m_result.conflictCount = progress.conflicts;
    m_result.chunks = progress.chunks;
    if (m_progress && m_progress->wasCanceled()) { // cancel() called without the button
        m_cancel->store(true);
        m_cancelled = true;
    }
    if (!m_progress || m_cancelled)
        return;
    if (progress.processed > m_progress->maximum())
        m_progress->setMaximum(int(std::min<qint64>(progress.processed, INT_MAX)));
    m_progress->setValue(int(std::min<qint64>(progress.processed, INT_MAX)));
    m_progress->setLabelText(tr("Applying in chunks of %1: %2 of %3 row(s) done, chunk %4…")
                                 .arg(ChunkSize)
                                 .arg(progress.processed)
                                 .arg(m_progress->maximum())
                                 .arg(progress.chunks));
}

void ActionRunner::finish(bool ok, const QString& error)
{
    if (m_finished)
        return;
    m_finished = true;
    if (m_progress)
        m_progress->close();
    QString summary = tr("%1: %n row(s) changed", nullptr, int(m_result.affected)).arg(actionTitle(m_kind));
    if (m_result.chunks > 1)
        summary += QStringLiteral(" ") + tr("in %n audited chunk(s)", nullptr, m_result.chunks);
    if (m_result.conflictCount > 0)
        summary += QStringLiteral("; ") +
                   tr("%n conflict(s) (state changed meanwhile)", nullptr, int(m_result.conflictCount));
    if (!error.isEmpty())
        summary += QStringLiteral(" — ") + error;
    // A run that started gets its summary with the audit rows it wrote (not for a disconnect: the
    // session is going away).
    if (m_executed && !m_abandoned && m_parent) {
        auto* result = new ActionResultDialog(m_session, actionTitle(m_kind), m_result,
                                              m_cancelled || m_result.cancelled, m_runError, m_parent);
        result->setAttribute(Qt::WA_DeleteOnClose);
        result->show();
    }
    emit finished(summary, ok && m_result.conflictCount == 0);
    deleteLater();
}

} // namespace outbox::desktop
