#include "tests/support/RecordingTranslator.h"

#include <QMutex>

namespace outbox::test {

namespace {
QMutex missedLock; // translate() runs on the sampler's and sessions' threads too
}

bool RecordingTranslator::load(const QString& dir)
{
    return m_console.load(dir + QStringLiteral("/outbox_console_zh_CN.qm")) &&
           m_core.load(dir + QStringLiteral("/outbox_core_zh_CN.qm"));
}

QString RecordingTranslator::translate(const char* context, const char* source, const char* disambiguation,
                                       int n) const
{
    QString t = m_console.translate(context, source, disambiguation, n);
    if (t.isEmpty())
        t = m_core.translate(context, source, disambiguation, n);
    const QByteArray c(context);
    if (t.isEmpty() && (c.startsWith("outbox::") || c == "Labels" || c == "CommandLine")) {
        QMutexLocker lock(&missedLock);
        m_missed.insert(QString::fromUtf8(c + " | " + source));
    }
    return t;
}

QStringList RecordingTranslator::missed() const
{
    QMutexLocker lock(&missedLock);
    QStringList missed(m_missed.cbegin(), m_missed.cend());
    missed.sort();
    return missed;
}

} // namespace outbox::test
