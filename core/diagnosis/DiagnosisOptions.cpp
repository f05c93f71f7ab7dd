#include "core/diagnosis/DiagnosisOptions.h"

#include <QRegularExpression>

namespace outbox {

QStringList DiagnosisOptions::keys()
{
    return {QStringLiteral("backlog_age"),           QStringLiteral("backlog_age_critical"),
            QStringLiteral("heartbeat_interval"),    QStringLiteral("expired_lease_grace"),
            QStringLiteral("blocked_after"),         QStringLiteral("dead_recent"),
            QStringLiteral("replay_stuck_after"),    QStringLiteral("consumers"),
            QStringLiteral("unconsumed_older_than"), QStringLiteral("unconsumed_window"),
            QStringLiteral("dead_tuple_ratio"),      QStringLiteral("retention")};
}

Result<qint64> DiagnosisOptions::parseDuration(const QString& text, const QString& key)
{
    static const QRegularExpression pattern(QStringLiteral("^(\\d{1,9})\\s*(ms|s|m|h|d)?$"));
    const auto m = pattern.match(text.trimmed());
    if (!m.hasMatch() || (m.captured(2).isEmpty() && m.captured(1).toLongLong() != 0))
        return Error::usage(
            QStringLiteral("invalid duration \"%1\" for %2 (use e.g. 250ms, 30s, 5m, 2h or 7d)")
                .arg(text, key));
    const qint64 n = m.captured(1).toLongLong();
    const QString unit = m.captured(2);
    const qint64 factor = unit == QLatin1String("ms")  ? 1
                          : unit == QLatin1String("s") ? 1000
                          : unit == QLatin1String("m") ? 60000
                          : unit == QLatin1String("h") ? 3600000
                                                       : 86400000;
    return n * factor;
}

Status DiagnosisOptions::validate() const
{
    if (backlogAgeWarningMs <= 0 || backlogAgeCriticalMs < backlogAgeWarningMs)
        return Error::usage(QStringLiteral("backlog_age must be positive and at most backlog_age_critical"));
    if (heartbeatIntervalMs <= 0 || staleHeartbeats <= 0)
        return Error::usage(QStringLiteral("heartbeat_interval must be positive"));
    if (replayStuckAfterMs <= 0 || unconsumedOlderThanMs <= 0 || unconsumedWindowMs <= 0)
        return Error::usage(QStringLiteral(
            "replay_stuck_after, unconsumed_older_than and unconsumed_window must be positive"));
    if (deadTupleRatio <= 0 || deadTupleRatio >= 1)
        return Error::usage(QStringLiteral("dead_tuple_ratio must be between 0 and 1"));
    if (maxFindingsPerCheck <= 0 || maxDistinctErrors <= 0)
        return Error::usage(QStringLiteral("the finding limits must be positive"));
    return {};
}

Result<DiagnosisOptions> DiagnosisOptions::fromValues(const QMap<QString, QString>& values)
{
    DiagnosisOptions o;
    const QStringList known = keys();
    for (auto it = values.cbegin(); it != values.cend(); ++it) {
        if (!known.contains(it.key()))
            return Error::usage(QStringLiteral("unknown [doctor] key \"%1\" (known: %2)")
                                    .arg(it.key(), known.join(QStringLiteral(", "))));
    }
    const struct
    {
        const char* key;
        qint64* target;
    } durations[] = {
        {"backlog_age", &o.backlogAgeWarningMs},        {"backlog_age_critical", &o.backlogAgeCriticalMs},
        {"heartbeat_interval", &o.heartbeatIntervalMs}, {"expired_lease_grace", &o.expiredLeaseGraceMs},
        {"blocked_after", &o.blockedAfterMs},           {"dead_recent", &o.deadRecentMs},
        {"replay_stuck_after", &o.replayStuckAfterMs},  {"unconsumed_older_than", &o.unconsumedOlderThanMs},
        {"unconsumed_window", &o.unconsumedWindowMs},   {"retention", &o.retentionMs},
    };
    for (const auto& d : durations) {
        const QString key = QLatin1String(d.key);
        if (!values.contains(key))
            continue;
        auto ms = parseDuration(values.value(key), QStringLiteral("[doctor] ") + key);
        if (!ms)
            return ms.error();
        *d.target = *ms;
    }
    // A warning threshold raised above the default critical one moves the critical one along.
    if (values.contains(QStringLiteral("backlog_age")) &&
        !values.contains(QStringLiteral("backlog_age_critical")))
        o.backlogAgeCriticalMs = std::max(o.backlogAgeCriticalMs, o.backlogAgeWarningMs);
    if (values.contains(QStringLiteral("consumers"))) {
        for (const QString& c :
             values.value(QStringLiteral("consumers")).split(QLatin1Char(','), Qt::SkipEmptyParts))
            if (!c.trimmed().isEmpty())
                o.consumers << c.trimmed();
    }
    if (values.contains(QStringLiteral("dead_tuple_ratio"))) {
        bool ok = false;
        o.deadTupleRatio = values.value(QStringLiteral("dead_tuple_ratio")).trimmed().toDouble(&ok);
        if (!ok)
            return Error::usage(QStringLiteral("[doctor] dead_tuple_ratio must be a number between 0 and 1"));
    }
    if (Status s = o.validate(); !s)
        return Error::usage(QStringLiteral("[doctor] ") + s.message());
    return o;
}

} // namespace outbox
