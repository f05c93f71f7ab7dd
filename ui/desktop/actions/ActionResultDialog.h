#pragma once

#include "core/ops/OperatorActions.h"

#include <QDialog>
#include <QPointer>

class QLabel;
class QPushButton;
class QTableWidget;

namespace outbox::desktop {

class DatabaseSession;

// The outcome of an operator action: rows done, conflicts, whether it was cancelled, the audited
// chunks and their audit row ids, any error; "Show audit rows" reads those rows (on the session
// thread) into a table, so the operator sees exactly what the audit log recorded for this run.
class ActionResultDialog : public QDialog
{
    Q_OBJECT

public:
    static constexpr int MaxAuditRows = 100; // rows shown; the audit page has every one

    ActionResultDialog(DatabaseSession* session, const QString& title, const ActionResult& result,
                       bool cancelled, const QString& error, QWidget* parent = nullptr);

private:
    void showAuditRows();

    QPointer<DatabaseSession> m_session;
    QVector<qint64> m_auditIds;
    QPushButton* m_showAudit = nullptr;
    QTableWidget* m_audit = nullptr;
    QLabel* m_auditStatus = nullptr;
};

} // namespace outbox::desktop
