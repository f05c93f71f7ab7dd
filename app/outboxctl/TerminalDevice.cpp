#include "app/outboxctl/TerminalDevice.h"

#include "core/support/TerminalText.h"

namespace outbox::cli {

TerminalDevice::TerminalDevice(FILE* stream) : m_stream(stream)
{
    open(QIODevice::WriteOnly | QIODevice::Unbuffered);
}

TerminalDevice::~TerminalDevice()
{
    if (m_pendingCr)
        put(QByteArrayLiteral("\\r"));
}

void TerminalDevice::writeRaw(const QByteArray& bytes)
{
    if (m_pendingCr) {
        put(QByteArrayLiteral("\\r"));
        m_pendingCr = false;
    }
    put(bytes);
}

qint64 TerminalDevice::writeData(const char* data, qint64 size)
{
    QString text = QString::fromUtf8(data, size);
    if (m_pendingCr)
        text.prepend(QLatin1Char('\r'));
    m_pendingCr = text.endsWith(QLatin1Char('\r'));
    if (m_pendingCr)
        text.chop(1);
    put(TerminalText::escapeOutput(text).toUtf8());
    return size;
}

void TerminalDevice::put(const QByteArray& bytes)
{
    std::fwrite(bytes.constData(), 1, size_t(bytes.size()), m_stream);
    std::fflush(m_stream);
}

} // namespace outbox::cli
