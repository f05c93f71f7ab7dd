#pragma once

#include <QString>

namespace outbox {

// Text from the database (errors, topics, keys, worker ids, reasons) on its way to a terminal in
// human output. Control characters would be interpreted by the terminal: ESC starts CSI/OSC
// sequences that recolour, retitle, hide lines, write to the clipboard or forge hyperlinks; CR
// and backspace overwrite what was printed. Each is shown as a visible escape instead (`\e`,
// `\x07`, `\r`, `\n`, `\u202e`). JSON output keeps its text, with what its encoder leaves raw
// escaped the JSON way (escapeJson()).
class TerminalText
{
public:
    // One value (a table cell, a field): every control and invisible formatting character escaped.
    static QString escape(const QString& text);
    // A multi-line value (a stack trace): like escape() but line feeds and tabs are kept.
    static QString escapeKeepingLines(const QString& text);
    // A program's whole human output as it goes to the terminal or the journal (outboxctl passes
    // every byte of it through here, CSV included): like escapeKeepingLines(), and a CR right before
    // a line feed kept (a CSV line's end), so no printer can forget it.
    static QString escapeOutput(const QString& text);
    // JSON text on its way to a terminal: what JSON allows raw in a string but a terminal would
    // interpret (C1 controls, DEL, bidi overrides, line separators) as \uXXXX: the same JSON.
    static QString escapeJson(const QString& json);
};

} // namespace outbox
