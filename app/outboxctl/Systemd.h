#pragma once

#include <QByteArray>
#include <QElapsedTimer>
#include <QString>
#include <cstdio>

// The service manager's side of outboxctl: readiness, watchdog and stop notifications for the
// Type=notify units (sd_notify; no-ops when not started by systemd or built without libsystemd),
// journal priorities for what goes to stdout/stderr, and the database password as a systemd
// credential.
namespace outbox::cli::systemd {

// syslog priorities as journald reads them from a "<N>" line prefix.
enum class Priority { Err = 3, Warning = 4, Notice = 5, Info = 6 };

// "<N>" when `stream` (stdout or stderr) is connected to the journal (JOURNAL_STREAM names its
// device and inode), so journald files the line under that priority; "" elsewhere.
QByteArray prefix(Priority priority, FILE* stream = stderr);

// The priority of a line logged by a relay worker: state changes are notices (a change to
// DEGRADED, which carries its cause, and failures are errors).
Priority relayLinePriority(const QString& line);

// READY=1 (once) with a STATUS= line.
void notifyReady(const QString& status);
void notifyStatus(const QString& status);
// STOPPING=1 (once): the drain has begun.
void notifyStopping(const QString& status);

// WATCHDOG=1 pings at half the unit's WatchdogSec; inert when the unit sets none.
class Watchdog
{
public:
    Watchdog();
    bool enabled() const { return m_intervalMs > 0; }
    qint64 intervalMs() const { return m_intervalMs; }
    // Sends a ping when half the interval has passed since the last one.
    void ping();

private:
    qint64 m_intervalMs = 0;
    QElapsedTimer m_sincePing;
};

// With LoadCredential=db-password:FILE the unit hands the password over as a credential file;
// it becomes OUTBOX_DB_PASSWORD for this process unless that is set already.
void importCredentials();

} // namespace outbox::cli::systemd
