#pragma once

#include <QJsonObject>
#include <QProcess>
#include <QProcessEnvironment>
#include <QStringList>
#include <memory>

namespace outbox::test {

// The real `outboxctl` binary ($OUTBOXCTL) as a child process, stdout and stderr merged, with
// OUTBOX_FAILPOINTS set when `failpoints` is not empty. Crash tests drive it.
std::unique_ptr<QProcess> startOutboxctl(const QStringList& arguments, const QString& failpoints = {});
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
};
OutboxctlRun runOutboxctl(const QStringList& arguments, const QProcessEnvironment& extraEnv = {},
                          int timeoutMs = 120000);

} // namespace outbox::test
