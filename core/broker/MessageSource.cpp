#include "core/broker/MessageSource.h"

namespace outbox {

MessageSource::~MessageSource() = default;

} // namespace outbox
