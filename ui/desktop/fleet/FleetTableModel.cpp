#include "ui/desktop/fleet/FleetTableModel.h"

#include "ui/desktop/widgets/Labels.h"
#include "ui/desktop/widgets/PlainToolTip.h"

#include <QBrush>
#include <QColor>
#include <QSet>
#include <algorithm>

namespace outbox::desktop {

FleetTableModel::FleetTableModel(QObject* parent) : QAbstractTableModel(parent) {}

void FleetTableModel::update(const QVector<MemberSample>& samples)
{
    beginResetModel();
    m_samples = samples;
    std::sort(m_samples.begin(), m_samples.end(), &MemberSample::worseThan);
    QSet<QString> present;
    for (const MemberSample& s : std::as_const(m_samples)) {
        present.insert(s.member);
        QVector<qint64>& points = m_history[s.member];
        // An unreachable member has no backlog to draw: its line keeps its last known points.
        if (s.reachable() && s.state != MemberSample::State::Unmigrated) {
            points << s.backlog;
            if (points.size() > HistoryPoints)
                points.remove(0, points.size() - HistoryPoints);
        }
    }
    for (auto it = m_history.begin(); it != m_history.end();)
        it = present.contains(it.key()) ? std::next(it) : m_history.erase(it);
    endResetModel();
}

int FleetTableModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : int(m_samples.size());
}

int FleetTableModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QString FleetTableModel::errorLine(const MemberSample& s)
{
    // Database and driver text on one line, "cannot connect to" in the user's language.
    return Labels::databaseError(QString(s.error).replace(QLatin1Char('\n'), QLatin1Char(' ')));
}

QString FleetTableModel::stateText(MemberSample::State state)
{
    switch (state) {
    case MemberSample::State::Unreachable:
        return tr("unreachable");
    case MemberSample::State::Critical:
        return tr("critical");
    case MemberSample::State::Unmigrated:
        return tr("unmigrated");
    case MemberSample::State::Warning:
        return tr("warning");
    case MemberSample::State::Ok:
        return tr("ok");
    }
    return {};
}

QVariant FleetTableModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid() || index.row() >= m_samples.size() || index.column() >= ColumnCount)
        return {};
    const MemberSample& s = m_samples.at(index.row());
    const bool counted = s.reachable() && s.state != MemberSample::State::Unmigrated;
    switch (role) {
    case MemberNameRole:
        return s.member;
    case FilterTextRole:
        return QStringList{s.member, s.tags.join(QLatin1Char(' '))}.join(QLatin1Char(' '));
    case BacklogHistoryRole: {
        QVariantList points;
        for (qint64 p : m_history.value(s.member))
            points << p;
        return points;
    }
    case Qt::TextAlignmentRole:
        if (index.column() >= Backlog && index.column() <= Relays)
            return int(Qt::AlignRight | Qt::AlignVCenter);
        return {};
    case Qt::BackgroundRole:
        if (index.column() != State)
            return {};
        switch (s.state) {
        case MemberSample::State::Unreachable:
        case MemberSample::State::Critical:
            return QBrush(QColor(0xff, 0xcd, 0xd2));
        case MemberSample::State::Unmigrated:
        case MemberSample::State::Warning:
            return QBrush(QColor(0xff, 0xe0, 0xb2));
        case MemberSample::State::Ok:
            return QBrush(QColor(0xc8, 0xe6, 0xc9));
        }
        return {};
    case Qt::ToolTipRole:
        // Every text whole (the view may elide or wrap it at 1280 px): the error in full.
        if (index.column() == State && !s.error.isEmpty())
            return PlainToolTip::of(data(index, Qt::DisplayRole).toString() + QLatin1Char('\n') +
                                    errorLine(s));
        if (index.column() == Member)
            return PlainToolTip::of(tr("Double-click to open %1 in the console's pages").arg(s.member));
        if (index.column() != Trend) {
            const QString text = data(index, Qt::DisplayRole).toString();
            return text.isEmpty() ? QVariant() : QVariant(PlainToolTip::of(text));
        }
        return {};
    case Qt::DisplayRole:
        break;
    default:
        return {};
    }
    const auto count = [&](qint64 n) -> QVariant { return counted ? QVariant(n) : QVariant(); };
    switch (index.column()) {
    case Member:
        return s.member;
    case State:
        // Slow (stale): its last answer's state and numbers, with their age; never the black hole's
        // "unreachable" before [fleet] unreachable_after missed ticks.
        if (s.stale)
            return tr("%1 (slow, %2 old)")
                .arg(stateText(s.state),
                     Labels::age(s.sampledAt.isValid() ? s.sampledAt.msecsTo(QDateTime::currentDateTimeUtc())
                                                       : 0));
        return stateText(s.state);
    case Backlog:
        return count(s.backlog);
    case Trend:
        return {};
    case OldestAge:
        return counted && s.oldestPendingAgeMs >= 0 ? Labels::age(s.oldestPendingAgeMs) : QString();
    case Failed:
        return count(s.failed);
    case Dead:
        return count(s.dead);
    case DeadLetters:
        return count(s.deadLetters);
    case Relays:
        return counted ? QVariant(s.relaysAlive) : QVariant();
    case Findings:
        return counted ? tr("%1 critical, %2 warning").arg(s.critical).arg(s.warning) : QString();
    case Tags:
        return s.tags.join(QStringLiteral(", "));
    case ErrorText:
        // Database and driver text: shown as plain text (the view never renders rich text) on one line.
        // One error text; when an unreachable member is tried again is said beside it.
        if (s.nextAttemptMs >= 0)
            return tr("%1 (next attempt in %2)").arg(errorLine(s), Labels::age(s.nextAttemptMs));
        return errorLine(s);
    }
    return {};
}

QVariant FleetTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case Member:
        return tr("Member");
    case State:
        return tr("State");
    case Backlog:
        return tr("Backlog");
    case Trend:
        return tr("Backlog trend");
    case OldestAge:
        return tr("Oldest pending");
    case Failed:
        return tr("FAILED");
    case Dead:
        return tr("DEAD");
    case DeadLetters:
        return tr("Dead letters");
    case Relays:
        return tr("Relays");
    case Findings:
        return tr("Findings");
    case Tags:
        return tr("Tags");
    case ErrorText:
        return tr("Error");
    }
    return {};
}

} // namespace outbox::desktop
