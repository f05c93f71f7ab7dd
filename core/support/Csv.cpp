#include "core/support/Csv.h"

namespace outbox {

bool Csv::looksLikeFormula(const QString& text)
{
    if (text.isEmpty())
        return false;
    switch (text.front().unicode()) {
    case '=':
    case '+':
    case '-':
    case '@':
    case '\t':
    case '\r':
    case 0xFF1D: // full-width = + - @: some spreadsheets fold them to the ASCII ones
    case 0xFF0B:
    case 0xFF0D:
    case 0xFF20:
        return true;
    default:
        return false;
    }
}

QString Csv::cell(const QString& text)
{
    const QString value = looksLikeFormula(text) ? QLatin1Char('\'') + text : text;
    if (!value.contains(QLatin1Char(',')) && !value.contains(QLatin1Char('"')) &&
        !value.contains(QLatin1Char('\n')) && !value.contains(QLatin1Char('\r')))
        return value;
    QString quoted = value;
    quoted.replace(QStringLiteral("\""), QStringLiteral("\"\""));
    return QLatin1Char('"') + quoted + QLatin1Char('"');
}

QByteArray Csv::line(const QStringList& cells)
{
    QStringList out;
    out.reserve(cells.size());
    for (const QString& c : cells)
        out << cell(c);
    return out.join(QLatin1Char(',')).toUtf8() + "\r\n";
}

} // namespace outbox
