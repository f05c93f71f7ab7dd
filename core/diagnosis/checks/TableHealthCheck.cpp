#include "core/diagnosis/checks/TableHealthCheck.h"

#include "core/db/Database.h"
#include "core/diagnosis/DiagnosisContext.h"
#include "core/diagnosis/Runbook.h"

#include <QSqlQuery>

namespace outbox {

namespace {

constexpr qint64 CountCap = 100000;
constexpr qint64 RetentionSlackMs = 24LL * 3600 * 1000; // the relays delete in batches; a day of slack

QString megabytes(qint64 bytes)
{
    return QStringLiteral("%1 MB").arg(double(bytes) / (1024.0 * 1024.0), 0, 'f', 1);
}

} // namespace

Result<QVector<Finding>> TableHealthCheck::run(DiagnosisContext& context)
{
    const Runbook& rb = Runbook::of(id());
    Database& db = context.db();
    const Dialect& d = db.dialect();
    const DiagnosisOptions& o = context.options();
    const QString table = d.sql(QStringLiteral("{events}"));
    QVector<Finding> findings;

    // Dead tuples and autovacuum, where the database keeps statistics (PostgreSQL).
    if (d.supportsTableHealth()) {
        auto stats = db.exec(d.tableStatistics(), {{QStringLiteral(":table"), table}});
        if (!stats)
            return stats.error();
        if (stats->next()) {
            const qint64 live = stats->value(0).toLongLong();
            const qint64 dead = stats->value(1).toLongLong();
            const qint64 bytes = stats->value(2).toLongLong();
            const QDateTime lastVacuum = d.toDateTime(stats->value(3));
            const QString tableOptions = stats->value(4).toString();
            const bool serverAutovacuum = stats->value(5).toString() == QLatin1String("on");
            const bool tableAutovacuum = !tableOptions.contains(QLatin1String("autovacuum_enabled=false"));
            const double share = live + dead > 0 ? double(dead) / double(live + dead) : 0.0;
            QJsonObject facts{
                {QStringLiteral("table"), table},
                {QStringLiteral("live_rows"), live},
                {QStringLiteral("dead_rows"), dead},
                {QStringLiteral("dead_share"), qRound(share * 1000) / 1000.0},
                {QStringLiteral("total_bytes"), bytes},
                {QStringLiteral("last_vacuum"),
                 lastVacuum.isValid() ? QJsonValue(lastVacuum.toString(Qt::ISODateWithMs)) : QJsonValue()},
                {QStringLiteral("table_options"), tableOptions},
                {QStringLiteral("autovacuum"), serverAutovacuum && tableAutovacuum}};
            const QString vacuum = QStringLiteral("VACUUM (VERBOSE, ANALYZE) %1").arg(table);
            const QString tune = QStringLiteral("ALTER TABLE %1 SET (autovacuum_vacuum_scale_factor = 0.01, "
                                                "autovacuum_vacuum_threshold = 10000)")
                                     .arg(table);
            if (dead >= o.deadTupleMinimum && share > o.deadTupleRatio) {
                Finding f;
                f.id = id();
                f.key = id() + QStringLiteral("/dead-tuples");
                f.severity = Severity::Warning;
                f.title = tr("%1 is %2% dead tuples (%3 dead rows, %4 in all)")
                              .arg(table)
                              .arg(qRound(share * 100))
                              .arg(dead)
                              .arg(megabytes(bytes));
                f.evidence.count = dead;
                f.evidence.unit = QStringLiteral("dead rows");
                f.evidence.oldest = lastVacuum;
                f.evidence.details = facts;
                f.evidence.details.insert(QStringLiteral("threshold"), o.deadTupleRatio);
                f.causes << rb.cause("dead-tuples");
                if (!serverAutovacuum || !tableAutovacuum)
                    f.causes << rb.cause("autovacuum-off");
                f.causes << rb.cause("horizon");
                f.runbook << rb.step("old-transactions") << rb.step("vacuum").arg(vacuum)
                          << rb.step("tune").arg(tune) << rb.step("again");
                findings << f;
            } else if (!serverAutovacuum || !tableAutovacuum) {
                Finding f;
                f.id = id();
                f.key = id() + QStringLiteral("/autovacuum-off");
                f.severity = Severity::Warning;
                f.title = tr("Autovacuum is off for %1").arg(table);
                f.evidence.count = dead;
                f.evidence.unit = QStringLiteral("dead rows");
                f.evidence.oldest = lastVacuum;
                f.evidence.details = facts;
                f.causes << rb.cause("autovacuum-turned-off");
                f.runbook << rb.step("autovacuum-on").arg(table) << rb.step("tune").arg(tune);
                findings << f;
            }
        }
    }

    // Retention: SENT rows far older than the relays' retention window mean the cleanup does not
    // keep up (or no relay runs it). Checked on every database.
    if (o.retentionMs > 0) {
        const QVariantMap cut{{QStringLiteral(":cut"), -(o.retentionMs + RetentionSlackMs)}};
        const QString overdue = QStringLiteral("status = 'SENT' AND created_at < %1")
                                    .arg(d.nowPlusMillis(QStringLiteral(":cut")));
        auto count = db.scalar(
            QStringLiteral("SELECT COUNT(*) FROM (SELECT 1 FROM {events} WHERE %1 LIMIT %2) overdue")
                .arg(overdue)
                .arg(CountCap),
            cut);
        if (!count)
            return count.error();
        if (count->toLongLong() > 0) {
            auto oldest =
                db.scalar(QStringLiteral("SELECT MIN(created_at) FROM {events} WHERE %1").arg(overdue), cut);
            if (!oldest)
                return oldest.error();
            Finding f;
            f.id = id();
            f.key = id() + QStringLiteral("/retention");
            f.severity = Severity::Warning;
            f.evidence.count = count->toLongLong();
            f.evidence.unit = QStringLiteral("events");
            f.evidence.oldest = d.toDateTime(*oldest);
            f.evidence.details.insert(QStringLiteral("table"), table);
            f.evidence.details.insert(QStringLiteral("retention_ms"), o.retentionMs);
            f.evidence.details.insert(QStringLiteral("at_least"), count->toLongLong() >= CountCap);
            f.title = tr("%1%2 SENT event(s) are older than the retention of %3")
                          .arg(count->toLongLong() >= CountCap ? tr("at least ") : QString())
                          .arg(count->toLongLong())
                          .arg(DiagnosisContext::duration(o.retentionMs));
            f.causes << rb.cause("retention-no-relay") << rb.cause("retention-setting")
                     << rb.cause("retention-rate");
            f.runbook << rb.step("retention-setting") << rb.step("retention-relay")
                      << rb.step("retention-backlog");
            findings << f;
        }
    }
    return findings;
}

// Its page of docs/runbooks/ and the lines its findings take (core/diagnosis/Runbook.h).
Runbook TableHealthCheck::runbook() const
{
    Runbook r = Runbook::page(
        "table-health", "The outbox table is bloated or retention does not keep up", "warning",
        "PostgreSQL: the outbox table's dead-tuple share is above `[doctor] dead_tuple_percent`, or "
        "autovacuum is off for it. Every database: SENT rows are older than `[relay] retention` plus a "
        "day. Claims and the console slow down and the table grows.");
    r.causes = {
        {"dead-tuples",
         QT_TRANSLATE_NOOP(
             "outbox::Runbook",
             "Every status change of an outbox row leaves a dead tuple; autovacuum's defaults (vacuum at 20% "
             "of the table) let a busy queue table bloat."),
         "dead tuples above the threshold"},
        {"autovacuum-off",
         QT_TRANSLATE_NOOP("outbox::Runbook",
                           "Autovacuum is off (server setting or the table's autovacuum_enabled)."),
         "dead tuples above the threshold and autovacuum off"},
        {"horizon",
         QT_TRANSLATE_NOOP(
             "outbox::Runbook",
             "A long-running transaction (or an abandoned replication slot) holds back the cleanup horizon, "
             "so vacuum cannot remove the dead rows."),
         "dead tuples above the threshold"},
        {"autovacuum-turned-off",
         QT_TRANSLATE_NOOP(
             "outbox::Runbook",
             "Autovacuum was turned off on the server or for this table; every status change of an outbox "
             "row leaves a dead tuple that nothing removes."),
         "autovacuum off (dead tuples below the threshold)"},
        {"retention-no-relay",
         QT_TRANSLATE_NOOP("outbox::Runbook",
                           "No relay runs the retention cleanup (it runs inside every relay)."),
         "SENT rows outlive the retention"},
        {"retention-setting",
         QT_TRANSLATE_NOOP(
             "outbox::Runbook",
             "The relays run with --retention 0 (keep everything) or a longer window than [doctor] "
             "retention."),
         "SENT rows outlive the retention"},
        {"retention-rate",
         QT_TRANSLATE_NOOP("outbox::Runbook",
                           "The cleanup deletes in bounded batches and falls behind a very high event rate."),
         "SENT rows outlive the retention"},
    };
    r.steps = {
        {"old-transactions",
         QT_TRANSLATE_NOOP(
             "outbox::Runbook",
             "Outside the product (psql): look for old transactions: SELECT pid, now() - xact_start, state, "
             "query FROM pg_stat_activity ORDER BY xact_start LIMIT 5; end those that should not be there."),
         "dead tuples above the threshold"},
        {"vacuum", QT_TRANSLATE_NOOP("outbox::Runbook", "Vacuum the table now: %1"),
         "dead tuples above the threshold", "VACUUM STATEMENT"},
        {"autovacuum-on",
         QT_TRANSLATE_NOOP("outbox::Runbook", "Outside the product (psql): turn autovacuum back on (ALTER "
                                              "TABLE %1 RESET (autovacuum_enabled), "
                                              "or autovacuum = on in postgresql.conf)."),
         "autovacuum off", "TABLE"},
        {"tune", QT_TRANSLATE_NOOP("outbox::Runbook", "Make autovacuum keep up with a queue table: %1"),
         "dead tuples or autovacuum off", "ALTER TABLE STATEMENT"},
        {"again", QT_TRANSLATE_NOOP("outbox::Runbook", "Run outboxctl doctor again after the vacuum."),
         "dead tuples above the threshold"},
        {"retention-setting",
         QT_TRANSLATE_NOOP(
             "outbox::Runbook",
             "Check the relays' --retention against [doctor] retention; set them to the same value."),
         "SENT rows outlive the retention"},
        {"retention-relay",
         QT_TRANSLATE_NOOP("outbox::Runbook",
                           "Make sure a relay runs: it deletes SENT rows older than its retention in "
                           "batches."),
         "SENT rows outlive the retention"},
        {"retention-backlog",
         QT_TRANSLATE_NOOP(
             "outbox::Runbook",
             "If the backlog of old rows is huge, delete it in batches outside peak hours (or drop old "
             "partitions where the table is partitioned)."),
         "SENT rows outlive the retention"},
    };
    return r;
}

} // namespace outbox
