#pragma once

#include "core/support/Result.h"

#include <QDateTime>
#include <QHash>
#include <QSqlQuery>
#include <QString>
#include <QStringList>
#include <QVector>
#include <functional>

namespace outbox {

class DiagnosisContext;

// Events of one status grouped by error class and error fingerprint, with what a finding needs:
// count, oldest and newest creation time, up to Finding::MaxSamples ids, and the longest literal
// part of the fingerprint (what `--error` can select the group by).
struct EventErrorGroup
{
    QString errorClass;
    QString fingerprint;
    QString example; // one original error text
    qint64 count = 0;
    QDateTime oldest;
    QDateTime newest;
    QVector<qint64> sampleIds;
    QString literal;
    // True when `--status STATUS --error LITERAL` selects exactly this group's events (checked against
    // every distinct error text of the status); otherwise an action targets the failure group itself.
    bool literalIsExact = false;
};

class EventErrorGroups
{
public:
    // `status` is FAILED or DEAD. Largest groups first.
    static Result<QVector<EventErrorGroup>> scan(DiagnosisContext& context, const QString& status);
    // The longest part of a fingerprint without <n>, <uuid> or <hex> placeholders.
    static QString literalOf(const QString& fingerprint);
    // The sample ids of a group of `count` rows over `texts` distinct error texts: the smallest id
    // of each text and, while those are fewer than Finding::MaxSamples, the first ids of each text
    // in turn as `firstIdsOf(k)` reads them (SELECT id … ORDER BY id LIMIT MaxSamples); sorted.
    // The events' groups and the dead letters' (DeadLettersCheck) take their samples alike.
    // The index in `groups` of the group `key` names (`index` keeps them); a new group from `make()`
    // at the end when there is none yet. The events' and the dead letters' scans merge rows so.
    template <typename Group, typename Make>
    static int groupIndex(QHash<QString, int>& index, QVector<Group>& groups, const QString& key, Make make)
    {
        auto it = index.find(key);
        if (it == index.end()) {
            it = index.insert(key, int(groups.size()));
            groups << make();
        }
        return *it;
    }
    static Result<QVector<qint64>> sampleIds(QVector<qint64> smallestIds, qint64 count, int texts,
                                             const std::function<Result<QSqlQuery>(int)>& firstIdsOf);
};

} // namespace outbox
