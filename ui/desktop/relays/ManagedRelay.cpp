#include "ui/desktop/relays/ManagedRelay.h"

#include "core/relay/RelayLogText.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>

#ifdef Q_OS_LINUX
#include <csignal>
#include <sys/prctl.h>
#endif

namespace outbox::desktop {

ManagedRelay::ManagedRelay(QObject* parent) : QObject(parent)
{
    m_process.setProcessChannelMode(QProcess::MergedChannels);
#ifdef Q_OS_LINUX
    // If the console dies without a chance to stop its child (killed, crashed), the child gets
    // SIGTERM and drains instead of running on unsupervised.
    m_process.setChildProcessModifier([]() { ::prctl(PR_SET_PDEATHSIG, SIGTERM); });
#endif
    connect(this, &ManagedRelay::stateChanged, this, [this](const QString& d) { m_description = d; });
    m_restartTimer.setSingleShot(true);
    connect(&m_restartTimer, &QTimer::timeout, this, &ManagedRelay::launch);
    connect(&m_process, &QProcess::readyRead, this, [this]() {
        while (m_process.canReadLine())
            emitLine(QString::fromUtf8(m_process.readLine()).trimmed());
    });
    connect(&m_process, &QProcess::finished, this, &ManagedRelay::exited);
    connect(&m_process, &QProcess::errorOccurred, this, [this](QProcess::ProcessError error) {
        if (error == QProcess::FailedToStart) {
            emit line(tr("cannot start %1: %2").arg(m_program, m_process.errorString()));
            exited(-1, QProcess::CrashExit);
        }
    });
}

ManagedRelay::~ManagedRelay()
{
    m_wanted = false;
    // Whoever listened may be half destroyed already (the page owning this object): the child's
    // last words and its exit are not reported any more.
    disconnect(&m_process, nullptr, this, nullptr);
    blockSignals(true);
    if (m_process.state() != QProcess::NotRunning) {
        m_process.terminate();
        if (!m_process.waitForFinished(5000))
            m_process.kill();
        m_process.waitForFinished(1000);
    }
}

QString ManagedRelay::locateOutboxctl()
{
    const QString fromEnv = qEnvironmentVariable("OUTBOXCTL");
    if (!fromEnv.isEmpty() && QFileInfo(fromEnv).isExecutable())
        return fromEnv;
    const QDir here(QCoreApplication::applicationDirPath());
    for (const QString& candidate :
         {QStringLiteral("outboxctl"), QStringLiteral("../outboxctl/outboxctl"),
          QStringLiteral("../app/outboxctl/outboxctl"), QStringLiteral("../../app/outboxctl/outboxctl")}) {
        const QFileInfo info(here.filePath(candidate));
        if (info.isExecutable() && info.isFile())
            return info.canonicalFilePath();
    }
    return QStringLiteral("outboxctl"); // from PATH
}

void ManagedRelay::startOutboxctl(const DatabaseTarget& target, const QString& command,
                                  const QStringList& arguments)
{
    m_database = databaseLabel(target);
    m_process.setProcessEnvironment(target.childEnvironment());
    start(locateOutboxctl(), target.outboxctlCommand(command, arguments));
}

QString ManagedRelay::databaseLabel(const DatabaseTarget& target)
{
    if (target.isEmpty())
        return {};
    const QString url = target.url().redacted();
    return target.tablePrefix().isEmpty() ? url : tr("%1 · tables %2*").arg(url, target.tablePrefix());
}

void ManagedRelay::start(const QString& program, const QStringList& arguments)
{
    m_program = program;
    m_arguments = arguments;
    m_wanted = true;
    m_backoffMs = FirstBackoffMs;
    m_restarts = 0;
    if (m_process.state() == QProcess::NotRunning)
        launch();
}

void ManagedRelay::launch()
{
    if (!m_wanted)
        return;
    m_lastLine.clear();
    emit line(tr("$ %1 %2").arg(m_program, m_arguments.join(QLatin1Char(' '))));
    m_process.start(m_program, m_arguments);
    emit stateChanged(tr("running"));
}

void ManagedRelay::emitLine(const QString& output)
{
    // The child logs in English (its log lines are read by greps and the journal's priority
    // parser); the console shows each line in the reader's language.
    QStringList lines = output.split(QLatin1Char('\n'));
    for (QString& l : lines)
        l = RelayLogText::translated(l);
    const QString text = lines.join(QLatin1Char('\n'));
    if (!text.isEmpty())
        m_lastLine = lines.constLast();
    emit line(text);
}

void ManagedRelay::stop()
{
    m_wanted = false;
    m_restartTimer.stop();
    if (m_process.state() == QProcess::NotRunning) {
        // Nothing to wait for (stopped during a restart backoff, or never started).
        emit stateChanged(tr("stopped"));
        return;
    }
    {
        // SIGTERM makes the relay drain: finish in-flight sends, release claims, deregister.
        m_process.terminate();
        QTimer::singleShot(15000, &m_process, [this]() {
            if (m_process.state() != QProcess::NotRunning)
                m_process.kill();
        });
    }
    emit stateChanged(tr("stopping"));
}

void ManagedRelay::exited(int code, QProcess::ExitStatus status)
{
    if (m_process.bytesAvailable() > 0)
        emitLine(QString::fromUtf8(m_process.readAll()).trimmed());
    if (!m_wanted) {
        emit stateChanged(tr("stopped"));
        return;
    }
    if (status == QProcess::NormalExit && code == UsageExitCode) {
        // A usage or configuration error fails the same way on every restart: stop supervising
        // and say why instead of restarting for ever.
        m_wanted = false;
        const QString why = m_lastLine.isEmpty() ? tr("configuration error") : m_lastLine;
        emit line(tr("relay exited with code %1 (configuration error); not restarting").arg(code));
        emit stateChanged(tr("stopped: %1").arg(why));
        return;
    }
    ++m_restarts;
    emit line(tr("relay exited (%1, code %2); restarting in %3 ms")
                  .arg(status == QProcess::CrashExit ? tr("crashed") : tr("exited"))
                  .arg(code)
                  .arg(m_backoffMs));
    emit stateChanged(tr("restarting"));
    m_restartTimer.start(m_backoffMs);
    m_backoffMs = std::min(m_backoffMs * 2, MaxBackoffMs);
}

} // namespace outbox::desktop
