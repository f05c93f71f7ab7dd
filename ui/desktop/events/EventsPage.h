#pragma once

#include "core/metrics/MetricsSnapshot.h"
#include "core/ops/OperatorActions.h"
#include "ui/desktop/ConsoleContext.h"
#include "ui/desktop/widgets/RecordTable.h"

#include <QDateTime>
#include <QPointer>
#include <QWidget>

class QCheckBox;
class QComboBox;
class QDateTimeEdit;
class QLabel;
class QLineEdit;
class QPushButton;
class QTableView;

namespace outbox::desktop {

class EmptyHint;
class EventInspector;
class EventTableModel;
class ActionRunner;
class RecordTableModel;

// The event browser: filter bar, keyset-paged table, inspector, failure groups and the operator
// actions on a selection, a group or the whole filter.
class EventsPage : public QWidget
{
    Q_OBJECT

public:
    explicit EventsPage(QWidget* parent = nullptr);

    void setContext(const ConsoleContext& context);
    EventTableModel* model() const { return m_model; }
    QTableView* table() const { return m_table; }
    EventInspector* inspector() const { return m_inspector; }
    RecordTableModel* groupsModel() const { return m_groups; }
    // Reads the filter bar; an invalid combination becomes a message instead of a query.
    Result<EventFilter> currentFilter() const;

    // How many newer rows the "N new — show" button announces at most.
    static constexpr int NewRowsCap = 500;

public slots:
    void applyFilter();
    void refreshGroups();
    // Drill-down: show the events of one status (and its failure groups), newest or oldest first.
    void showStatus(const QString& status, bool oldestFirst);
    // Each metrics sample: reload failure groups whose count changed, announce new rows.
    void noteSnapshot(const outbox::MetricsSnapshot& snapshot);
    // Reloads the table with its applied filter (the "N new — show" button).
    void reloadTable();

signals:
    void statusMessage(const QString& message);

private:
    void act(ActionKind kind, bool onGroup);
    static QString describeFilter(const EventFilter& filter);
    QVector<qint64> selectedIds() const;

    ConsoleContext m_context;
    QPointer<ActionRunner> m_runner; // the action under way, if any
    EventTableModel* m_model = nullptr;
    RecordTable* m_table = nullptr;
    EventInspector* m_inspector = nullptr;
    RecordTableModel* m_groups = nullptr;
    QTableView* m_groupsView = nullptr;
    QVector<FailureGroup> m_groupList;
    QComboBox* m_status = nullptr;
    QLineEdit* m_type = nullptr;
    QLineEdit* m_aggregateType = nullptr;
    QLineEdit* m_aggregate = nullptr;
    QLineEdit* m_error = nullptr;
    QLineEdit* m_eventId = nullptr;
    QLineEdit* m_traceId = nullptr; // a W3C trace id or a whole traceparent
    QLineEdit* m_header = nullptr;  // KEY=VALUE
    QLineEdit* m_payload = nullptr; // PATH=VALUE
    QLineEdit* m_topic = nullptr;
    QLineEdit* m_partition = nullptr;
    QLineEdit* m_offset = nullptr;
    QCheckBox* m_fromEnabled = nullptr;
    QDateTimeEdit* m_from = nullptr;
    QCheckBox* m_untilEnabled = nullptr;
    QDateTimeEdit* m_until = nullptr;
    QComboBox* m_order = nullptr;
    QComboBox* m_scope = nullptr;
    QLabel* m_info = nullptr;
    // Following the data
    QString emptyReason(const EventFilter& filter) const;
    QPushButton* m_newRows = nullptr;
    QLabel* m_groupsInfo = nullptr;
    QComboBox* m_groupsStatus = nullptr;
    EmptyHint* m_eventsHint = nullptr;
    EmptyHint* m_groupsHint = nullptr;
    QDateTime m_loadedAt;
    qint64 m_groupsLoadedFor = -1; // the sampled status count when the shown groups were read
    QMap<QString, qint64> m_sampledCounts;
    bool m_groupsLoading = false;
    bool m_newCheckRunning = false;
};

} // namespace outbox::desktop
