#pragma once

#include <QString>

namespace outbox {

// Text from the database (errors, topics, keys, worker ids, reasons) on its way to a terminal in
// human output. Control characters would be interpreted by the terminal: ESC starts CSI/OSC
// sequences that recolour, retitle, hide lines, write to the clipboard or forge hyperlinks; CR
// and backspace overwrite what was printed. Each is shown as a visible escape instead (`\e`,
// `\x07`, `\r`, `\n`, `\u202e`). JSON output
// needs none of this (its encoder escapes control characters).
class TerminalText
{
public:
    // One value (a table cell, a field): every control and invisible formatting character escaped.
    static QString escape(const QString& text);
    // A multi-line value (a stack trace): like escape() but line feeds and tabs are kept.
    static QString escapeKeepingLines(const QString& text);
};

} // namespace outbox
