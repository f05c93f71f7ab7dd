#pragma once

#include "ui/desktop/ConsoleContext.h"
#include "ui/desktop/actions/ActionTarget.h"

#include <QPointer>
#include <QWidget>

class QCheckBox;
class QComboBox;
class QDateTimeEdit;
class QLabel;
class QLineEdit;
class QTableView;

namespace outbox::desktop {

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

public slots:
    void applyFilter();
    void refreshGroups();

signals:
    void statusMessage(const QString& message);

private:
    void act(ActionKind kind, bool onGroup);
    static QString describeFilter(const EventFilter& filter);
    QVector<qint64> selectedIds() const;

    ConsoleContext m_context;
    QPointer<ActionRunner> m_runner; // the action under way, if any
    EventTableModel* m_model = nullptr;
    QTableView* m_table = nullptr;
    EventInspector* m_inspector = nullptr;
    RecordTableModel* m_groups = nullptr;
    QTableView* m_groupsView = nullptr;
    QVector<FailureGroup> m_groupList;
    QComboBox* m_status = nullptr;
    QLineEdit* m_type = nullptr;
    QLineEdit* m_aggregateType = nullptr;
    QLineEdit* m_aggregate = nullptr;
    QLineEdit* m_error = nullptr;
    QCheckBox* m_fromEnabled = nullptr;
    QDateTimeEdit* m_from = nullptr;
    QCheckBox* m_untilEnabled = nullptr;
    QDateTimeEdit* m_until = nullptr;
    QComboBox* m_order = nullptr;
    QComboBox* m_scope = nullptr;
    QLabel* m_info = nullptr;
};

} // namespace outbox::desktop
