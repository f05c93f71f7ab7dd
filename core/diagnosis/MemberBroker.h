#pragma once

#include "core/db/RelayRecord.h"

#include <QString>
#include <QStringList>
#include <QVector>

namespace outbox {

class Database;

// The broker arguments (`--broker=URL`, never a password) of the commands prepared for one database
// (a fleet member, the console's database): the broker its own relays publish to, from their relay
// registry rows (broker_kind, broker_address; the freshest heartbeat first), else the broker its
// configuration names. Never another database's broker nor a server-wide default: a member on
// RabbitMQ gets an amqp:// relay command even when the server's own configuration names Kafka.
class MemberBroker
{
public:
    // From relay registry rows already read, and the member's configured broker URL (without its
    // password, BrokerRegistry::configuredUrl(); empty when it names none). When a row names the
    // configured broker, the configured URL is taken (it names the user, which the row does not).
    // Empty when neither names a broker.
    static QStringList arguments(const QVector<RelayRecord>& relays, const QString& configuredUrl);
    // The same, reading the relay registry of `db` (the configured URL alone when it cannot).
    static QStringList arguments(Database& db, const QString& configuredUrl);
    // The URL those arguments name (empty when none).
    static QString url(const QVector<RelayRecord>& relays, const QString& configuredUrl);
};

} // namespace outbox
