#pragma once

#include <QIODevice>
#include <cstdio>

namespace outbox::cli {

// outboxctl's human output on its way to stdout: every byte passes TerminalText::escapeOutput(), so
// database and URL text cannot reach the terminal or the journal as escape sequences, whichever
// printer wrote it (tables, `dlq show`, CSV, trace lines). A CR that ends a write waits for the next
// one: it is kept only before a line feed (a CSV line's end). JSON goes around it (writeRaw()).
class TerminalDevice : public QIODevice
{
public:
    explicit TerminalDevice(FILE* stream);
    ~TerminalDevice() override;

    // Bytes that are safe already (JSON escaped by TerminalText::escapeJson()).
    void writeRaw(const QByteArray& bytes);

protected:
    qint64 readData(char*, qint64) override { return -1; }
    qint64 writeData(const char* data, qint64 size) override;

private:
    void put(const QByteArray& bytes);

    FILE* m_stream;
    bool m_pendingCr = false;
};

} // namespace outbox::cli
