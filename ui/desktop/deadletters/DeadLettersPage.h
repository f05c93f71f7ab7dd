#pragma once

#include "core/db/DeadLetterFilter.h"
#include "core/db/DeadLetterGroups.h"
#include "core/metrics/MetricsSnapshot.h"
#include "ui/desktop/ConsoleContext.h"

#include <QDateTime>
#include <QPointer>
#include <QWidget>
#include <optional>

class QComboBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QPlainTextEdit;

namespace outbox::desktop {

class ActionRunner;
class RecordTable;
class RecordTableModel;

// The consumer-side dead letters: list in keyset pages, inspect, replay and discard.
class DeadLettersPage : public QWidget
{
    Q_OBJECT

public:
    static constexpr int PageSize = 200;

    explicit DeadLettersPage(QWidget* parent = nullptr);
    void setContext(const ConsoleContext& context);
    RecordTableModel* model() const { return m_model; }

public slots:
    void reload();
    // Drill-down from the Overview's dead-letter tile.
    void showStatus(const QString& status);
    // Each metrics sample: "N new — show" when the count behind the list changed.
    void noteSnapshot(const outbox::MetricsSnapshot& snapshot);
    // The letters of one group (from the Groups dialog) until Apply or "Show the filter" shows
    // the filter boxes' letters again; "Every dead letter of the filter" then acts on the group.
    void showGroup(const outbox::DeadLetterGroup& group);
    // The group's payload repair (GroupEditDialog), e.g. for a Recovery finding's prepared repair.
    void editGroup(const outbox::DeadLetterGroup& group);

signals:
    void statusMessage(const QString& message);
    // A group's payloads were edited (the doctor's dead-letters findings change).
    void groupEdited();

private:
    void loadMore();
    void act(bool replay);
    void editSelected();
    void showGroups();
    void showDetail(const QJsonObject& letter);
    void showFilter(); // leaves a group shown for the filter boxes' letters
    QString groupText(const DeadLetterGroup& group) const;
    DeadLetterFilter typedFilter() const;

    ConsoleContext m_context;
    QPointer<ActionRunner> m_runner; // the action under way, if any
    RecordTableModel* m_model = nullptr;
    RecordTable* m_table = nullptr;
    QPlainTextEdit* m_detail = nullptr;
    QComboBox* m_status = nullptr;
    QLineEdit* m_consumer = nullptr;
    QLineEdit* m_error = nullptr;
    QComboBox* m_scope = nullptr;
    DeadLetterFilter m_applied;             // what the list shows (set by reload), without a group
    std::optional<DeadLetterGroup> m_group; // the group the list shows instead, if any
    QWidget* m_groupBar = nullptr;
    QLabel* m_groupText = nullptr;
    qint64 m_cursor = 0;
    quint64 m_generation = 0;
    // Following the data
    void updateInfo();
    QLabel* m_info = nullptr;
    QPushButton* m_newRows = nullptr;
    QDateTime m_loadedAt;
    qint64 m_shownTotal = -1;  // the sampler's count when the list was loaded
    qint64 m_latestTotal = -1; // the sampler's latest count
};

} // namespace outbox::desktop
