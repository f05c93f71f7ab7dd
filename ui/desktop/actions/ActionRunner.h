#pragma once

#include "core/ops/ActionTarget.h"
#include "core/ops/BulkActionEngine.h"
#include "ui/desktop/ConsoleContext.h"

#include <QObject>
#include <QPointer>
#include <atomic>
#include <functional>
#include <memory>

class QProgressDialog;
class QWidget;

namespace outbox::desktop {

class ActionDialog;
class DatabaseSession;

// Runs one operator action the safe way: a dialog that opens at once, busy while the preview
// (count + sample, from the bulk engine's dry run) is read on the worker thread, then asks for a
// reason, for replay a target topic and, for bulk actions or production, a typed confirmation; then core's
// BulkActionEngine on the session's worker thread, in audited chunks of at most
// BulkActionEngine::MaxChunkSize rows, with a progress dialog whose Cancel stops the run between chunks; then
// a result dialog (done, conflicts, cancelled, chunks, the audit rows). Nothing here blocks the GUI thread.
// Failpoint "console.action.preview" (tests) runs before the preview is read.
class ActionRunner : public QObject
{
    Q_OBJECT

public:
    static constexpr int ChunkSize = BulkActionEngine::MaxChunkSize;

    // `description` names the target in the preview ("3 selected events", "the applied filter: …").
    ActionRunner(DatabaseSession* session, ActionKind kind, ActionTarget target, QString description,
                 bool production, QString actor, QWidget* dialogParent);
    ~ActionRunner() override;

    void start();
    // The console's way to act: a runner on the connection's action session (with its production
    // flag and actor), held in `holder` (a page abandons it when its connection goes), started;
    // `finished` gets its summary, on `parent`'s thread while `parent` lives.
    static void run(QPointer<ActionRunner>& holder, const ConsoleContext& context, ActionKind kind,
                    ActionTarget target, QString description, QWidget* parent,
                    const std::function<void(const QString& summary)>& finished);
    // The connection is going away: a run under way stops before its next chunk, an open dialog
    // closes, and the runner finishes at once (the session's destructor then waits at most for
    // the chunk under way).
    void abandon();
    static QString actionTitle(ActionKind kind);

signals:
    // One sentence for the status bar, plus whether everything asked for was done.
    void finished(const QString& summary, bool ok);

private:
    ActionRequest request() const;
    void showPreview(const ActionResult& preview);
    void closeDialog();
    void execute();
    void onProgress(const BulkProgress& progress);
    void finish(bool ok, const QString& error = {});

    DatabaseSession* m_session;
    ActionKind m_kind;
    ActionTarget m_target;
    QString m_description;
    ActionResult m_preview; // shown in the dialog; the run takes its count
    bool m_production;
    QString m_actor;
    QString m_reason;
    QString m_replayTopic;
    QString m_runError;
    QPointer<QWidget> m_parent;
    QPointer<QProgressDialog> m_progress;
    QPointer<ActionDialog> m_dialog;
    std::shared_ptr<std::atomic<bool>> m_cancel = std::make_shared<std::atomic<bool>>(false);
    ActionResult m_result; // what has been done so far (from the progress reports, then the result)
    bool m_cancelled = false;
    bool m_finished = false;
    bool m_executed = false;
    bool m_abandoned = false;
};

} // namespace outbox::desktop
