#include "core/support/TextClip.h"

namespace outbox {

QString clipAtWord(const QString& text, int maxChars)
{
    if (maxChars < 2 || text.size() <= maxChars)
        return text.left(std::max(0, maxChars));
    const QChar ellipsis(0x2026);
    int cut = maxChars - 1; // room for the ellipsis
    // The last whitespace at or before the cut, when it leaves at least half of the room.
    int space = cut;
    while (space > 0 && !text.at(space).isSpace())
        --space;
    if (space >= cut / 2)
        cut = space;
    else if (text.at(cut - 1).isHighSurrogate())
        --cut;
    QString head = text.left(cut);
    // No dangling punctuation before the ellipsis ("foo, …" reads as "foo…").
    while (!head.isEmpty() && (head.back().isSpace() || head.back() == QLatin1Char(',') ||
                               head.back() == QLatin1Char(':') || head.back() == QLatin1Char(';')))
        head.chop(1);
    return head + ellipsis;
}

} // namespace outbox
