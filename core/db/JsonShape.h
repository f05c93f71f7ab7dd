#pragma once

#include "core/db/DatabaseUrl.h"

#include <QString>

namespace outbox {

// The shapes docs/contract.md asks of an event (section 1): `payload` a JSON object or array,
// `headers` a JSON object. PostgreSQL refuses others at INSERT from schema 18 on (rows written
// before stay); MariaDB/MySQL and SQLite cannot, so doctor finds them (contract-violations/not-json).
class JsonShape
{
public:
    // An SQL condition over the events table, true for rows whose payload is no JSON object or array
    // or whose headers are no JSON object (invalid JSON included).
    static QString badEventCondition(DatabaseKind kind);
    // The size in bytes of an event's payload, from what the database stores: PostgreSQL renders a
    // jsonb as text to count it, which cost doctor seconds for one 20 MB event on every run, so a
    // value stored in more than 256 KiB is counted by its stored size (pg_column_size: the TOAST
    // pointer, nothing fetched), a lower bound when it was compressed. Elsewhere: the text's length.
    static QString payloadBytes(DatabaseKind kind);
};

} // namespace outbox
