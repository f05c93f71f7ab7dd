#include "core/metrics/HeldBackEvents.h"

#include "core/db/Database.h"

#include <QSqlQuery>
#include <algorithm>

namespace outbox {

Result<HeldBackEvents> HeldBackEvents::read(Database& db)
{
    const Dialect& d = db.dialect();
    // The database's clock, read first: the times are compared with it, never with this host's.
    auto dbNow = db.scalar(QStringLiteral("SELECT %1").arg(d.now()));
    if (!dbNow)
        return dbNow.error();
    const QDateTime now = d.toDateTime(*dbNow);
    auto q = db.exec(QStringLiteral("SELECT SUM(CASE WHEN available_at > %1 THEN 1 ELSE 0 END), "
                                    "MAX(CASE WHEN available_at > %1 THEN available_at END), "
                                    "SUM(CASE WHEN created_at > %2 THEN 1 ELSE 0 END) FROM {events} "
                                    "WHERE status = 'PENDING' AND (available_at > %1 OR created_at > %3)")
                         .arg(d.now(), d.nowPlusMillis(QStringLiteral(":minute")),
                              d.nowPlusMillis(QStringLiteral(":minute2"))),
                     {{QStringLiteral(":minute"), 60000}, {QStringLiteral(":minute2"), 60000}});
    if (!q)
        return q.error();
    HeldBackEvents held;
    if (q->next()) {
        held.notDue = q->value(0).toLongLong();
        held.createdAhead = q->value(2).toLongLong();
        if (held.notDue > 0) {
            held.lastDue = d.toDateTime(q->value(1));
            held.lastDueInMs = std::max<qint64>(0, now.msecsTo(held.lastDue));
        }
    }
    return held;
}

} // namespace outbox
