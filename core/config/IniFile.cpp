#include "core/config/IniFile.h"

#include <QCoreApplication>
#include <QFile>
#include <QFileInfo>
#include <QRegularExpression>
#include <QSet>

namespace outbox::config {

namespace {

Error syntax(const QString& path, int line, const QString& what)
{
    return Error::usage(QStringLiteral("%1:%2: %3").arg(path).arg(line).arg(what));
}

// Removes an inline comment (" ;" outside double quotes) and the quotes around a quoted value.
Result<QString> cleanValue(const QString& raw, const QString& path, int line)
{
    QString value = raw.trimmed();
    if (value.startsWith(QLatin1Char('"'))) {
        const int close = value.indexOf(QLatin1Char('"'), 1);
        if (close < 0)
            return syntax(
                path, line,
                QCoreApplication::translate("outbox::config::IniFile", "unterminated quoted value"));
        const QString rest = value.mid(close + 1).trimmed();
        if (!rest.isEmpty() && !rest.startsWith(QLatin1Char(';')) && !rest.startsWith(QLatin1Char('#')))
            return syntax(path, line,
                          QCoreApplication::translate("outbox::config::IniFile",
                                                      "unexpected text after the quoted value"));
        return value.mid(1, close - 1);
    }
    for (int i = 1; i < value.size(); ++i)
        if (value.at(i) == QLatin1Char(';') && value.at(i - 1).isSpace())
            return value.left(i).trimmed();
    return value;
}

} // namespace

Result<IniDocument> IniFile::read(const QString& path)
{
    QFile file(path);
    if (!QFileInfo(path).isFile() || !file.open(QIODevice::ReadOnly))
        return Error::usage(
            QCoreApplication::translate("outbox::config::IniFile", "cannot read the configuration file %1")
                .arg(path));
    if (file.size() > MaxBytes)
        return Error::usage(QCoreApplication::translate("outbox::config::IniFile",
                                                        "the configuration file %1 is larger than %2 bytes")
                                .arg(path)
                                .arg(MaxBytes));
    return parse(file.read(MaxBytes), path);
}

Result<IniDocument> IniFile::parse(const QByteArray& bytes, const QString& path)
{
    static const QRegularExpression sectionRe(
        QStringLiteral("^\\[\\s*([A-Za-z0-9_.-]+)(?:\\s+([A-Za-z0-9_.-]+))?\\s*\\]\\s*([;#].*)?$"));
    static const QRegularExpression keyRe(QStringLiteral("^([A-Za-z0-9_.-]+)\\s*=(.*)$"));
    QByteArray text = bytes;
    if (text.startsWith("\xEF\xBB\xBF"))
        text.remove(0, 3);
    IniDocument document;
    QSet<QString> sections;
    QSet<QString> keys; // of the current section
    QString section;
    const QList<QByteArray> lines = text.split('\n');
    for (int i = 0; i < lines.size(); ++i) {
        const int lineNo = i + 1;
        QByteArray raw = lines.at(i);
        if (raw.endsWith('\r'))
            raw.chop(1);
        for (const char c : std::as_const(raw))
            if ((uchar(c) < 0x20 && c != '\t') || c == 0x7f)
                return syntax(path, lineNo,
                              QCoreApplication::translate("outbox::config::IniFile", "the file is not text"));
        const QString line = QString::fromUtf8(raw).trimmed();
        if (line.contains(QChar::ReplacementCharacter))
            return syntax(
                path, lineNo,
                QCoreApplication::translate("outbox::config::IniFile", "the line is not valid UTF-8"));
        if (line.isEmpty() || line.startsWith(QLatin1Char(';')) || line.startsWith(QLatin1Char('#')))
            continue;
        if (line.startsWith(QLatin1Char('['))) {
            const auto m = sectionRe.match(line);
            if (!m.hasMatch())
                return syntax(
                    path, lineNo,
                    QCoreApplication::translate("outbox::config::IniFile",
                                                "malformed section header (expected [name] or [kind name])"));
            // "[member orders]": the kind is lower-cased, the name kept as written.
            section = m.captured(1).toLower();
            if (m.hasCaptured(2))
                section += QLatin1Char(' ') + m.captured(2);
            if (sections.contains(section))
                return syntax(
                    path, lineNo,
                    QCoreApplication::translate("outbox::config::IniFile", "section [%1] appears twice")
                        .arg(section));
            sections.insert(section);
            document.sections.push_back({section, lineNo});
            keys.clear();
            continue;
        }
        const auto m = keyRe.match(line);
        if (!m.hasMatch())
            return syntax(
                path, lineNo,
                QCoreApplication::translate("outbox::config::IniFile", "expected [section] or key = value"));
        if (section.isEmpty())
            return syntax(
                path, lineNo,
                QCoreApplication::translate("outbox::config::IniFile", "%1 stands before any [section]")
                    .arg(m.captured(1)));
        auto value = cleanValue(m.captured(2), path, lineNo);
        if (!value)
            return value.error();
        const QString key = m.captured(1);
        if (keys.contains(key))
            return syntax(path, lineNo,
                          QCoreApplication::translate("outbox::config::IniFile", "[%1] %2 is set twice")
                              .arg(section, key));
        keys.insert(key);
        document.entries.push_back(IniEntry{section, key, *value, lineNo});
    }
    return document;
}

} // namespace outbox::config
