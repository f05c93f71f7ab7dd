#include "core/diagnosis/DiagnosisContext.h"

#include "core/db/Database.h"
#include "core/db/RelayStore.h"

#include <QCoreApplication>

namespace outbox {

Result<QVector<RelayRecord>> DiagnosisContext::relays()
{
    if (!m_relays) {
        auto list = RelayStore(m_db).list();
        if (!list)
            return list.error();
        m_relays = *list;
    }
    return *m_relays;
}

Result<QVector<RelayRecord>> DiagnosisContext::liveRelays()
{
    auto all = relays();
    if (!all)
        return all.error();
    QVector<RelayRecord> live;
    for (const RelayRecord& r : *all)
        if (r.heartbeatAgeMs <= m_options.relayStaleAfterMs())
            live << r;
    return live;
}

Result<qint64> DiagnosisContext::pendingCount()
{
    if (!m_pending) {
        auto n = m_db.scalar(QStringLiteral("SELECT COUNT(*) FROM {events} WHERE status = 'PENDING'"));
        if (!n)
            return n.error();
        m_pending = n->toLongLong();
    }
    return *m_pending;
}

QString DiagnosisContext::duration(qint64 ms)
{
    // A word of the human texts (titles), translated with them; no command line carries it.
    const auto unit = [](const char* text) {
        return QCoreApplication::translate("outbox::DiagnosisContext", text);
    };
    if (ms < 120 * 1000)
        return unit(QT_TRANSLATE_NOOP("outbox::DiagnosisContext", "%1 s")).arg(ms / 1000);
    if (ms < 120 * 60 * 1000)
        return unit(QT_TRANSLATE_NOOP("outbox::DiagnosisContext", "%1 min")).arg(ms / 60000);
    if (ms < 48LL * 3600 * 1000)
        return unit(QT_TRANSLATE_NOOP("outbox::DiagnosisContext", "%1 h"))
            .arg(double(ms) / 3600000.0, 0, 'f', 1);
    return unit(QT_TRANSLATE_NOOP("outbox::DiagnosisContext", "%1 d"))
        .arg(double(ms) / 86400000.0, 0, 'f', 1);
}

bool DiagnosisContext::prepareCommand(PreparedAction& action, CommandLine command) const
{
    command.options(m_options.connectionArguments);
    action.commandLine = command;
    auto text = command.render();
    if (!text) {
        action.command.clear();
        action.commandRefused = text.message();
        return false;
    }
    action.command = *text;
    action.commandRefused.clear();
    return true;
}

} // namespace outbox
