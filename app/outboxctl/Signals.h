#pragma once

#include <atomic>

namespace outbox::cli {

// SIGINT/SIGTERM request a graceful stop (drain); a second signal exits at once.
std::atomic<bool>& installStopSignals();

} // namespace outbox::cli
