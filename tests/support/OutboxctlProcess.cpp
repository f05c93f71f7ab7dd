#include "tests/support/OutboxctlProcess.h"

namespace outbox::test {

std::unique_ptr<QProcess> startOutboxctl(const QStringList& arguments, const QString& failpoints)
{
    auto p = std::make_unique<QProcess>();
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    if (!failpoints.isEmpty())
        env.insert(QStringLiteral("OUTBOX_FAILPOINTS"), failpoints);
    p->setProcessEnvironment(env);
    p->setProcessChannelMode(QProcess::MergedChannels);
    p->start(qEnvironmentVariable("OUTBOXCTL"), arguments);
    if (!p->waitForStarted(10000))
        qFatal("outboxctl %s did not start", qPrintable(arguments.value(0)));
    return p;
}

int terminateAndWait(QProcess& p)
{
    if (p.state() != QProcess::NotRunning) {
        p.terminate();
        if (!p.waitForFinished(30000)) {
            p.kill();
            p.waitForFinished(5000);
        }
    }
    return p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
}

} // namespace outbox::test
