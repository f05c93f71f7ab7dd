#pragma once

#include "core/consumer/ConsumerOverview.h"
#include "core/db/InboxRecord.h"
#include "ui/desktop/ConsoleContext.h"

#include <QWidget>

class QChart;
class QComboBox;
class QDateTimeAxis;
class QLabel;
class QLineEdit;
class QPushButton;
class QTableView;
class QValueAxis;

namespace outbox::desktop {

class EmptyHint;
class RecordTableModel;

// The consumer side: per consumer processed, failed, duplicates, dead letters and unconsumed
// events, the processing rate over time, lag per partition (with a Kafka bootstrap), and the
// inbox browser (keyset pages, exact filters). Every read runs on a session thread.
class ConsumersPage : public QWidget
{
    Q_OBJECT

public:
    static constexpr int InboxPageSize = 100;

    explicit ConsumersPage(QWidget* parent = nullptr);
    void setContext(const ConsoleContext& context);
    RecordTableModel* consumersModel() const { return m_consumers; }
    RecordTableModel* lagModel() const { return m_lag; }
    RecordTableModel* inboxModel() const { return m_inbox; }
    QChart* rateChart() const { return m_chart; }

public slots:
    void refresh();
    void reloadInbox();

signals:
    void statusMessage(const QString& message);
    // The fast figures (counts, rates) are shown; the count of unconsumed events and the lag follow.
    void figuresLoaded();
    void overviewLoaded();
    void inboxLoaded();

protected:
    void showEvent(QShowEvent* event) override;

private:
    void loadMoreInbox();
    void showOverview(const ConsumerOverview& overview);
    void reconcile(quint64 generation, const ConsumerOverviewQuery::Options& options);
    void cancelReconcile();

    ConsoleContext m_context;
    ConsumerOverview m_figures; // the fast part of the last overview, shown while the counts run
    RecordTableModel* m_consumers = nullptr;
    RecordTableModel* m_lag = nullptr;
    RecordTableModel* m_inbox = nullptr;
    QTableView* m_consumerTable = nullptr;
    QTableView* m_lagTable = nullptr;
    QTableView* m_inboxTable = nullptr;
    EmptyHint* m_consumerHint = nullptr;
    EmptyHint* m_inboxHint = nullptr;
    QLineEdit* m_bootstrap = nullptr;
    QLabel* m_info = nullptr;
    QLabel* m_inboxInfo = nullptr;
    QChart* m_chart = nullptr;
    QDateTimeAxis* m_chartX = nullptr;
    QValueAxis* m_chartY = nullptr;
    QLineEdit* m_inboxConsumer = nullptr;
    QComboBox* m_inboxStatus = nullptr;
    QLineEdit* m_inboxEventId = nullptr;
    QPushButton* m_inboxMore = nullptr;
    InboxFilter m_loadedFilter;
    qint64 m_inboxCursor = 0;
    quint64 m_overviewGeneration = 0;
    quint64 m_inboxGeneration = 0;
    bool m_loadingOverview = false;
    QPushButton* m_cancelReconcile = nullptr;
    std::shared_ptr<std::atomic<bool>> m_reconcileCancelled;
    bool m_overviewStale = false; // read when the page is shown (the reconciliation is not free)
};

} // namespace outbox::desktop
