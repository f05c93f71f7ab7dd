#include "ui/web/api/DatabaseWorker.h"

namespace outbox::web {

DatabaseWorker::DatabaseWorker(DatabaseTarget target) : m_target(std::move(target)) {}

Database* DatabaseWorker::connection(Error* error)
{
    if (m_db)
        return m_db.get();
    auto db = m_target.open(QStringLiteral("web"));
    if (!db) {
        *error = db.error();
        return nullptr;
    }
    m_db = std::move(db).value();
    return m_db.get();
}

} // namespace outbox::web
