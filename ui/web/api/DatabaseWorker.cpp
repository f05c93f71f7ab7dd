#include "ui/web/api/DatabaseWorker.h"

#include <QJsonDocument>
#include <QJsonObject>

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

WebReply DatabaseWorker::run(const std::function<WebReply(Database&)>& job)
{
    Error error;
    Database* db = connection(&error);
    if (!db)
        return WebReply::fromError(error, true);
    WebReply reply = job(*db);
    if (reply.status < 500)
        return reply;
    // The connection may be what failed: it is not used again.
    const bool answers = db->scalar(QStringLiteral("SELECT 1")).ok();
    dropConnection();
    if (answers)
        return reply; // the job's own failure
    // The server closed it under us: a job on a dead connection changed nothing, run it again.
    db = connection(&error);
    if (!db)
        return WebReply::fromError(error, true);
    reply = job(*db);
    if (reply.status >= 500) {
        const bool stillAnswers = db->scalar(QStringLiteral("SELECT 1")).ok();
        dropConnection();
        if (!stillAnswers)
            reply = WebReply::error(
                503, QJsonDocument::fromJson(reply.body).object().value(QStringLiteral("error")).toString());
    }
    return reply;
}

} // namespace outbox::web
