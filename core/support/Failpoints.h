#pragma once

#include "core/support/Result.h"

#include <QString>

namespace outbox {

// Fault injection for crash and error tests, compiled in and inert unless OUTBOX_FAILPOINTS is set:
//   OUTBOX_FAILPOINTS="relay.after_claim=crash,ops.before_audit_commit=error,relay.mark_sent=2*sleep(500)"
// Actions: crash (immediate _Exit), error (the call site fails), sleep(ms). "N*" limits the firings.
class Failpoints
{
public:
    // Returns an error when the failpoint is set to "error"; crashes or sleeps as configured.
    static Status hit(const char* name);
    // Replaces the configuration (tests); an empty spec disables all failpoints.
    static Status configure(const QString& spec);
    static bool enabled();
};

} // namespace outbox
