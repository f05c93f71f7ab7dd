#pragma once

#include "core/db/RelayRecord.h"

#include <QCoreApplication>
#include <QString>
#include <QStringList>
#include <QVector>

namespace outbox {

// The broker a relay (or a delivering replay) prepared for one database (a fleet member, the
// console's database) must publish to, as argv words (`--broker=URL`, never a password): the broker
// that database's own configuration names (a fleet member: the `broker` key of its section), else
// the Kafka bootstrap its most recently alive relay registered (its relay registry row). Never
// another database's broker nor a server-wide default: a command naming another database's broker
// would publish this database's events there and mark them SENT (issue 36 H1, issue 39 item 3).
class MemberBroker
{
    Q_DECLARE_TR_FUNCTIONS(outbox::MemberBroker)

public:
    struct Choice
    {
        QStringList arguments; // empty when neither tells: `refused` says what is missing
        QString refused;
    };
    // `configured`: the arguments of the database's configured broker (arguments(url)), empty when it
    // names none; `relays`: its relay registry rows; `whatToSet`: the sentence saying what to add to
    // name the broker (empty: the configuration's keys). A RabbitMQ row records where (host, port,
    // vhost), not the user to log in as: a URL made from it would log in as someone else, so it is
    // refused, not guessed.
    static Choice choose(const QStringList& configured, const QVector<RelayRecord>& relays,
                         const QString& whatToSet = QString());
    // `--broker=URL` for a configured broker URL without its password (empty for an empty URL).
    static QStringList arguments(const QString& brokerUrl);
};

} // namespace outbox
