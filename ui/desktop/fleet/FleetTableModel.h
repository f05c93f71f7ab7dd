#pragma once

#include "core/fleet/MemberSample.h"

#include <QAbstractTableModel>
#include <QHash>
#include <QVector>

namespace outbox::desktop {

// The fleet's members as the wall shows them, worst first (MemberSample::worseThan, the order of
// `serve --fleet` and `status --fleet`), with the recent backlog of each member for its sparkline.
// The history is bounded: HistoryPoints samples per member, and only members of the latest tick.
class FleetTableModel : public QAbstractTableModel
{
    Q_OBJECT

public:
    enum Column {
        Member,
        State,
        Backlog,
        Trend,
        OldestAge,
        Failed,
        Dead,
        DeadLetters,
        Relays,
        Findings,
        Tags,
        ErrorText,
        ColumnCount
    };
    enum Role {
        BacklogHistoryRole = Qt::UserRole + 1, // QVariantList of qint64, oldest first (Trend column)
        FilterTextRole,                        // name and tags, what the filter box matches
        MemberNameRole,
    };
    static constexpr int HistoryPoints = 60;

    explicit FleetTableModel(QObject* parent = nullptr);

    // A tick of the fleet sampler: every member's sample.
    void update(const QVector<MemberSample>& samples);
    const QVector<MemberSample>& samples() const { return m_samples; }
    QVector<qint64> history(const QString& member) const { return m_history.value(member); }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    static QString stateText(MemberSample::State state);
    // The member's error on one line in the user's language (the driver's words as they are).
    static QString errorLine(const MemberSample& sample);

private:
    QVector<MemberSample> m_samples;
    QHash<QString, QVector<qint64>> m_history;
};

} // namespace outbox::desktop
