#pragma once

#include "ui/desktop/ConsoleContext.h"

#include <QWidget>

class QCheckBox;
class QDateTimeEdit;
class QLineEdit;
class QTableView;

namespace outbox::desktop {

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

signals:
    void statusMessage(const QString& message);
    void exported(const QString& path, int rows);

private:
    void loadMore();

    ConsoleContext m_context;
    RecordTableModel* m_model = nullptr;
    QTableView* m_table = nullptr;
    QLineEdit* m_action = nullptr;
    QLineEdit* m_actor = nullptr;
    QCheckBox* m_sinceEnabled = nullptr;
    QDateTimeEdit* m_since = nullptr;
    qint64 m_cursor = 0;
    quint64 m_generation = 0;
};

} // namespace outbox::desktop
