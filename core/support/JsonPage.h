#pragma once

#include <QJsonArray>
#include <QJsonObject>
#include <QString>

namespace outbox {

// A page of a keyset-paged list as the API and `outboxctl … --json` answer it: {"<key>": rows,
// "next_after_id": the cursor of the next page, or null on the last one}.
QJsonObject pageJson(const QString& key, const QJsonArray& rows, qint64 nextAfterId);

// Each row's toJson(), in order (events, dead letters, inbox rows).
template <typename Rows> QJsonArray rowsJson(const Rows& rows)
{
    QJsonArray list;
    for (const auto& row : rows)
        list.append(row.toJson());
    return list;
}

} // namespace outbox
