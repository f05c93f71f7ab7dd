#include "core/broker/Publisher.h"

namespace outbox {

Publisher::~Publisher() = default;

} // namespace outbox
