#include "core/support/TerminalText.h"

namespace outbox {

namespace {

bool needsEscape(QChar c)
{
    switch (c.category()) {
    case QChar::Other_Control:
    case QChar::Other_Format:
    case QChar::Separator_Line:
    case QChar::Separator_Paragraph:
    case QChar::Other_Surrogate:
        return true;
    default:
        return false;
    }
}

enum class Keep { Nothing, Lines, LinesAndCrlf };

QString escaped(const QString& text, Keep keep)
{
    const bool keepLines = keep != Keep::Nothing;
    qsizetype i = 0;
    while (i < text.size() && !needsEscape(text.at(i)))
        ++i;
    if (i == text.size())
        return text; // the common case: nothing to do
    QString out = text.left(i);
    out.reserve(text.size() + 16);
    for (; i < text.size(); ++i) {
        const QChar c = text.at(i);
        const bool crlf = keep == Keep::LinesAndCrlf && c == QLatin1Char('\r') && i + 1 < text.size() &&
                          text.at(i + 1) == QLatin1Char('\n');
        if (!needsEscape(c) || (keepLines && (c == QLatin1Char('\n') || c == QLatin1Char('\t'))) || crlf) {
            out += c;
            continue;
        }
        switch (c.unicode()) {
        case 0x1b:
            out += QLatin1String("\\e");
            break;
        case '\n':
            out += QLatin1String("\\n");
            break;
        case '\r':
            out += QLatin1String("\\r");
            break;
        case '\t':
            out += QLatin1String("\\t");
            break;
        default:
            out += c.unicode() < 0x100 ? QStringLiteral("\\x%1").arg(c.unicode(), 2, 16, QLatin1Char('0'))
                                       : QStringLiteral("\\u%1").arg(c.unicode(), 4, 16, QLatin1Char('0'));
        }
    }
    return out;
}

} // namespace

QString TerminalText::escape(const QString& text)
{
    return escaped(text, Keep::Nothing);
}

QString TerminalText::escapeKeepingLines(const QString& text)
{
    return escaped(text, Keep::Lines);
}

QString TerminalText::escapeOutput(const QString& text)
{
    return escaped(text, Keep::LinesAndCrlf);
}

QString TerminalText::escapeJson(const QString& json)
{
    QString out;
    qsizetype last = 0;
    for (qsizetype i = 0; i < json.size(); ++i) {
        const QChar c = json.at(i);
        // Below U+0020 the encoder has escaped already (a raw line feed is the document's layout).
        if (c.unicode() < 0x20 || !needsEscape(c))
            continue;
        out += QStringView(json).mid(last, i - last);
        out += QStringLiteral("\\u%1").arg(c.unicode(), 4, 16, QLatin1Char('0'));
        last = i + 1;
    }
    if (last == 0)
        return json;
    out += QStringView(json).mid(last);
    return out;
}

} // namespace outbox
