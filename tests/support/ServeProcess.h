#pragma once

#include "tests/support/OutboxctlProcess.h"

#include <QByteArray>
#include <QProcess>
#include <QStringList>
#include <QTemporaryDir>
#include <QUrl>
#include <memory>

namespace outbox::test {

// A free TCP port of 127.0.0.1 (the kernel's pick, released again).
quint16 freeLocalPort();
// A field of /proc/PID/status in KiB (VmRSS, VmHWM), -1 when it cannot be read.
qint64 procStatusKb(qint64 pid, const QByteArray& field);

// The web server fixture: the real `outboxctl serve` ($OUTBOXCTL) as a child process on a free port
// of 127.0.0.1, with its configuration file in a directory of its own.
//
//   ServeProcess serve;
//   QVERIFY2(serve.start("[database]\nurl = …\n[tokens]\n…"), serve.output.constData());
//   HttpTestClient http(serve.baseUrl());
struct ServeProcess
{
    QTemporaryDir dir;
    std::unique_ptr<QProcess> process;
    quint16 port = 0;
    QByteArray output; // what it printed until it said "serving" (or ended)

    // Writes `ini` to outbox.ini and starts `outboxctl serve --config FILE --listen 127.0.0.1:PORT`
    // followed by `extra` (environment as `options` say); waits up to 15 s for "serving". False
    // when it ended or did not say so.
    bool start(const QByteArray& ini, const QStringList& extra = {}, const OutboxctlStart& options = {});
    QString configFile() const { return dir.filePath(QStringLiteral("outbox.ini")); }
    QUrl baseUrl() const;
    qint64 pid() const { return process ? process->processId() : 0; }
};

} // namespace outbox::test
