#include "core/db/NewEventsHub.h"

namespace outbox {

NewEventsHub& NewEventsHub::instance()
{
    static NewEventsHub hub;
    return hub;
}

} // namespace outbox
