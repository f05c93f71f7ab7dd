#pragma once

#include "core/db/OutboxEvent.h"

#include <QWidget>

class QLabel;
class QPlainTextEdit;
class QTableWidget;
class QTreeView;

namespace outbox::desktop {

class DatabaseSession;
class JsonTreeModel;

// One event in full: payload and headers as JSON trees and raw text, every column, and the
// event's audit history. Reads on the session thread.
class EventInspector : public QWidget
{
    Q_OBJECT

public:
    explicit EventInspector(QWidget* parent = nullptr);

    void setSession(DatabaseSession* session) { m_session = session; }
    void inspect(qint64 id);
    void clear();
    qint64 eventId() const { return m_event.id; }
    QString json() const;
    JsonTreeModel* payloadModel() const { return m_payloadModel; }
    int historyCount() const;
    // The Trail tab: the event's life in time order (core's EventTrail).
    QTableWidget* trailTable() const { return m_trail; }

signals:
    void loaded(qint64 id);

private:
    DatabaseSession* m_session = nullptr;
    OutboxEvent m_event;
    QLabel* m_title = nullptr;
    QLabel* m_summary = nullptr;
    JsonTreeModel* m_payloadModel = nullptr;
    JsonTreeModel* m_headersModel = nullptr;
    QPlainTextEdit* m_raw = nullptr;
    QTableWidget* m_columns = nullptr;
    QTableWidget* m_history = nullptr;
    QTableWidget* m_trail = nullptr;
    quint64 m_request = 0;
};

} // namespace outbox::desktop
