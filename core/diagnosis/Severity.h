#pragma once

#include "core/support/Result.h"

#include <QString>
#include <QStringList>

namespace outbox {

// How urgent a finding is. The order matters: a higher value is worse.
enum class Severity { Info = 0, Warning = 1, Critical = 2 };

// Stable lower-case names ("info", "warning", "critical"): JSON, /metrics labels and alert rules.
QString severityName(Severity severity);
QStringList severityNames();
// The name for people, translated ("CRITICAL" / "严重"); never parse it.
QString severityText(Severity severity);
Result<Severity> parseSeverity(const QString& text);

} // namespace outbox
