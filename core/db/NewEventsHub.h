#pragma once

#include <QObject>
#include <QString>

namespace outbox {

// In-process wake-up: when a transaction that wrote outbox events commits on a Database of this
// process, committed() carries that database's eventsKey(). A relay in the same process (the demo,
// an application embedding the relay) connects to it and claims at once instead of waiting for
// its poll; other processes still rely on NOTIFY (PostgreSQL) or polling.
class NewEventsHub : public QObject
{
    Q_OBJECT
public:
    static NewEventsHub& instance();

signals:
    void committed(const QString& eventsKey);

private:
    NewEventsHub() = default;
};

} // namespace outbox
