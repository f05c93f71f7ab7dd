#pragma once

#include <QProcess>
#include <memory>
#include <vector>

namespace outbox {
class Database;
}

namespace outbox::test {

// Writing services on PostgreSQL for the notification lock's tests: each a psql session committing
// one event per transaction in a loop for up to a minute (the wake-up trigger, when on, notifies in
// each), and with `heavy` one that commits many distinct notifications at a time: it holds the
// notification lock while it queues them, as a busy writer does across its WAL flush on a durable
// server (the fixture does not flush).
std::vector<std::unique_ptr<QProcess>> startNotifyingWriters(const Database& db, int writers,
                                                             bool heavy = true);
// Ends their sessions and processes.
void stopWriters(Database& db, std::vector<std::unique_ptr<QProcess>>& writers);

} // namespace outbox::test
