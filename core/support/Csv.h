#pragma once

#include <QByteArray>
#include <QString>
#include <QStringList>

namespace outbox {

// CSV as spreadsheet tools read it (RFC 4180, CRLF line ends, UTF-8). Every CSV the product
// writes — the console's, `outboxctl`'s and the web API's audit exports — goes through here.
//
// The cells hold database text (actors, reasons, filters), so a cell must never become a formula:
// a cell that starts with '=', '+', '-', '@', a tab or a carriage return (or their full-width
// forms) is prefixed with a single quote, which spreadsheets show as text ("'=HYPERLINK(…)").
class Csv
{
public:
    static QString cell(const QString& text);
    // The cells joined by commas, ending with CRLF, as UTF-8.
    static QByteArray line(const QStringList& cells);
    // True when a spreadsheet would read `text` as a formula (what cell() defuses).
    static bool looksLikeFormula(const QString& text);
};

} // namespace outbox
