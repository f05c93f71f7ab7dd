#pragma once

#include "core/broker/BrokerMessage.h"

#include <atomic>
#include <memory>
#include <vector>

namespace outbox {

// One batch handed to a publisher; its reports fill in as the broker answers. A publisher may write
// the reports on a thread of its own: read report i once isReported(i) is true, and all of them once
// outstanding() is 0.
class PendingBatch
{
public:
    explicit PendingBatch(int size)
        : m_reports(size_t(size)), m_states(size_t(size)), m_outstanding(size), m_size(size)
    {
    }
    virtual ~PendingBatch() = default;
    PendingBatch(const PendingBatch&) = delete;
    PendingBatch& operator=(const PendingBatch&) = delete;
    int size() const { return m_size; }
    const std::vector<DeliveryReport>& reports() const { return m_reports; }
    int outstanding() const { return m_outstanding.load(); }
    bool isReported(int i) const { return m_states[size_t(i)].load(std::memory_order_acquire) == Done; }
    // Messages the client's full queue or window never took (reported with notQueued).
    int notQueued() const { return m_notQueued.load(); }

    // For publishers. Report i is written by exactly one writer (the broker's answer, a local
    // refusal, or the deadline): begin() picks it (nullptr when answered already), finish()
    // publishes it and tells whether that was the batch's last report.
    DeliveryReport* begin(int i);
    bool finish(int i);
    void countNotQueued() { m_notQueued.fetch_add(1); }
    // Expires when the batch is destroyed: a publisher that answers later (after its owner dropped
    // the batch) checks it first.
    std::weak_ptr<int> liveness() const { return m_alive; }

private:
    enum State : int { Open, Writing, Done };
    std::vector<DeliveryReport> m_reports;
    std::vector<std::atomic<int>> m_states;
    std::atomic<int> m_outstanding;
    std::atomic<int> m_notQueued{0};
    int m_size = 0;
    std::shared_ptr<int> m_alive = std::make_shared<int>(0);
};

} // namespace outbox
