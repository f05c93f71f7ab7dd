#pragma once

#include "core/support/Result.h"

#include <QPair>
#include <QString>
#include <QVector>

namespace outbox::config {

// One `key = value` line of an INI file, with where it stands.
struct IniEntry
{
    QString section; // lower-case, as written between [ ]; "member orders" for [member orders]
    QString key;     // as written
    QString value;   // trimmed; surrounding double quotes removed
    int line = 0;
};

struct IniDocument
{
    QVector<IniEntry> entries;
    QVector<QPair<QString, int>> sections; // every [section] header (lower-case) and its line
};

// Reads the INI dialect of the configuration file, keeping the line of every entry so that errors can
// name it:
//   [section]          a section header (letters, digits, _ - .)
//   [kind name]        a named section (the fleet file's [member orders]): kind lower-cased, name as written
//   key = value        an entry; the value may be "double-quoted" to keep ; or leading spaces
//   ; comment / # comment  whole-line comments; " ;" after a value starts an inline comment
// Anything else is a syntax error that names the file and the line. Keys before the first section,
// a section named twice and a key repeated within a section are errors too.
//
// Hand-written on purpose (about 100 lines): QSettings reports neither lines nor unknown keys and splits
// values at commas; Debian's libinih is built with 200-character lines and treats indented lines as
// continuations, which would silently merge indented keys.
class IniFile
{
public:
    static constexpr qint64 MaxBytes = 1024 * 1024;

    static Result<IniDocument> read(const QString& path);
    static Result<IniDocument> parse(const QByteArray& text, const QString& path);
};

} // namespace outbox::config
