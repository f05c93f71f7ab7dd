#pragma once

#include "core/ops/AuditLog.h"
#include "ui/desktop/ConsoleContext.h"

#include <QWidget>

class QCheckBox;
class QDateTimeEdit;
class QLabel;
class QLineEdit;
class QPlainTextEdit;

namespace outbox::desktop {

class RecordTable;
class RecordTableModel;

// The append-only audit log: filter, browse in keyset pages, export every matching row as CSV or JSON.
class AuditPage : public QWidget
{
    Q_OBJECT

public:
    static constexpr int PageSize = 200;
    enum class Format { Csv, Json };

    explicit AuditPage(QWidget* parent = nullptr);
    void setContext(const ConsoleContext& context);
    RecordTableModel* model() const { return m_model; }
    // Writes every entry matching the filter (read in pages on the session thread) to `path`.
    void exportTo(const QString& path, Format format);

public slots:
    void reload();
    // Each metrics sample: new entries (e.g. of the operator's own action) appear on top.
    void noteSnapshot();

signals:
    void statusMessage(const QString& message);
    void exported(const QString& path, int rows);

private:
    void loadMore();
    AuditQuery query() const;

    ConsoleContext m_context;
    RecordTableModel* m_model = nullptr;
    RecordTable* m_table = nullptr;
    QLineEdit* m_action = nullptr;
    QLineEdit* m_actor = nullptr;
    QCheckBox* m_sinceEnabled = nullptr;
    QDateTimeEdit* m_since = nullptr;
    qint64 m_cursor = 0;
    quint64 m_generation = 0;
    AuditQuery m_loaded; // the filter of the list on screen
    bool m_following = false;
    QLabel* m_info = nullptr;
    QPlainTextEdit* m_detail = nullptr;
};

} // namespace outbox::desktop
