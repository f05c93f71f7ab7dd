#include "core/db/JsonShape.h"

namespace outbox {

QString JsonShape::badEventCondition(DatabaseKind kind)
{
    // A payload above 1 MiB is not parsed: no broker takes it (it fails with its own error), and
    // parsing a 20 MB one on every doctor run cost seconds. pg_column_size reads the TOAST pointer only.
    if (kind == DatabaseKind::PostgreSql)
        return QStringLiteral(
            "(CASE WHEN pg_column_size(payload) <= 1048576 THEN jsonb_typeof(payload) NOT IN "
            "('object', 'array') ELSE false END OR jsonb_typeof(headers) <> 'object')");
    // MariaDB/MySQL and SQLite spell these alike; JSON_TYPE of text that is no JSON is an error
    // (SQLite) or NULL (MariaDB), hence the CASEs.
    return QStringLiteral("(CASE WHEN LENGTH(payload) > 1048576 THEN 1 = 0 WHEN JSON_VALID(payload) THEN "
                          "UPPER(JSON_TYPE(payload)) NOT IN ('OBJECT', 'ARRAY') ELSE 1 = 1 END OR CASE WHEN "
                          "JSON_VALID(headers) THEN UPPER(JSON_TYPE(headers)) <> 'OBJECT' ELSE 1 = 1 END)");
}

QString JsonShape::payloadBytes(DatabaseKind kind)
{
    switch (kind) {
    case DatabaseKind::PostgreSql:
        return QStringLiteral("(CASE WHEN pg_column_size(payload) > 262144 THEN pg_column_size(payload) "
                              "ELSE octet_length(payload::text) END)");
    case DatabaseKind::MySql:
        return QStringLiteral("LENGTH(payload)");
    case DatabaseKind::Sqlite:
        return QStringLiteral("length(CAST(payload AS BLOB))");
    }
    return QStringLiteral("LENGTH(payload)");
}

} // namespace outbox
