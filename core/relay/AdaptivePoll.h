#pragma once

#include <algorithm>

namespace outbox {

// How long a relay that no commit wakes (the wake-up trigger switched off, --no-notify, MariaDB)
// waits after an empty claim before it claims again: a short interval right after work, doubling on
// each further empty claim up to the poll interval, and short again once a claim finds events. New
// events after a busy spell wait milliseconds instead of up to the poll interval; an idle relay
// still claims only once per poll interval after a fraction of a second.
class AdaptivePoll
{
public:
    AdaptivePoll(int floorMs, int ceilingMs)
        : m_floor(std::clamp(floorMs, 1, std::max(1, ceilingMs))), m_ceiling(std::max(1, ceilingMs)),
          m_current(m_ceiling), m_next(m_floor)
    {
    }

    // A claim found events: the next empty claim waits the floor.
    void found() { m_next = m_floor; }
    // A claim found nothing: returns the interval to wait now (and doubles the next one).
    int empty()
    {
        m_current = m_next;
        m_next = std::min(m_ceiling, m_next * 2);
        return m_current;
    }
    // A claim failed: wait the whole poll interval.
    int failed()
    {
        m_current = m_ceiling;
        m_next = m_ceiling;
        return m_current;
    }
    // A new ceiling (a standby relay polls less often); the next wait keeps within it.
    void setCeiling(int ceilingMs)
    {
        m_ceiling = std::max(1, ceilingMs);
        m_floor = std::clamp(m_floor, 1, m_ceiling);
        m_next = std::min(m_next, m_ceiling);
        m_current = std::min(m_current, m_ceiling);
    }
    // The interval of the latest empty or failed claim.
    int interval() const { return m_current; }
    int floor() const { return m_floor; }
    int ceiling() const { return m_ceiling; }

private:
    int m_floor;
    int m_ceiling;
    int m_current;
    int m_next;
};

} // namespace outbox
