#pragma once

#include "core/metrics/MetricsSnapshot.h"
#include "core/ops/OperatorActions.h"
#include "ui/desktop/ConsoleContext.h"

#include <QPointer>
#include <QWidget>

class QLabel;

namespace outbox::desktop {

class ActionRunner;
class RecordTable;
class RecordTableModel;

// Ordering mode: the aggregates a FAILED event holds back (core/db/BlockedAggregates, the
// doctor's query): which aggregate, the blocking event, since when, how many events wait. The
// blocking events of the selected rows can be requeued or marked DEAD through the bulk engine;
// the preview says what follows for each aggregate before anything changes.
class BlockedAggregatesPage : public QWidget
{
    Q_OBJECT

public:
    explicit BlockedAggregatesPage(QWidget* parent = nullptr);
    void setContext(const ConsoleContext& context);
    RecordTableModel* model() const { return m_model; }

public slots:
    void reload();
    // Follows the sampler: when the counts that make or free a blocked aggregate (FAILED, PENDING,
    // SENDING) changed since the list was read, it is read again (only while the page is on
    // screen; a hidden page catches up when it is opened). The selection stays.
    void noteSnapshot(const MetricsSnapshot& snapshot);

protected:
    void showEvent(QShowEvent* event) override;

signals:
    void statusMessage(const QString& message);

private:
    void act(ActionKind kind);
    void fitAggregateColumn();

    ConsoleContext m_context;
    QPointer<ActionRunner> m_runner;
    RecordTableModel* m_model = nullptr;
    RecordTable* m_table = nullptr;
    QLabel* m_info = nullptr;
    quint64 m_generation = 0;
    QList<qint64> m_sampled;  // FAILED, PENDING and SENDING of the latest sample
    QList<qint64> m_loadedAt; // …when the list on screen was read
};

} // namespace outbox::desktop
