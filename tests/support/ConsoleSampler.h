#pragma once

#include "core/db/DatabaseTarget.h"

namespace outbox::test {

// The desktop console's MetricsSampler (one snapshot a second) alone in this process, until SIGTERM
// or SIGINT: benchmarks start themselves again in this role to have a console watching the same
// database while they measure. Prints its count of snapshots and failures on stderr; returns 0.
int runConsoleSamplerUntilTerminated(const DatabaseTarget& target, int intervalMs = 1000);

} // namespace outbox::test
