#pragma once

#include <QProcess>
#include <QStringList>
#include <memory>

namespace outbox::test {

// The real `outboxctl` binary ($OUTBOXCTL) as a child process, stdout and stderr merged, with
// OUTBOX_FAILPOINTS set when `failpoints` is not empty. Crash tests drive it.
std::unique_ptr<QProcess> startOutboxctl(const QStringList& arguments, const QString& failpoints = {});
// SIGTERM (a graceful drain), SIGKILL after 30 s; returns the exit code, -1 after a crash.
int terminateAndWait(QProcess& process);

} // namespace outbox::test
