#include "ui/desktop/widgets/Labels.h"

#include <QCoreApplication>
#include <QLocale>

namespace outbox::desktop {

QString Labels::status(const QString& status)
{
    if (status == QLatin1String("PENDING"))
        return QCoreApplication::translate("Labels", "PENDING");
    if (status == QLatin1String("SENDING"))
        return QCoreApplication::translate("Labels", "SENDING");
    if (status == QLatin1String("SENT"))
        return QCoreApplication::translate("Labels", "SENT");
    if (status == QLatin1String("FAILED"))
        return QCoreApplication::translate("Labels", "FAILED");
    if (status == QLatin1String("DEAD"))
        return QCoreApplication::translate("Labels", "DEAD");
    if (status == QLatin1String("NEW"))
        return QCoreApplication::translate("Labels", "NEW");
    if (status == QLatin1String("REPLAYING"))
        return QCoreApplication::translate("Labels", "REPLAYING");
    if (status == QLatin1String("REPLAYED"))
        return QCoreApplication::translate("Labels", "REPLAYED");
    if (status == QLatin1String("DISCARDED"))
        return QCoreApplication::translate("Labels", "DISCARDED");
    return status;
}

QString Labels::bytes(qint64 bytes)
{
    if (bytes < 0)
        return QCoreApplication::translate("Labels", "unknown");
    if (bytes < 1024)
        return QCoreApplication::translate("Labels", "%n byte(s)", nullptr, int(bytes));
    return QLocale().formattedDataSize(bytes, 1, QLocale::DataSizeTraditionalFormat);
}

QString Labels::age(qint64 ms)
{
    if (ms < 0)
        return QCoreApplication::translate("Labels", "none");
    if (ms < 60000)
        return QCoreApplication::translate("Labels", "%1 s").arg(ms / 1000);
    if (ms < 3600000)
        return QCoreApplication::translate("Labels", "%1 min").arg(ms / 60000);
    if (ms < 86400000)
        return QCoreApplication::translate("Labels", "%1 h")
            .arg(QString::number(double(ms) / 3600000.0, 'f', 1));
    return QCoreApplication::translate("Labels", "%1 d")
        .arg(QString::number(double(ms) / 86400000.0, 'f', 1));
}

QString Labels::errorClass(const QString& errorClass)
{
    if (errorClass == QLatin1String("deterministic"))
        return QCoreApplication::translate("Labels", "deterministic");
    if (errorClass == QLatin1String("transient"))
        return QCoreApplication::translate("Labels", "transient");
    if (errorClass == QLatin1String("unknown_outcome"))
        return QCoreApplication::translate("Labels", "unknown outcome");
    if (errorClass == QLatin1String("connection"))
        return QCoreApplication::translate("Labels", "connection");
    // Dead letters' classes (core/db/DeadLetterGroups): what the consumer said, or its retries.
    if (errorClass == QLatin1String("permanent"))
        return QCoreApplication::translate("Labels", "permanent");
    if (errorClass == QLatin1String("retries_exhausted"))
        return QCoreApplication::translate("Labels", "retries exhausted");
    return errorClass;
}

bool Labels::isCannotConnect(const QString& message)
{
    // core/db/Database's sentence, as core's catalogue translated it (or in English without one).
    const QString translated = QCoreApplication::translate("outbox::Database", "cannot connect to %1: %2")
                                   .section(QStringLiteral("%1"), 0, 0);
    return message.startsWith(QLatin1String("cannot connect to "), Qt::CaseInsensitive) ||
           (!translated.isEmpty() && message.startsWith(translated));
}

QString Labels::databaseError(const QString& message)
{
    static const QString prefix = QStringLiteral("cannot connect to ");
    if (message.startsWith(prefix, Qt::CaseInsensitive)) {
        const qsizetype colon = message.indexOf(QLatin1String(": "), prefix.size());
        if (colon > 0)
            return QCoreApplication::translate("Labels", "Cannot connect to %1: %2")
                .arg(message.mid(prefix.size(), colon - prefix.size()), message.mid(colon + 2));
    }
    return message;
}

QString Labels::dateTime(const QDateTime& at)
{
    return at.isValid() ? at.toLocalTime().toString(QStringLiteral("yyyy-MM-dd HH:mm:ss")) : QString();
}

QString Labels::time(const QDateTime& at)
{
    return at.isValid() ? at.toLocalTime().toString(QStringLiteral("HH:mm:ss")) : QString();
}

} // namespace outbox::desktop
