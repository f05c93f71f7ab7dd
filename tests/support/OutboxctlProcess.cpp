#include "tests/support/OutboxctlProcess.h"

#include <QJsonDocument>

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

QJsonObject OutboxctlRun::json() const
{
    return QJsonDocument::fromJson(out).object();
}

OutboxctlRun runOutboxctl(const QStringList& arguments, const QProcessEnvironment& extraEnv, int timeoutMs)
{
    QProcess p;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.remove(QStringLiteral("OUTBOX_DB_URL"));
    env.remove(QStringLiteral("OUTBOX_KAFKA_BOOTSTRAP"));
    for (const QString& key : extraEnv.keys())
        env.insert(key, extraEnv.value(key));
    p.setProcessEnvironment(env);
    p.setStandardInputFile(QProcess::nullDevice());
    p.start(qEnvironmentVariable("OUTBOXCTL"), arguments);
    if (!p.waitForFinished(timeoutMs))
        qFatal("outboxctl %s did not finish", qPrintable(arguments.join(QLatin1Char(' '))));
    return OutboxctlRun{p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1, p.readAllStandardOutput(),
                        p.readAllStandardError()};
}

} // namespace outbox::test
