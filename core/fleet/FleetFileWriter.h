#pragma once

#include "core/support/Result.h"

#include <QByteArray>
#include <QString>
#include <QStringList>
#include <QVector>

namespace outbox {

// Writes a fleet file (the format Fleet reads) from a list of databases, e.g. the desktop console's
// connection profiles. Passwords never go into it: a URL is written without its password (each
// member takes it from OUTBOX_DB_PASSWORD_<MEMBER> or a password_file added by hand). What is
// written is read back with Fleet::parse before it is returned, so a file this writes always loads;
// a member that would not (a name Fleet refuses, a malformed URL, two names sharing one password
// variable) is one usage error naming it, and nothing is written.
class FleetFileWriter
{
public:
    struct Member
    {
        QString name;
        QString url; // a password in it is dropped
        QString tablePrefix;
        QStringList tags; // "team=checkout", "edge"
    };

    static Result<QByteArray> render(const QVector<Member>& members);
    // render() into `path`, replacing it whole or not at all.
    static Status write(const QString& path, const QVector<Member>& members);
};

} // namespace outbox
