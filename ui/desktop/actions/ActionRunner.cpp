#include "ui/desktop/actions/ActionRunner.h"

#include "core/db/Database.h"
#include "core/db/DeadLetterStore.h"
#include "core/db/EventStore.h"
#include "ui/desktop/actions/ActionDialog.h"
#include "ui/desktop/connection/DatabaseSession.h"

#include <QMessageBox>
#include <QProgressDialog>

namespace outbox::desktop {

ActionRunner::ActionRunner(DatabaseSession* session, ActionKind kind, ActionTarget target, bool production,
                           QString actor, QWidget* dialogParent)
    : QObject(dialogParent), m_session(session), m_kind(kind), m_target(std::move(target)),
      m_production(production), m_actor(std::move(actor)), m_parent(dialogParent)
{
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

Result<ActionResult> ActionRunner::perform(Database& db, ActionKind kind, const ActionRequest& request)
{
    OperatorActions ops(db);
    switch (kind) {
    case ActionKind::Requeue:
        return ops.requeue(request);
    case ActionKind::MarkDead:
        return ops.markDead(request);
    case ActionKind::ReplayDeadLetters:
        return ops.replayDeadLetters(request);
    case ActionKind::DiscardDeadLetters:
        return ops.discardDeadLetters(request);
    }
    return Error::usage(QStringLiteral("unknown action"));
}

void ActionRunner::start()
{
    m_session->run<Preview>(
        this, [this](Database& db) { return preview(db); },
        [this](const Result<Preview>& r) {
            if (!r.ok()) {
                finish(false, r.message());
                return;
            }
            m_preview = *r;
            showDialog(m_preview);
        });
}

// Runs on the session thread: reads only members that do not change while it runs.
Result<ActionRunner::Preview> ActionRunner::preview(Database& db) const
{
    Preview p;
    QVector<qint64> ids = m_target.ids;
    if (m_target.group) {
        auto groupIds = FailureGroups(db).ids(*m_target.group, 0, MaxGroupIds);
        if (!groupIds)
            return groupIds.error();
        ids = *groupIds;
        if (ids.isEmpty())
            return Error::conflict(QStringLiteral("the failure group is empty now"));
    }
    ActionRequest request;
    request.actor = m_actor;
    request.dryRun = true;
    if (!ids.isEmpty()) {
        p.ids = ids;
        for (int i = 0; i < ids.size(); i += ChunkSize) {
            request.ids = ids.mid(i, ChunkSize);
            auto r = perform(db, m_kind, request);
            if (!r)
                return r.error();
            p.matched += r->matched;
            p.conflicts += r->conflicts.size();
            if (p.sample.isEmpty())
                p.sample = r->sample;
        }
        return p;
    }
    request.eventFilter = m_target.eventFilter;
    request.deadLetterFilter = m_target.deadLetterFilter;
    auto r = perform(db, m_kind, request);
    if (!r)
        return r.error();
    p.matched = r->matched;
    p.sample = r->sample;
    p.skipped = r->skipped;
    return p;
}

void ActionRunner::showDialog(const Preview& preview)
{
    if (preview.matched == 0) {
        finish(false, tr("Nothing to change: none of the targeted rows is in a state this action accepts (%n "
                         "conflict(s)).",
                         nullptr, int(preview.conflicts)));
        return;
    }
    QString summary = tr("%1: %2 row(s) will change.").arg(m_target.description).arg(preview.matched);
    if (preview.conflicts > 0)
        summary += QLatin1Char(' ') + tr("%n targeted row(s) are in another state and will be left alone.",
                                         nullptr, int(preview.conflicts));
    for (auto it = preview.skipped.cbegin(); it != preview.skipped.cend(); ++it)
        summary +=
            QLatin1Char(' ') + tr("%1 %2 row(s) match but are not eligible.").arg(it.value()).arg(it.key());
    QString phrase;
    const QString verb = m_kind == ActionKind::Requeue             ? QStringLiteral("requeue")
                         : m_kind == ActionKind::MarkDead          ? QStringLiteral("dead")
                         : m_kind == ActionKind::ReplayDeadLetters ? QStringLiteral("replay")
                                                                   : QStringLiteral("discard");
    if (m_target.isBulk() || preview.matched > 1 || m_production)
        phrase = QStringLiteral("%1 %2").arg(verb).arg(preview.matched);
    if (m_production)
        summary += QLatin1Char(' ') + tr("This is a PRODUCTION connection.");

    auto* dialog = new ActionDialog(actionTitle(m_kind), summary, preview.sample, phrase, m_parent);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &QDialog::accepted, this, [this, dialog]() {
        m_reason = dialog->reason();
        m_chunked =
            !m_preview.ids.isEmpty() ? m_preview.ids.size() > ChunkSize : m_preview.matched > ChunkSize;
        if (m_chunked) {
            m_progress = new QProgressDialog(tr("Applying in chunks of %1…").arg(ChunkSize), tr("Cancel"), 0,
                                             int(std::min<qint64>(m_preview.matched, INT_MAX)), m_parent);
            m_progress->setObjectName(QStringLiteral("actionProgress"));
            m_progress->setAttribute(Qt::WA_DeleteOnClose);
            m_progress->setMinimumDuration(0);
            m_progress->setValue(0);
        }
        runNext(0, 0);
    });
    connect(dialog, &QDialog::rejected, this, [this]() { finish(false, tr("Cancelled; nothing changed.")); });
    dialog->open();
}

// Runs on the session thread.
Result<ActionRunner::Chunk> ActionRunner::runChunk(Database& db, int chunkIndex, qint64 cursor,
                                                   const QString& reason) const
{
    Chunk chunk;
    ActionRequest request;
    request.actor = m_actor;
    request.reason = reason;
    if (!m_preview.ids.isEmpty()) {
        request.ids = m_preview.ids.mid(chunkIndex * ChunkSize, ChunkSize);
        chunk.last = (chunkIndex + 1) * ChunkSize >= m_preview.ids.size();
    } else if (!m_chunked) {
        request.eventFilter = m_target.eventFilter;
        request.deadLetterFilter = m_target.deadLetterFilter;
        chunk.last = true;
    } else if (m_target.eventFilter) {
        // A large filter: walk it in keyset chunks of ids so each chunk is a short transaction.
        EventPageRequest page;
        page.filter = *m_target.eventFilter;
        page.afterId = cursor;
        page.limit = ChunkSize;
        page.ascending = true;
        auto events = EventStore(db).list(page);
        if (!events)
            return events.error();
        for (const OutboxEvent& e : events->events)
            request.ids << e.id;
        chunk.nextCursor = events->nextAfterId;
        chunk.last = events->nextAfterId == 0;
    } else {
        auto letters = DeadLetterStore(db).list(*m_target.deadLetterFilter, cursor, ChunkSize);
        if (!letters)
            return letters.error();
        for (const DeadLetter& l : letters->letters)
            request.ids << l.id;
        chunk.nextCursor = letters->nextAfterId;
        chunk.last = letters->nextAfterId == 0;
    }
    if (request.ids.isEmpty() && !request.eventFilter && !request.deadLetterFilter) {
        chunk.last = true;
        return chunk;
    }
    auto r = perform(db, m_kind, request);
    if (!r)
        return r.error();
    chunk.result = *r;
    return chunk;
}

void ActionRunner::runNext(int chunkIndex, qint64 cursor)
{
    const QString reason = m_reason;
    m_session->run<Chunk>(
        this,
        [this, chunkIndex, cursor, reason](Database& db) { return runChunk(db, chunkIndex, cursor, reason); },
        [this, chunkIndex](const Result<Chunk>& r) {
            if (!r.ok()) {
                finish(false, r.message());
                return;
            }
            m_affected += r->result.affected;
            m_conflicts += r->result.conflicts.size();
            for (const ActionConflict& c : r->result.conflicts)
                if (m_conflictLines.size() < 20)
                    m_conflictLines << tr("#%1: %2").arg(c.id).arg(c.reason);
            m_done += r->result.matched + r->result.conflicts.size();
            if (m_progress)
                m_progress->setValue(int(std::min<qint64>(m_done, m_progress->maximum())));
            if (r->last) {
                finish(true);
                return;
            }
            if (m_progress && m_progress->wasCanceled()) {
                finish(false, tr("Cancelled after %n row(s); every finished chunk is committed and audited.",
                                 nullptr, int(m_affected)));
                return;
            }
            runNext(chunkIndex + 1, r->nextCursor);
        });
}

void ActionRunner::finish(bool ok, const QString& error)
{
    if (m_progress)
        m_progress->close();
    QString summary = tr("%1: %n row(s) changed", nullptr, int(m_affected)).arg(actionTitle(m_kind));
    if (m_conflicts > 0)
        summary +=
            QStringLiteral("; ") + tr("%n conflict(s) (state changed meanwhile)", nullptr, int(m_conflicts));
    if (!error.isEmpty())
        summary += QStringLiteral(" — ") + error;
    if (m_conflicts > 0 && m_parent) {
        auto* box =
            new QMessageBox(QMessageBox::Warning, actionTitle(m_kind), summary, QMessageBox::Ok, m_parent);
        box->setObjectName(QStringLiteral("actionConflicts"));
        box->setDetailedText(m_conflictLines.join(QLatin1Char('\n')));
        box->setAttribute(Qt::WA_DeleteOnClose);
        box->open();
    }
    emit finished(summary, ok && m_conflicts == 0);
    deleteLater();
}

} // namespace outbox::desktop
