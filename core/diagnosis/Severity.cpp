#include "core/diagnosis/Severity.h"

#include <QCoreApplication>

namespace outbox {

QString severityName(Severity severity)
{
    switch (severity) {
    case Severity::Info:
        return QStringLiteral("info");
    case Severity::Warning:
        return QStringLiteral("warning");
    case Severity::Critical:
        return QStringLiteral("critical");
    }
    return {};
}

QStringList severityNames()
{
    return {severityName(Severity::Info), severityName(Severity::Warning), severityName(Severity::Critical)};
}

QString severityText(Severity severity)
{
    switch (severity) {
    case Severity::Info:
        return QCoreApplication::translate("outbox::Severity", "INFO");
    case Severity::Warning:
        return QCoreApplication::translate("outbox::Severity", "WARNING");
    case Severity::Critical:
        return QCoreApplication::translate("outbox::Severity", "CRITICAL");
    }
    return {};
}

Result<Severity> parseSeverity(const QString& text)
{
    const QString name = text.trimmed().toLower();
    for (Severity s : {Severity::Info, Severity::Warning, Severity::Critical})
        if (severityName(s) == name)
            return s;
    return Error::usage(QStringLiteral("unknown severity \"%1\" (expected %2)")
                            .arg(text, severityNames().join(QStringLiteral(", "))));
}

} // namespace outbox
