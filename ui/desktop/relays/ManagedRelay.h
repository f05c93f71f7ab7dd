#pragma once

#include "core/db/DatabaseTarget.h"

#include <QObject>
#include <QProcess>
#include <QStringList>
#include <QTimer>

namespace outbox::desktop {

// A supervised `outboxctl relay` child: its output streams out line by line, and if it dies
// unasked it is started again after a backoff that doubles up to MaxBackoffMs; an exit with a usage
// error (code 2) ends the supervision instead, since a restart would fail the same way.
class ManagedRelay : public QObject
{
    Q_OBJECT

public:
    static constexpr int FirstBackoffMs = 1000;
    static constexpr int MaxBackoffMs = 30000;
    // outboxctl's exit code for a usage or configuration error: restarting cannot help.
    static constexpr int UsageExitCode = 2;

    explicit ManagedRelay(QObject* parent = nullptr);
    ~ManagedRelay() override;

    // `outboxctl` next to this executable, in the build tree beside it, or from $OUTBOXCTL.
    static QString locateOutboxctl();

    // How the console names a database to the operator: its URL without password, and its prefix.
    static QString databaseLabel(const DatabaseTarget& target);

    // `outboxctl COMMAND` on `target` (its outboxctlCommand(), the password in the child's
    // environment, never on its command line).
    void startOutboxctl(const DatabaseTarget& target, const QString& command,
                        const QStringList& arguments = {});
    void start(const QString& program, const QStringList& arguments);
    void stop();
    bool isRunning() const { return m_process.state() != QProcess::NotRunning; }
    bool isSupervising() const { return m_wanted; }
    // Running, or waiting to be restarted: the console still answers for this child.
    bool isActive() const { return m_wanted || isRunning(); }
    // The database the child works on, as the console shows it ("postgresql://u@h/db · tables
    // x_*"); empty for a child started with start() alone.
    const QString& database() const { return m_database; }
    // The last state it reported ("running", "restarting", "stopped: …").
    const QString& description() const { return m_description; }
    int restarts() const { return m_restarts; }
    qint64 processId() const { return m_process.processId(); }

signals:
    void line(const QString& text);
    void stateChanged(const QString& description);

private:
    void launch();
    void exited(int code, QProcess::ExitStatus status);
    void emitLine(const QString& text);

    QProcess m_process;
    QTimer m_restartTimer;
    QString m_program;
    QStringList m_arguments;
    QString m_lastLine; // the child's last output line: why it stopped
    QString m_database;
    QString m_description;
    bool m_wanted = false;
    int m_backoffMs = FirstBackoffMs;
    int m_restarts = 0;
};

} // namespace outbox::desktop
