#include "app/outboxctl/Systemd.h"

#include <QDir>
#include <QFile>
#include <QRegularExpression>
#include <atomic>
#include <sys/stat.h>

#ifdef OUTBOX_HAVE_SYSTEMD
#include <systemd/sd-daemon.h>
#endif

namespace outbox::cli::systemd {

namespace {

// JOURNAL_STREAM is "DEVICE:INODE" of the stream systemd connected to the journal.
bool isJournal(FILE* stream)
{
    const QByteArray value = qgetenv("JOURNAL_STREAM");
    const int colon = value.indexOf(':');
    if (colon <= 0)
        return false;
    bool okDev = false;
    bool okIno = false;
    const qulonglong dev = value.left(colon).toULongLong(&okDev);
    const qulonglong ino = value.mid(colon + 1).toULongLong(&okIno);
    struct stat st;
    if (!okDev || !okIno || fstat(fileno(stream), &st) != 0)
        return false;
    return qulonglong(st.st_dev) == dev && qulonglong(st.st_ino) == ino;
}

void notify(const QString& message)
{
#ifdef OUTBOX_HAVE_SYSTEMD
    sd_notify(0, message.toUtf8().constData());
#else
    Q_UNUSED(message);
#endif
}

std::atomic<bool> g_ready{false};
std::atomic<bool> g_stopping{false};

} // namespace

QByteArray prefix(Priority priority, FILE* stream)
{
    static const bool out = isJournal(stdout);
    static const bool err = isJournal(stderr);
    if (!(stream == stdout ? out : stream == stderr ? err : false))
        return {};
    return '<' + QByteArray::number(int(priority)) + '>';
}

Priority relayLinePriority(const QString& line)
{
    static const QRegularExpression transition(QStringLiteral("^([A-Z]+) -> ([A-Z]+)"));
    static const QRegularExpression notable(QStringLiteral("fenced|polling every"));
    static const QRegularExpression trouble(
        QStringLiteral("fail|error|cannot|refused|unreachable|lost|timed? ?out"),
        QRegularExpression::CaseInsensitiveOption);
    const auto m = transition.match(line);
    if (m.hasMatch())
        return m.captured(2) == QLatin1String("DEGRADED") ? Priority::Err : Priority::Notice;
    if (notable.match(line).hasMatch())
        return Priority::Warning;
    return trouble.match(line).hasMatch() ? Priority::Err : Priority::Notice;
}

void notifyReady(const QString& status)
{
    if (g_ready.exchange(true))
        return;
    notify(QStringLiteral("READY=1\nSTATUS=") + status);
}

void notifyStatus(const QString& status)
{
    notify(QStringLiteral("STATUS=") + status);
}

void notifyStopping(const QString& status)
{
    if (g_stopping.exchange(true))
        return;
    notify(QStringLiteral("STOPPING=1\nSTATUS=") + status);
}

Watchdog::Watchdog()
{
#ifdef OUTBOX_HAVE_SYSTEMD
    uint64_t usec = 0;
    if (sd_watchdog_enabled(0, &usec) > 0 && usec > 0)
        m_intervalMs = qint64(usec / 1000);
#endif
}

void Watchdog::ping()
{
    if (!enabled())
        return;
    if (m_sincePing.isValid() && m_sincePing.elapsed() < m_intervalMs / 2)
        return;
    notify(QStringLiteral("WATCHDOG=1"));
    m_sincePing.start();
}

void importCredentials()
{
    const QString directory = qEnvironmentVariable("CREDENTIALS_DIRECTORY");
    if (directory.isEmpty() || qEnvironmentVariableIsSet("OUTBOX_DB_PASSWORD"))
        return;
    QFile file(QDir(directory).filePath(QStringLiteral("db-password")));
    if (!file.open(QIODevice::ReadOnly))
        return;
    QByteArray password = file.readAll();
    while (password.endsWith('\n') || password.endsWith('\r'))
        password.chop(1);
    qputenv("OUTBOX_DB_PASSWORD", password);
}

} // namespace outbox::cli::systemd
