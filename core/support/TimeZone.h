#pragma once

namespace outbox {

// Call first thing in main(), before any thread starts. When TZ is not set, glibc's tzset() reads
// /etc/localtime again (a stat at least) on every call, and Qt calls it for every QDateTime
// conversion to or from local time: the PostgreSQL driver does that for each timestamp it reads,
// two per claimed event. Setting TZ to the same file keeps the local zone and makes those calls
// return at once (docs/benchmarks.md, "Relay": 10 % more events/s). A TZ already set is left
// alone; a change of /etc/localtime is then seen after a restart.
void pinLocalTimeZone();

} // namespace outbox
