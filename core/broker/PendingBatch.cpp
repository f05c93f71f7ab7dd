#include "core/broker/PendingBatch.h"

namespace outbox {

DeliveryReport* PendingBatch::begin(int i)
{
    int open = Open;
    if (!m_states[size_t(i)].compare_exchange_strong(open, Writing, std::memory_order_acquire))
        return nullptr; // answered already
    return &m_reports[size_t(i)];
}

bool PendingBatch::finish(int i)
{
    m_reports[size_t(i)].reported = true;
    m_states[size_t(i)].store(Done, std::memory_order_release);
    return m_outstanding.fetch_sub(1) == 1;
}

} // namespace outbox
