#include "core/fleet/FleetFileWriter.h"

#include "core/db/DatabaseUrl.h"
#include "core/fleet/Fleet.h"

#include <QCoreApplication>
#include <QProcessEnvironment>
#include <QSaveFile>

namespace outbox {

namespace {

// A value as the INI reader gives it back: quoted when it holds what the reader would take for a
// comment or quotes (a quoted value cannot hold a double quote or a line break; render() refuses it).
QByteArray value(const QString& text)
{
    if (text.isEmpty())
        return {};
    const bool plain = !text.contains(QLatin1Char(';')) && !text.contains(QLatin1Char('#')) &&
                       !text.contains(QLatin1Char('"')) && text.trimmed() == text;
    return plain ? text.toUtf8() : '"' + text.toUtf8() + '"';
}

bool writable(const QString& text)
{
    return !text.contains(QLatin1Char('"')) && !text.contains(QLatin1Char('\n')) &&
           !text.contains(QLatin1Char('\r'));
}

} // namespace

Result<QByteArray> FleetFileWriter::render(const QVector<Member>& members)
{
    QByteArray text = "; Written by Outbox Console. Passwords are not in this file: each member takes\n"
                      "; its password from OUTBOX_DB_PASSWORD_<MEMBER> or a password_file = PATH line.\n"
                      "[fleet]\n";
    for (const Member& m : members) {
        if (!Fleet::isMemberName(m.name))
            return Error::usage(
                QCoreApplication::translate("outbox::Fleet", "member %1: %2")
                    .arg(m.name, QCoreApplication::translate("outbox::Fleet",
                                                             Fleet::MemberNameRule.toUtf8().constData())));
        auto url = DatabaseUrl::parse(m.url);
        if (!url)
            return Error::usage(
                QCoreApplication::translate("outbox::Fleet", "member %1: %2").arg(m.name, url.message()));
        const QString tags = m.tags.join(QStringLiteral(", "));
        for (const QString& v : {m.name, m.tablePrefix, tags})
            if (!writable(v))
                return Error::usage(
                    QCoreApplication::translate(
                        "outbox::FleetFileWriter",
                        "member %1: a value with a double quote or a line break cannot be written")
                        .arg(m.name));
        text += "\n[member " + m.name.toUtf8() + "]\nurl = " + value(url->redacted()) + '\n';
        if (!m.tablePrefix.isEmpty())
            text += "table_prefix = " + value(m.tablePrefix) + '\n';
        if (!tags.isEmpty())
            text += "tags = " + value(tags) + '\n';
    }
    // Read back as the fleet's users will read it: an error names the member and its line.
    auto back = Fleet::parse(text, QStringLiteral("(fleet file being written)"), QProcessEnvironment());
    if (!back)
        return back.error();
    return text;
}

Status FleetFileWriter::write(const QString& path, const QVector<Member>& members)
{
    auto text = render(members);
    if (!text)
        return text.error();
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(*text) != text->size() || !file.commit())
        return Error::usage(
            QCoreApplication::translate("outbox::FleetFileWriter", "cannot write the fleet file %1: %2")
                .arg(path, file.errorString()));
    return {};
}

} // namespace outbox
