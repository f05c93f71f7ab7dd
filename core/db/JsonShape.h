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
};

} // namespace outbox
