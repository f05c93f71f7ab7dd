#include "ui/desktop/connection/DatabaseSession.h"

namespace outbox::desktop {

DatabaseSession::DatabaseSession(const DatabaseTarget& target, const QString& purpose, QObject* parent)
    : QObject(parent), m_target(target)
{
    m_worker = new DatabaseSessionWorker(target, purpose);
    m_worker->moveToThread(&m_thread);
    m_thread.setObjectName(QStringLiteral("db-") + purpose);
    m_thread.start();
}

DatabaseSession::~DatabaseSession()
{
    // The connection belongs to the session thread: close it there, then stop the thread.
    DatabaseSessionWorker* worker = m_worker;
    QMetaObject::invokeMethod(
        worker, [worker]() { worker->close(); }, Qt::BlockingQueuedConnection);
    m_thread.quit();
    m_thread.wait();
    delete m_worker;
}

void DatabaseSession::setConnected(bool connected, const QString& message)
{
    if (connected == m_connected)
        return;
    m_connected = connected;
    if (connected)
        emit connectionRestored();
    else
        emit connectionLost(message);
}

} // namespace outbox::desktop
