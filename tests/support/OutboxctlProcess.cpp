#include "tests/support/OutboxctlProcess.h"

#include "core/support/CommandLine.h"

#include <QCoreApplication>
#include <QDir>
#include <QJsonDocument>

namespace outbox::test {

QString outboxctlProgram()
{
    // CTest sets it; run by hand, the test finds outboxctl where the build puts it beside tests/.
    const QString fromEnvironment = qEnvironmentVariable("OUTBOXCTL");
    return fromEnvironment.isEmpty() ? QDir(QCoreApplication::applicationDirPath())
                                           .filePath(QStringLiteral("../app/outboxctl/outboxctl"))
                                     : fromEnvironment;
}

std::unique_ptr<QProcess> startOutboxctl(const QStringList& arguments, const QString& failpoints)
{
    OutboxctlStart options;
    options.failpoints = failpoints;
    return startOutboxctl(arguments, options);
}

std::unique_ptr<QProcess> startOutboxctl(const QStringList& arguments, const OutboxctlStart& options)
{
    auto p = std::make_unique<QProcess>();
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    for (const QString& name : options.removedVariables)
        env.remove(name);
    if (!options.failpoints.isEmpty())
        env.insert(QStringLiteral("OUTBOX_FAILPOINTS"), options.failpoints);
    for (const QString& key : options.extraEnv.keys())
        env.insert(key, options.extraEnv.value(key));
    p->setProcessEnvironment(env);
    if (options.noInput)
        p->setStandardInputFile(QProcess::nullDevice());
    if (options.outFile.isEmpty()) {
        p->setProcessChannelMode(QProcess::MergedChannels);
    } else {
        if (options.errFile.isEmpty())
            p->setProcessChannelMode(QProcess::MergedChannels);
        p->setStandardOutputFile(options.outFile);
        if (!options.errFile.isEmpty())
            p->setStandardErrorFile(options.errFile);
    }
    p->start(outboxctlProgram(), arguments);
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

int OutboxctlRun::errLines() const
{
    return int(err.trimmed().split('\n').size());
}

OutboxctlRun runOutboxctl(const QStringList& arguments, const QProcessEnvironment& extraEnv, int timeoutMs)
{
    OutboxctlOptions options;
    options.extraEnv = extraEnv;
    options.timeoutMs = timeoutMs;
    return runOutboxctl(arguments, options);
}

namespace {

OutboxctlRun runProgram(const QString& program, const QStringList& arguments, const OutboxctlOptions& options)
{
    QProcess p;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.remove(QStringLiteral("OUTBOX_DB_URL"));
    env.remove(QStringLiteral("OUTBOX_KAFKA_BOOTSTRAP"));
    if (options.withoutOutboxEnvironment)
        for (const QString& key : env.keys())
            if (key.startsWith(QLatin1String("OUTBOX_")) && !key.startsWith(QLatin1String("OUTBOX_TEST")))
                env.remove(key);
    for (const QString& key : options.extraEnv.keys())
        env.insert(key, options.extraEnv.value(key));
    env.insert(QStringLiteral("OUTBOXCTL"), outboxctlProgram()); // a printed line names "$OUTBOXCTL"
    p.setProcessEnvironment(env);
    p.setStandardInputFile(QProcess::nullDevice());
    p.start(program, arguments);
    if (options.stopAfterMs > 0 && !p.waitForFinished(options.stopAfterMs))
        p.terminate();
    if (!p.waitForFinished(options.timeoutMs))
        qFatal("%s %s did not finish", qPrintable(program), qPrintable(arguments.join(QLatin1Char(' '))));
    return OutboxctlRun{p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1, p.readAllStandardOutput(),
                        p.readAllStandardError()};
}

} // namespace

OutboxctlRun runOutboxctl(const QStringList& arguments, const OutboxctlOptions& options)
{
    if (!options.onTerminal)
        return runProgram(outboxctlProgram(), arguments, options);
    QStringList words{CommandLine::shellQuote(outboxctlProgram())};
    for (const QString& a : arguments)
        words << CommandLine::shellQuote(a);
    OutboxctlRun run = runProgram(QStringLiteral("script"),
                                  {QStringLiteral("-q"), QStringLiteral("-e"), QStringLiteral("-c"),
                                   words.join(QLatin1Char(' ')), QStringLiteral("/dev/null")},
                                  options);
    run.out += run.err;
    run.err.clear();
    return run;
}

OutboxctlRun runPrintedCommand(const QString& commandLine, const OutboxctlOptions& options)
{
    if (!commandLine.startsWith(QLatin1String("outboxctl ")))
        qFatal("not an outboxctl command: %s", qPrintable(commandLine));
    const QString line = QStringLiteral("\"$OUTBOXCTL\" ") + commandLine.mid(10);
    return runProgram(QStringLiteral("/bin/sh"), {QStringLiteral("-c"), line}, options);
}

} // namespace outbox::test
