#pragma once

#include "core/diagnosis/DiagnosisOptions.h"
#include "core/fleet/Fleet.h"
#include "core/fleet/MemberSample.h"

#include <QWidget>
#include <memory>

class QLabel;
class QLineEdit;
class QSortFilterProxyModel;
class QTableView;

namespace outbox {
class FleetSampler;
}

namespace outbox::desktop {

class FleetTableModel;

// Every database of a fleet file in one table, worst first as on `outboxctl serve --fleet`'s wall:
// state, backlog (with a sparkline of its recent samples), oldest pending age, FAILED, DEAD, dead
// letters, live relays, findings, tags and the error of a bad member. A filter box keeps the
// members whose name or tag contains its text. Core's FleetSampler samples the members on its own
// threads (bounded connections, a timeout per member), so a slow member never holds up the window.
// Double-clicking a member asks the window to open it (memberOpened).
class FleetPage : public QWidget
{
    Q_OBJECT

public:
    static constexpr int MaxErrorLines = 3; // a row's height at most: its error wraps onto this many lines

    FleetPage(const Fleet& fleet, const DiagnosisOptions& options, QWidget* parent = nullptr);
    ~FleetPage() override;

    const Fleet& fleet() const { return m_fleet; }
    FleetTableModel* model() const { return m_model; }
    int ticks() const { return m_ticks; }

signals:
    void memberOpened(const QString& name);

private:
    void showTick(const QVector<outbox::MemberSample>& samples);
    void openRow(const QModelIndex& index);
    void fitColumns();

    Fleet m_fleet;
    std::unique_ptr<FleetSampler> m_sampler;
    FleetTableModel* m_model = nullptr;
    QSortFilterProxyModel* m_filtered = nullptr;
    QLineEdit* m_filter = nullptr;
    QTableView* m_table = nullptr;
    QLabel* m_summary = nullptr;
    int m_ticks = 0;
};

} // namespace outbox::desktop
