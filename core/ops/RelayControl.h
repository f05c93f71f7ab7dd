#pragma once

#include "core/support/Result.h"

#include <QStringList>

namespace outbox {

class Database;

struct RelayControlResult
{
    QString action;      // relay.pause, relay.resume, relay.drain
    QStringList changed; // worker ids whose desired_state changed
    QStringList missing; // worker ids that are not registered
    qint64 auditId = 0;
};

// Pause, resume and drain relays through outbox_relays.desired_state: the change and
// its audit row commit in one transaction; the relays obey on their next heartbeat.
class RelayControl
{
public:
    enum class Command { Pause, Resume, Drain };

    explicit RelayControl(Database& db) : m_db(db) {}

    Result<RelayControlResult> apply(Command command, const QStringList& workerIds, const QString& reason,
                                     const QString& actor);

    static QString actionName(Command command);
    static QString desiredState(Command command);

private:
    Database& m_db;
};

} // namespace outbox
