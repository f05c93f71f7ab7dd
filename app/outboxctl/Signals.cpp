#include "app/outboxctl/Signals.h"

#include <csignal>
#include <cstdlib>

namespace outbox::cli {
namespace {
std::atomic<bool> g_stop{false};

void onSignal(int)
{
    if (g_stop.exchange(true))
        std::_Exit(130);
}
} // namespace

std::atomic<bool>& installStopSignals()
{
    std::signal(SIGINT, onSignal);
    std::signal(SIGTERM, onSignal);
    return g_stop;
}

} // namespace outbox::cli
