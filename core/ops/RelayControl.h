#pragma once

#include "core/support/Result.h"

#include <QStringList>

namespace outbox {

class Database;

struct RelayControlResult
{
    QString action;      // relay.pause, relay.resume, relay.drain, relay.forget
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
    // How old a heartbeat must be before forget() deletes the registration, unless told otherwise
    // (`outboxctl relays forget`, POST /api/v1/relays/forget).
    static constexpr qint64 DefaultForgetAfterMs = 60 * 1000;

    explicit RelayControl(Database& db) : m_db(db) {}

    Result<RelayControlResult> apply(Command command, const QStringList& workerIds, const QString& reason,
                                     const QString& actor);
    // Deletes the registrations of relays that are gone (heartbeat older than `staleAfterMs`), audited
    // as relay.forget. A relay with a fresher heartbeat is refused: it is alive and would register again.
    Result<RelayControlResult> forget(const QStringList& workerIds, qint64 staleAfterMs,
                                      const QString& reason, const QString& actor);

    static QString actionName(Command command);
    static QString desiredState(Command command);

private:
    Database& m_db;
};

} // namespace outbox
