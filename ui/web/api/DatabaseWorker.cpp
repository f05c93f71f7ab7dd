#include "ui/web/api/DatabaseWorker.h"

namespace outbox::web {

DatabaseWorker::DatabaseWorker(DatabaseUrl url, QString tablePrefix)
    : m_url(std::move(url)), m_tablePrefix(std::move(tablePrefix))
{
}

Database* DatabaseWorker::connection(Error* error)
{
    if (m_db)
        return m_db.get();
    Database::Options options;
    options.purpose = QStringLiteral("web");
    options.tablePrefix = m_tablePrefix;
    auto db = Database::open(m_url, options);
    if (!db) {
        *error = db.error();
        return nullptr;
    }
    m_db = std::move(db).value();
    return m_db.get();
}

} // namespace outbox::web
