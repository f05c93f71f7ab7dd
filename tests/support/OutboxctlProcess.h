#pragma once

#include <QJsonObject>
#include <QProcess>
#include <QProcessEnvironment>
#include <QStringList>
#include <memory>

namespace outbox::test {

// The real `outboxctl` binary: $OUTBOXCTL (CTest sets it), else the one this build made (benchmarks
// started by hand).
QString outboxctlProgram();
// The real `outboxctl` binary (outboxctlProgram()) as a child process, stdout and stderr merged, with
// OUTBOX_FAILPOINTS set when `failpoints` is not empty. Crash tests drive it.
std::unique_ptr<QProcess> startOutboxctl(const QStringList& arguments, const QString& failpoints = {});
// What the older tests ask of a started child besides its arguments.
struct OutboxctlStart
{
    QString failpoints;           // OUTBOX_FAILPOINTS
    QProcessEnvironment extraEnv; // added to the environment
    QStringList removedVariables; // taken out of this process's environment first
    QString outFile;              // stdout (and stderr when errFile is empty) into this file
    QString errFile;              // stderr into this file
    bool noInput = false;         // stdin is /dev/null (as a shell's `< /dev/null`), not an open pipe
};
std::unique_ptr<QProcess> startOutboxctl(const QStringList& arguments, const OutboxctlStart& options);
// SIGTERM (a graceful drain), SIGKILL after 30 s; returns the exit code, -1 after a crash.
int terminateAndWait(QProcess& process);

// One `outboxctl` command run to completion, as a user runs it from a shell: no stdin, stdout and
// stderr apart, OUTBOX_DB_URL and OUTBOX_KAFKA_BOOTSTRAP of the test's own environment removed (so
// only the arguments name the database and brokers), `extraEnv` added. Fatal when it does not end
// within `timeoutMs`. exitCode is -1 after a crash.
struct OutboxctlRun
{
    int exitCode = -1;
    QByteArray out;
    QByteArray err;
    QJsonObject json() const;
    int errLines() const;
};
OutboxctlRun runOutboxctl(const QStringList& arguments, const QProcessEnvironment& extraEnv = {},
                          int timeoutMs = 120000);

// What the older tests ask of a run besides its arguments.
struct OutboxctlOptions
{
    QProcessEnvironment extraEnv; // added to the environment
    int timeoutMs = 120000;       // fatal when the command has not ended by then
    int stopAfterMs = 0;          // > 0: SIGTERM after this long (long-running commands such as relay)
    // Remove every OUTBOX_* variable of this process (OUTBOX_TEST_* stay), not only the database URL
    // and the brokers: the command sees the arguments, `extraEnv` and defaults only.
    bool withoutOutboxEnvironment = false;
    // On a pseudo-terminal of script(1), as an operator at a terminal runs it: stdout and stderr are
    // a tty and come back merged in `out`.
    bool onTerminal = false;
};
OutboxctlRun runOutboxctl(const QStringList& arguments, const OutboxctlOptions& options);
// A command line as outboxctl or the doctor prints it ("outboxctl …", shell-quoted), run as an
// operator pastes it: through /bin/sh, with `outboxctl` being $OUTBOXCTL; the same environment as
// runOutboxctl().
OutboxctlRun runPrintedCommand(const QString& commandLine, const OutboxctlOptions& options = {});

} // namespace outbox::test
