#pragma once

#include "core/ops/OperatorActions.h"
#include "ui/desktop/actions/ActionTarget.h"

#include <QObject>
#include <QPointer>

class QProgressDialog;
class QWidget;

namespace outbox::desktop {

class DatabaseSession;

// Runs one operator action the safe way: dry run first (count + sample), then a dialog that asks
// for a reason and, for bulk actions or production, a typed confirmation; then the change in
// chunks of ChunkSize rows, each its own audited action, with progress and cancel between chunks.
// Only core/ops OperatorActions touches the data.
class ActionRunner : public QObject
{
    Q_OBJECT

public:
    static constexpr int ChunkSize = 1000;
    static constexpr int MaxGroupIds = 200000;

    ActionRunner(DatabaseSession* session, ActionKind kind, ActionTarget target, bool production,
                 QString actor, QWidget* dialogParent);

    void start();
    static QString actionTitle(ActionKind kind);

signals:
    // One sentence for the status bar, plus whether everything asked for was done.
    void finished(const QString& summary, bool ok);

private:
    struct Preview
    {
        QVector<qint64> ids; // resolved ids (selection or group); empty for a filter
        qint64 matched = 0;
        qint64 conflicts = 0;
        QJsonArray sample;
        QMap<QString, qint64> skipped;
    };
    struct Chunk
    {
        ActionResult result;
        qint64 nextCursor = 0; // filter chunks: keyset cursor of the next chunk, 0 at the end
        bool last = false;
    };

    static Result<ActionResult> perform(Database& db, ActionKind kind, const ActionRequest& request);
    Result<Preview> preview(Database& db) const;
    Result<Chunk> runChunk(Database& db, int chunkIndex, qint64 cursor, const QString& reason) const;
    void showDialog(const Preview& preview);
    void runNext(int chunkIndex, qint64 cursor);
    void finish(bool ok, const QString& error = {});

    DatabaseSession* m_session;
    ActionKind m_kind;
    ActionTarget m_target;
    bool m_production;
    QString m_actor;
    QPointer<QWidget> m_parent;
    QPointer<QProgressDialog> m_progress;
    Preview m_preview;
    QString m_reason;
    qint64 m_done = 0;
    qint64 m_affected = 0;
    qint64 m_conflicts = 0;
    QStringList m_conflictLines;
    bool m_chunked = false;
};

} // namespace outbox::desktop
