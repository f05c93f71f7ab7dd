#pragma once

#include "core/db/RelayRecord.h"
#include "core/diagnosis/DiagnosisOptions.h"
#include "core/diagnosis/PreparedAction.h"
#include "core/support/CommandLine.h"
#include "core/support/Result.h"

#include <QDateTime>
#include <QStringList>
#include <QVector>
#include <optional>

namespace outbox {

class Database;

// What every check of one doctor run shares: the connection, the thresholds, the database's
// clock (all ages are measured against it, never against the local clock) and a few facts read
// once (the relay registry, the PENDING count).
class DiagnosisContext
{
public:
    DiagnosisContext(Database& db, const DiagnosisOptions& options, QDateTime now)
        : m_db(db), m_options(options), m_now(std::move(now))
    {
    }

    Database& db() { return m_db; }
    const DiagnosisOptions& options() const { return m_options; }
    const QDateTime& now() const { return m_now; }
    qint64 ageMs(const QDateTime& t) const
    {
        return t.isValid() ? std::max<qint64>(0, t.msecsTo(m_now)) : -1;
    }

    Result<QVector<RelayRecord>> relays();
    // Relays whose heartbeat is within the stale limit.
    Result<QVector<RelayRecord>> liveRelays();
    Result<qint64> pendingCount();

    // `outboxctl WORDS… OPTIONS… CONNECTION… -- POSITIONALS…` for `action`, rendered by
    // CommandLine: safe to paste whatever the database held. When a word cannot be made safe the
    // action gets no command (and the reason in commandRefused); returns whether it got one.
    bool prepareCommand(PreparedAction& action, CommandLine command) const;
    // "42 s", "7 min", "3.5 h", "2 d": ages and thresholds in titles.
    static QString duration(qint64 ms);

private:
    Database& m_db;
    const DiagnosisOptions& m_options;
    QDateTime m_now;
    std::optional<QVector<RelayRecord>> m_relays;
    std::optional<qint64> m_pending;
};

} // namespace outbox
