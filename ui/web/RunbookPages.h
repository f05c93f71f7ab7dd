#pragma once

#include "ui/web/http/WebReply.h"

#include <QCoreApplication>
#include <QString>

namespace outbox::web {

// GET /docs/runbooks/ (the index) and /docs/runbooks/<id> (or <id>.md): the runbook page of a
// doctor finding as plain-text Markdown, written by core/diagnosis/Runbook — the same text the
// doctor prints and docs/runbooks/ holds. Alert rules link these pages (runbook_url). They hold no
// data of the database, so no token is needed (a browser following an alert's link has none).
class RunbookPages
{
    Q_DECLARE_TR_FUNCTIONS(outbox::web::RunbookPages)

public:
    static bool handles(const QString& path);
    static WebReply reply(const QString& path);
};

} // namespace outbox::web
