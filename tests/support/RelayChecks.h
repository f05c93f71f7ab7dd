#pragma once

#include <QString>
#include <memory>

namespace outbox {
class Database;
class EmbeddedBroker;
} // namespace outbox

namespace outbox::test {

// How many events are in `status` (EventStore::counts()); fatal when the database does not answer.
qint64 countStatus(Database& db, const char* status);
// One embedded broker with the topic "order" (6 partitions), over TCP; fatal when it cannot start.
std::unique_ptr<EmbeddedBroker> startOrderBroker();
// Reads the topic "order" from the beginning: when every event_id of the outbox table is on it and
// nothing else, returns how many messages are duplicates; -1 when an event is missing (loss).
int duplicatesOnTopic(Database& db, const QString& bootstrap, int events);

} // namespace outbox::test
