#include "tests/support/ServeProcess.h"

#include "tests/support/OutboxctlProcess.h"

#include <QElapsedTimer>
#include <QFile>
#include <QHostAddress>
#include <QTcpServer>

namespace outbox::test {

quint16 freeLocalPort()
{
    QTcpServer probe;
    probe.listen(QHostAddress::LocalHost, 0);
    return probe.serverPort();
}

qint64 procStatusKb(qint64 pid, const QByteArray& field)
{
    QFile f(QStringLiteral("/proc/%1/status").arg(pid));
    if (!f.open(QIODevice::ReadOnly))
        return -1;
    for (const QByteArray& line : f.readAll().split('\n'))
        if (line.startsWith(QByteArray(field + ':')))
            return line.mid(field.size() + 1).trimmed().split(' ').value(0).toLongLong();
    return -1;
}

bool ServeProcess::start(const QByteArray& ini, const QStringList& extra, const OutboxctlStart& options)
{
    QFile file(configFile());
    if (!file.open(QIODevice::WriteOnly) || file.write(ini) != ini.size())
        return false;
    file.close();
    port = freeLocalPort();
    process =
        startOutboxctl(QStringList{QStringLiteral("serve"), QStringLiteral("--config"), configFile(),
                                   QStringLiteral("--listen"), QStringLiteral("127.0.0.1:%1").arg(port)} +
                           extra,
                       options);
    if (!process->waitForStarted())
        return false;
    QElapsedTimer t;
    t.start();
    while (t.elapsed() < 15000) {
        process->waitForReadyRead(100);
        output += process->readAll();
        if (output.contains("serving"))
            return true;
        if (process->state() != QProcess::Running)
            return false;
    }
    return false;
}

QUrl ServeProcess::baseUrl() const
{
    return QUrl(QStringLiteral("http://127.0.0.1:%1").arg(port));
}

} // namespace outbox::test
