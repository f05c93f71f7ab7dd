#pragma once

#include "core/db/Database.h"

namespace outbox::test {

// Inserts `count` events with one INSERT … SELECT over a generated series (setup for scale
// tests; a million EventWriter calls would take minutes). Every `failedEvery`-th row is FAILED
// with an error text that differs only in its numbers; the others are SENT now, with sent_at as the
// relay sets it (a SENT row without one is a contract violation the doctor reports).
inline void insertGeneratedEvents(Database& db, qint64 count, int failedEvery = 0)
{
    const QString failed =
        failedEvery > 0 ? QStringLiteral("i % %1 = 0").arg(failedEvery) : QStringLiteral("1 = 0");
    QString sql;
    switch (db.kind()) {
    case DatabaseKind::PostgreSql:
        sql = QStringLiteral(
                  "INSERT INTO {events} (event_id, event_type, aggregate_type, aggregate_id, payload, "
                  "headers, status, sent_at, "
                  "last_error, last_error_class) SELECT 'gen-' || i, 'OrderCreated', 'Order', 'order-' || (i "
                  "% 1000), "
                  "jsonb_build_object('n', i), '{}'::jsonb, CASE WHEN %2 THEN 'FAILED' ELSE 'SENT' END, "
                  "CASE WHEN %2 THEN NULL ELSE now() END, "
                  "CASE WHEN %2 THEN 'schema check failed for row ' || i END, CASE WHEN %2 THEN "
                  "'deterministic' END "
                  "FROM generate_series(1, %1) AS s(i)")
                  .arg(count)
                  .arg(failed);
        break;
    case DatabaseKind::MySql:
        sql = QStringLiteral(
                  "INSERT INTO {events} (event_id, event_type, aggregate_type, aggregate_id, "
                  "payload, headers, status, sent_at, "
                  "last_error, last_error_class) WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL "
                  "SELECT i + 1 FROM n WHERE i < %1) "
                  "SELECT CONCAT('gen-', i), 'OrderCreated', 'Order', CONCAT('order-', i % 1000), "
                  "JSON_OBJECT('n', i), '{}', "
                  "CASE WHEN %2 THEN 'FAILED' ELSE 'SENT' END, "
                  "CASE WHEN %2 THEN NULL ELSE UTC_TIMESTAMP(6) END, CASE WHEN %2 THEN CONCAT('schema "
                  "check failed for row ', i) END, "
                  "CASE WHEN %2 THEN 'deterministic' END FROM n")
                  .arg(count)
                  .arg(failed);
        break;
    case DatabaseKind::Sqlite:
        sql = QStringLiteral("INSERT INTO {events} (event_id, event_type, aggregate_type, aggregate_id, "
                             "payload, headers, status, sent_at, "
                             "last_error, last_error_class) WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL "
                             "SELECT i + 1 FROM n WHERE i < %1) "
                             "SELECT 'gen-' || i, 'OrderCreated', 'Order', 'order-' || (i % 1000), "
                             "json_object('n', i), '{}', "
                             "CASE WHEN %2 THEN 'FAILED' ELSE 'SENT' END, "
                             "CASE WHEN %2 THEN NULL ELSE strftime('%Y-%m-%d %H:%M:%f', 'now') END, CASE "
                             "WHEN %2 THEN 'schema check "
                             "failed for row ' || i END, "
                             "CASE WHEN %2 THEN 'deterministic' END FROM n")
                  .arg(count)
                  .arg(failed);
        break;
    }
    if (db.kind() == DatabaseKind::MySql) {
        // MariaDB stops recursive CTEs after max_recursive_iterations (1,000 by default).
        auto raised = db.exec(QStringLiteral("SET SESSION max_recursive_iterations = %1").arg(count + 1));
        if (!raised)
            qFatal("cannot raise max_recursive_iterations: %s", qPrintable(raised.message()));
    }
    auto r = db.exec(sql);
    if (!r)
        qFatal("bulk insert failed: %s", qPrintable(r.message()));
    if (db.kind() == DatabaseKind::PostgreSql)
        (void)db.exec(QStringLiteral("ANALYZE {events}"));
}

} // namespace outbox::test
