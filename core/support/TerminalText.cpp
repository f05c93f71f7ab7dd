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

QString escaped(const QString& text, bool keepLines)
{
    qsizetype i = 0;
    while (i < text.size() && !needsEscape(text.at(i)))
        ++i;
    if (i == text.size())
        return text; // the common case: nothing to do
    QString out = text.left(i);
    out.reserve(text.size() + 16);
    for (; i < text.size(); ++i) {
        const QChar c = text.at(i);
        if (!needsEscape(c) || (keepLines && (c == QLatin1Char('\n') || c == QLatin1Char('\t')))) {
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
    return escaped(text, false);
}

QString TerminalText::escapeKeepingLines(const QString& text)
{
    return escaped(text, true);
}

} // namespace outbox
