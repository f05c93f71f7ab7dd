// Benchmark of the console's database work on PostgreSQL (not run by ctest):
//   bench_console --db postgresql://user@127.0.0.1:PORT/DB [--rows 10000000] [--unsent 100000] [--reuse]
//                 [--span-hours H] [--table-prefix P]
// Fills outbox_events with --rows rows (of which --unsent are PENDING/SENDING/FAILED/DEAD) using one
// INSERT … SELECT generate_series, created evenly over the last --span-hours (default: 100 rows a
// second, 27.8 hours for 10M rows, so that one day is about 8.5M rows: the worst case; 168 for a
// week of retention), then times one sampler tick (MetricsQuery::sample), the first browser page
// (EventStore::list, keyset) at the start, the middle and the end of the table, and a whole doctor
// run (Doctor::run, target 2 s) with the time of each check, and a header and a payload search
// bounded by a one-day time range (target 2 s). --smoke: a small table and few runs, so that CI
// keeps every stage working.
#include "core/db/Database.h"
#include "core/db/EventStore.h"
#include "core/db/FailureGroups.h"
#include "core/db/Migrator.h"
#include "core/diagnosis/Doctor.h"
#include "core/metrics/MetricsQuery.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QElapsedTimer>
#include <algorithm>
#include <cstdio>
#include <functional>

using namespace outbox;

namespace {

struct Timing
{
    double median = 0;
    double p95 = 0;
    double max = 0;
};

Timing measure(int runs, const std::function<bool()>& work)
{
    QVector<double> ms;
    work(); // warm the caches once; the console runs these all day
    for (int i = 0; i < runs; ++i) {
        QElapsedTimer t;
        t.start();
        if (!work())
            std::exit(1);
        ms << double(t.nsecsElapsed()) / 1e6;
    }
    std::sort(ms.begin(), ms.end());
    return {ms.at(ms.size() / 2), ms.at(std::min<int>(ms.size() - 1, int(ms.size() * 0.95))), ms.last()};
}

void report(const char* what, const Timing& t, double target)
{
    std::printf("%-44s median %8.2f ms   p95 %8.2f ms   max %8.2f ms   target <= %.0f ms %s\n", what,
                t.median, t.p95, t.max, target, t.median <= target ? "OK" : "MISSED");
}

} // namespace

int main(int argc, char* argv[])
{
    QCoreApplication app(argc, argv);
    QCommandLineParser parser;
    parser.addHelpOption();
    QCommandLineOption dbOption(QStringLiteral("db"),
                                QStringLiteral("PostgreSQL URL of a database the benchmark may fill."),
                                QStringLiteral("url"));
    QCommandLineOption rowsOption(QStringLiteral("rows"), QStringLiteral("Rows in outbox_events."),
                                  QStringLiteral("n"), QStringLiteral("10000000"));
    QCommandLineOption unsentOption(QStringLiteral("unsent"), QStringLiteral("Unsent rows among them."),
                                    QStringLiteral("n"), QStringLiteral("100000"));
    QCommandLineOption runsOption(QStringLiteral("runs"), QStringLiteral("Timed runs per measurement."),
                                  QStringLiteral("n"), QStringLiteral("30"));
    QCommandLineOption reuseOption(QStringLiteral("reuse"),
                                   QStringLiteral("Keep the rows already there (skip the fill)."));
    QCommandLineOption smokeOption(
        QStringLiteral("smoke"),
        QStringLiteral("CI: 20,000 rows (2,000 unsent), 3 runs; exit 1 on an error only."));
    QCommandLineOption consumerOption(QStringLiteral("doctor-consumer"),
                                      QStringLiteral("Consumer whose unconsumed events the doctor checks."),
                                      QStringLiteral("name"));
    QCommandLineOption prefixOption(
        QStringLiteral("table-prefix"),
        QStringLiteral("Prefix of the benchmark's tables (e.g. to share a database)."),
        QStringLiteral("prefix"));
    QCommandLineOption spanOption(
        QStringLiteral("span-hours"),
        QStringLiteral("Hours the rows' created_at spans (default: 100 rows a second, the worst case)."),
        QStringLiteral("h"));
    parser.addOptions({dbOption, rowsOption, unsentOption, runsOption, reuseOption, smokeOption,
                       consumerOption, prefixOption, spanOption});
    parser.process(app);
    const bool smoke = parser.isSet(smokeOption);

    auto url = DatabaseUrl::parse(parser.value(dbOption));
    if (!url || url->kind != DatabaseKind::PostgreSql) {
        std::fprintf(stderr, "bench_console: give --db postgresql://…\n");
        return 2;
    }
    Database::Options openOptions;
    openOptions.purpose = QStringLiteral("bench");
    openOptions.tablePrefix = parser.value(prefixOption);
    auto opened = Database::open(*url, openOptions);
    if (!opened) {
        std::fprintf(stderr, "bench_console: %s\n", qPrintable(opened.message()));
        return 1;
    }
    Database& db = **opened;
    if (auto m = Migrator(db).migrate(); !m) {
        std::fprintf(stderr, "bench_console: %s\n", qPrintable(m.message()));
        return 1;
    }
    const qint64 rows = smoke ? 20000 : parser.value(rowsOption).toLongLong();
    const qint64 unsent = smoke ? 2000 : parser.value(unsentOption).toLongLong();
    const int runs = smoke ? 3 : parser.value(runsOption).toInt();
    const double spanSeconds =
        parser.isSet(spanOption) ? parser.value(spanOption).toDouble() * 3600.0 : double(rows) / 100.0;
    if (!(spanSeconds > 0)) {
        std::fprintf(stderr, "bench_console: --span-hours takes a positive number of hours\n");
        return 2;
    }

    if (!parser.isSet(reuseOption)) {
        QElapsedTimer fill;
        fill.start();
        (void)db.exec(QStringLiteral("TRUNCATE {events} RESTART IDENTITY"));
        // Unsent rows are spread evenly through the table (every rows/unsent-th row): 70% PENDING,
        // 10% SENDING, 15% FAILED (three error shapes), 5% DEAD.
        const qint64 every = std::max<qint64>(1, rows / std::max<qint64>(1, unsent));
        auto r = db.exec(
            QStringLiteral(
                "INSERT INTO {events} (event_id, event_type, aggregate_type, aggregate_id, payload, headers, "
                "status, attempts, "
                "worker_id, lease_until, last_error, last_error_class, created_at, sent_at) "
                "SELECT 'bench-' || i, 'OrderCreated', 'Order', 'order-' || (i % 100000), "
                "jsonb_build_object('order_id', i, 'total', i % 1000, 'customer', jsonb_build_object('id', "
                "'C-' || (i % 50000))), jsonb_build_object('trace_id', 'trace-' || i), "
                "CASE WHEN i % %1 <> 0 THEN 'SENT' WHEN (i / %1) % 20 < 14 THEN 'PENDING' "
                "     WHEN (i / %1) % 20 < 16 THEN 'SENDING' WHEN (i / %1) % 20 < 19 THEN 'FAILED' ELSE "
                "'DEAD' END, "
                "CASE WHEN i % %1 = 0 THEN (i / %1) % 6 ELSE 1 END, "
                "CASE WHEN i % %1 = 0 AND (i / %1) % 20 IN (14, 15) THEN 'relay-' || (i % 4) END, "
                "CASE WHEN i % %1 = 0 AND (i / %1) % 20 IN (14, 15) THEN now() + interval '1 minute' END, "
                "CASE WHEN i % %1 = 0 AND (i / %1) % 20 >= 16 THEN 'schema check failed for order ' || i "
                "END, "
                "CASE WHEN i % %1 = 0 AND (i / %1) % 20 >= 16 THEN 'deterministic' END, "
                "now() - make_interval(secs => (%2 - i) * %3), "
                "CASE WHEN i % %1 <> 0 THEN now() END "
                "FROM generate_series(1, %2) AS s(i)")
                .arg(every)
                .arg(rows)
                .arg(spanSeconds / double(rows), 0, 'g', 17));
        if (!r) {
            std::fprintf(stderr, "bench_console: fill failed: %s\n", qPrintable(r.message()));
            return 1;
        }
        (void)db.exec(QStringLiteral("VACUUM ANALYZE {events}"));
        std::printf("filled %lld rows (%lld unsent) over %.1f hours in %.1f s\n", rows, unsent,
                    spanSeconds / 3600.0, double(fill.elapsed()) / 1000.0);
    }
    auto total = db.scalar(QStringLiteral("SELECT COUNT(*) FROM {events}"));
    auto unsentNow = db.scalar(QStringLiteral("SELECT COUNT(*) FROM {events} WHERE status <> 'SENT'"));
    auto maxId = db.scalar(QStringLiteral("SELECT MAX(id) FROM {events}"));
    auto spanNow = db.scalar(
        QStringLiteral("SELECT EXTRACT(EPOCH FROM MAX(created_at) - MIN(created_at)) FROM {events}"));
    const double tableSpan = spanNow ? spanNow->toDouble() : 0.0;
    std::printf("outbox_events: %lld rows, %lld unsent, created over %.1f hours; %d timed runs each\n",
                total->toLongLong(), unsentNow->toLongLong(), tableSpan / 3600.0, runs);

    MetricsQuery metrics(db);
    report("sampler tick (MetricsQuery::sample)", measure(runs, [&]() { return metrics.sample().ok(); }), 50);

    EventStore store(db);
    const qint64 top = maxId->toLongLong();
    auto page = [&](qint64 afterId, bool ascending, const EventFilter& filter) {
        return [&store, afterId, ascending, filter]() {
            EventPageRequest r;
            r.afterId = afterId;
            r.ascending = ascending;
            r.limit = 200;
            r.filter = filter;
            auto p = store.list(r);
            return p.ok() && !p->events.isEmpty();
        };
    };
    report("browser page, start (newest 200)", measure(runs, page(0, false, {})), 20);
    report("browser page, middle", measure(runs, page(top / 2, false, {})), 20);
    report("browser page, end (oldest 200)", measure(runs, page(0, true, {})), 20);
    EventFilter failed;
    failed.statuses = QStringList{QStringLiteral("FAILED")};
    report("browser page, status=FAILED, start", measure(runs, page(0, false, failed)), 20);
    report("browser page, status=FAILED, middle", measure(runs, page(top / 2, false, failed)), 20);
    report("browser page, status=FAILED, end", measure(runs, page(0, true, failed)), 20);
    EventFilter unsentFilter;
    unsentFilter.statuses =
        QStringList{QStringLiteral("PENDING"), QStringLiteral("SENDING"), QStringLiteral("FAILED")};
    report("browser page, unsent, middle", measure(runs, page(top / 2, false, unsentFilter)), 20);
    // Finding one event by content (header or payload; no index: full rows in range are read),
    // bounded by a one-day time range as the console's Find bar and `events list --since 1d` are.
    {
        const QDateTime until = QDateTime::currentDateTimeUtc().addSecs(60);
        const QDateTime from = until.addDays(-1);
        auto inRange = db.scalar(
            QStringLiteral("SELECT COUNT(*) FROM {events} WHERE created_at >= :f AND created_at < :u"),
            {{QStringLiteral(":f"), db.dialect().fromDateTime(from)},
             {QStringLiteral(":u"), db.dialect().fromDateTime(until)}});
        std::printf("rows created in the last day (the search range): %lld\n",
                    inRange ? inRange->toLongLong() : -1LL);
        // A trace id from the middle of the range (half a day back: one match), and a customer (one
        // order in 50,000).
        const qint64 halfDay = tableSpan > 0 ? qint64(double(top) * 43200.0 / tableSpan) : top / 2;
        const qint64 middle = std::max<qint64>(1, top - std::min<qint64>(top / 2, halfDay));
        const auto search = [&](const FieldMatch& header, const FieldMatch& payload) {
            return [&store, from, until, header, payload]() {
                EventPageRequest r;
                r.limit = 200;
                r.filter.createdFrom = from;
                r.filter.createdUntil = until;
                if (!header.key.isEmpty())
                    r.filter.headers << header;
                if (!payload.key.isEmpty())
                    r.filter.payload << payload;
                auto p = store.list(r);
                if (!p) {
                    std::fprintf(stderr, "bench_console: search failed: %s\n", qPrintable(p.message()));
                    return false;
                }
                return !p->events.isEmpty();
            };
        };
        const int searchRuns = std::max(3, runs / 10);
        report("search header trace_id=…, one day",
               measure(searchRuns,
                       search({QStringLiteral("trace_id"), QStringLiteral("trace-%1").arg(middle)}, {})),
               2000);
        report("search payload customer.id=…, one day",
               measure(searchRuns, search({}, {QStringLiteral("customer.id"),
                                               QStringLiteral("C-%1").arg(middle % 50000)})),
               2000);
    }
    report("failure groups (FailureGroups::list)",
           measure(std::max(3, runs / 5), [&]() { return FailureGroups(db).list().ok(); }), 200);

    // The doctor: every check, as `outboxctl doctor` runs them; the median run and its checks.
    DiagnosisOptions doctorOptions;
    if (parser.isSet(consumerOption))
        doctorOptions.consumers = QStringList{parser.value(consumerOption)};
    QVector<DiagnosisReport> reports;
    const Timing doctor = measure(std::max(3, runs / 5), [&]() {
        auto r = Doctor(db, doctorOptions).run();
        if (!r || r->anyCheckFailed()) {
            std::fprintf(stderr, "bench_console: doctor failed: %s\n",
                         qPrintable(r ? QStringLiteral("a check failed") : r.message()));
            return false;
        }
        reports << *r;
        return true;
    });
    report("doctor (Doctor::run, every check)", doctor, 2000);
    std::sort(reports.begin(), reports.end(),
              [](const DiagnosisReport& a, const DiagnosisReport& b) { return a.elapsedMs < b.elapsedMs; });
    const DiagnosisReport& median = reports.at(reports.size() / 2);
    for (const CheckRun& c : median.checks)
        std::printf("  doctor check %-20s %8.2f ms  %s, %d finding(s)\n", qPrintable(c.id), c.elapsedMs,
                    qPrintable(c.outcomeName()), c.findings);
    return 0;
}
