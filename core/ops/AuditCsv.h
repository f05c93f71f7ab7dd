#pragma once

#include <QByteArray>
#include <QJsonObject>
#include <QStringList>

namespace outbox {

// The audit log as CSV: one header line, then one line per entry, in the columns of
// AuditEntry::toJson() (objects and arrays as compact JSON). Front ends pass the JSON they would
// show (the web API's is masked for viewers), so every export holds what its reader may see.
// Cells go through Csv, which keeps database text from becoming a spreadsheet formula.
class AuditCsv
{
public:
    static const QStringList& columns();
    static QByteArray header();
    static QByteArray line(const QJsonObject& entry);
};

} // namespace outbox
