#include "ui/desktop/connection/DatabaseSessionWorker.h"

namespace outbox::desktop {

Database* DatabaseSessionWorker::database(QString* error)
{
    if (!m_db) {
        auto opened = m_target.open(m_purpose);
        if (!opened) {
            if (error)
                *error = opened.message();
            return nullptr;
        }
        m_db = std::move(opened).value();
    }
    return m_db.get();
}

bool DatabaseSessionWorker::checkAlive()
{
    if (!m_db)
        return false;
    if (m_db->scalar(QStringLiteral("SELECT 1")).ok())
        return true;
    m_db.reset();
    return false;
}

} // namespace outbox::desktop
