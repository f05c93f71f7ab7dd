// Relay benchmark (not a unit test): prints events/s and latency percentiles, and compares the
// relay with the limits measured in the same run on the same machine.
//
//   outbox-relay-bench --db postgresql://outbox@127.0.0.1:25432/bench [--events 200000] [--relays 2]
//                      [--rate 2000] [--seconds 20] [--batch 500] [--rounds 2] [--smoke]
//   OUTBOX_DB_PASSWORD=… outbox-relay-bench --db mysql://outbox@127.0.0.1:3306/bench     (MariaDB)
//   outbox-relay-bench --db postgresql://… --minrelay /path/to/minrelay [--attribute]  (the external limit)
//
// 0. reference:      what the database can do for any relay: K connections run the cheapest claim
//                    of a batch (FOR UPDATE SKIP LOCKED) + one mark-SENT statement on a minimal
//                    outbox table (primary key, unique event_id, a PENDING and a SENDING index)
//                    holding the same N events, in the same database and the same run;
// 1. database bound: K threads run the relay's own claim + fenced mark-SENT SQL with no broker;
// 2. broker bound:   one producer sends the same messages to the embedded broker, all acked;
// 3. relay:          K relays drain the same N events to the embedded broker;
// 4. latency:        a writer commits events at a steady rate while one relay runs; commit -> ack
//                    p50/p99, with the default wake-up (the doorbell where the server allows it) and
//                    with polling only. With --neighbours, what runs
//                    beside a relay in production runs during these stages: the demo's inventory
//                    consumer (`outboxctl consume --demo-inventory`, reading what the relay sends
//                    and writing its inbox and reservations to the same database) and the desktop
//                    console's sampler (this program again, --role sampler, a snapshot a second).
//                    With --notify-on (PostgreSQL), also with the wake-up trigger switched on
//                    (`outboxctl notify on`, the opt-in). With --trickle, one event every 2 s after
//                    a minute idle (issue 42).
// With --minrelay (PostgreSQL), each round also runs ../shared/bench/minrelay (the cheapest correct
// relay, an external program) on a minimal table and on the project's table, and every relay figure
// is printed as a percentage of minrelay on the minimal table; the summary splits the gap.
#include "core/broker/kafka/EmbeddedBroker.h"
#include "core/broker/kafka/KafkaPublisher.h"
#include "core/db/Database.h"
#include "core/db/EventStore.h"
#include "core/db/EventWriter.h"
#include "core/db/HeldClaim.h"
#include "core/db/Migrator.h"
#include "core/ops/NotifyTrigger.h"
#include "core/relay/Relay.h"
#include "core/support/TimeZone.h"
#include "tests/support/BrokerTestKit.h"
#include "tests/support/BulkEvents.h"
#include "tests/support/ConsoleSampler.h"
#include "tests/support/OutboxctlProcess.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QThread>
#include <atomic>
#include <cstdio>
#include <memory>
#include <unistd.h>
#include <vector>

using namespace outbox;

namespace {

struct Latency
{
    qint64 p50 = -1, p99 = -1, samples = 0;
    // The two stages of commit -> ack: commit -> claim, claim -> broker ack (p50, p99).
    qint64 claimP50 = -1, claimP99 = -1, ackP50 = -1, ackP99 = -1;
    // The writer's transaction, BEGIN to COMMIT returned (created_at is its start: this part of
    // "commit -> ack" comes before the commit).
    qint64 writeP50 = -1, writeP99 = -1;
};

// The 1-, 5- and 15-minute load averages (Linux), printed beside the figures they qualify.
QString loadAverage()
{
    QFile f(QStringLiteral("/proc/loadavg"));
    if (!f.open(QIODevice::ReadOnly))
        return QStringLiteral("unknown");
    return QString::fromLatin1(f.readLine()).section(QLatin1Char(' '), 0, 2);
}

// Busy CPU seconds of the whole machine since boot (/proc/stat: user, nice, system, irq, softirq,
// steal): the database server, this process and the broker in it. Over one stage, divided by the
// events the stage moved, it is what one event costs the machine on that path; where a stage keeps
// both cores busy, the rates of two stages are in the inverse ratio of these costs.
double machineBusySeconds()
{
    QFile f(QStringLiteral("/proc/stat"));
    if (!f.open(QIODevice::ReadOnly))
        return 0;
    const QList<QByteArray> v = f.readLine().simplified().split(' ');
    if (v.size() < 9)
        return 0;
    double busy = 0;
    for (int i : {1, 2, 3, 6, 7, 8})
        busy += v.at(i).toDouble();
    return busy / double(sysconf(_SC_CLK_TCK));
}

struct CpuMeter
{
    double start = machineBusySeconds();
    double usPerEvent(qint64 events) const
    {
        return (machineBusySeconds() - start) * 1e6 / double(std::max<qint64>(1, events));
    }
};

void die(const QString& why)
{
    std::fprintf(stderr, "outbox-relay-bench: %s\n", qPrintable(why));
    std::exit(1);
}

std::unique_ptr<Database> open(const DatabaseUrl& url, const QString& purpose)
{
    Database::Options o;
    o.purpose = purpose;
    auto db = Database::open(url, o);
    if (!db)
        die(db.message());
    return std::move(db).value();
}

void reset(Database& db)
{
    if (!db.exec(QStringLiteral("DELETE FROM {events}")) || !db.exec(QStringLiteral("DELETE FROM {relays}")))
        die(QStringLiteral("cannot empty the outbox"));
    if (db.kind() == DatabaseKind::PostgreSql)
        (void)db.exec(QStringLiteral("VACUUM ANALYZE {events}"));
}

// The latency stages start from an outbox with history, as a running one has (SENT rows kept for
// the retention period), and analyzed. Right after reset() the statistics say the table is
// empty: the relay's prepared claim and mark were then planned as sequential scans and stayed so
// until autovacuum next analyzed the table (up to autovacuum_naptime, a minute), so one 15 s run
// claimed in about 1 ms and the next in 7-11 ms, with commit -> ack p50 4 or 45 ms accordingly.
void resetWithHistory(Database& db, qint64 history)
{
    reset(db);
    if (history <= 0)
        return;
    test::insertGeneratedEvents(db, history);
    if (db.kind() == DatabaseKind::PostgreSql)
        (void)db.exec(QStringLiteral("VACUUM ANALYZE {events}"));
}

NewEvent sampleEvent(qint64 n)
{
    NewEvent e;
    e.eventType = n % 2 ? QStringLiteral("OrderPaid") : QStringLiteral("OrderCreated");
    e.aggregateType = QStringLiteral("Order");
    e.aggregateId = QStringLiteral("O%1").arg(n % 50000);
    e.aggregateVersion = n / 50000 + 1;
    e.payload = QJsonDocument(QJsonObject{{QStringLiteral("order_id"), e.aggregateId},
                                          {QStringLiteral("total_cents"), qint64(1999 + n % 1000)},
                                          {QStringLiteral("sku"), QStringLiteral("SKU-%1").arg(n % 97)},
                                          {QStringLiteral("quantity"), int(1 + n % 3)},
                                          {QStringLiteral("note"),
                                           QStringLiteral("benchmark event with a realistic payload size")}})
                    .toJson(QJsonDocument::Compact);
    e.headers =
        QJsonObject{{QStringLiteral("trace_id"), QStringLiteral("%1").arg(n, 16, 16, QLatin1Char('0'))}};
    return e;
}

void preload(Database& db, qint64 events)
{
    QVector<NewEvent> chunk;
    for (qint64 n = 0; n < events; ++n) {
        chunk << sampleEvent(n);
        if (chunk.size() == 1000 || n + 1 == events) {
            if (!db.beginWrite())
                die(QStringLiteral("begin failed"));
            auto ids = EventWriter(db).appendBatch(chunk);
            if (!ids || !db.commit())
                die(QStringLiteral("preload failed: %1").arg(ids ? QStringLiteral("commit") : ids.message()));
            chunk.clear();
        }
    }
    if (db.kind() == DatabaseKind::PostgreSql)
        (void)db.exec(QStringLiteral("VACUUM ANALYZE {events}"));
}

// The minimal-schema reference (stage 0). The SQL is the cheapest a relay can issue: literal ids
// and names (all produced here, no user text) in the simple query protocol, one round trip each.
const QString ReferenceTable = QStringLiteral("outbox_bench_reference");

void createReference(Database& db)
{
    const bool pg = db.kind() == DatabaseKind::PostgreSql;
    const bool mysql = db.kind() == DatabaseKind::MySql;
    (void)db.exec(QStringLiteral("DROP TABLE IF EXISTS %1").arg(ReferenceTable));
    QStringList ddl;
    if (pg) {
        ddl << QStringLiteral("CREATE TABLE %1 (id bigint GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY, "
                              "event_id text NOT NULL UNIQUE, payload jsonb NOT NULL, status text NOT NULL "
                              "DEFAULT 'PENDING', worker_id text, lease_until timestamptz, sent_at "
                              "timestamptz)")
                   .arg(ReferenceTable)
            << QStringLiteral("CREATE INDEX %1_pending ON %1 (id) WHERE status = 'PENDING'")
                   .arg(ReferenceTable)
            << QStringLiteral("CREATE INDEX %1_sending ON %1 (worker_id) WHERE status = 'SENDING'")
                   .arg(ReferenceTable);
    } else if (mysql) {
        // No partial indexes: the same two as (status, …) indexes.
        ddl << QStringLiteral(
                   "CREATE TABLE %1 (id bigint AUTO_INCREMENT PRIMARY KEY, event_id varchar(191) NOT "
                   "NULL UNIQUE, payload longtext NOT NULL, status varchar(16) NOT NULL DEFAULT "
                   "'PENDING', worker_id varchar(191), lease_until datetime(6), sent_at "
                   "datetime(6), KEY %1_pending (status, id), KEY %1_sending (status, worker_id)) "
                   "ENGINE=InnoDB")
                   .arg(ReferenceTable);
    } else {
        ddl << QStringLiteral(
                   "CREATE TABLE %1 (id INTEGER PRIMARY KEY, event_id TEXT NOT NULL UNIQUE, payload "
                   "TEXT NOT NULL, status TEXT NOT NULL DEFAULT 'PENDING', worker_id TEXT, "
                   "lease_until TEXT, sent_at TEXT)")
                   .arg(ReferenceTable)
            << QStringLiteral("CREATE INDEX %1_pending ON %1 (id) WHERE status = 'PENDING'")
                   .arg(ReferenceTable)
            << QStringLiteral("CREATE INDEX %1_sending ON %1 (worker_id) WHERE status = 'SENDING'")
                   .arg(ReferenceTable);
    }
    for (const QString& statement : ddl) {
        if (auto q = db.exec(statement); !q)
            die(QStringLiteral("reference table: %1").arg(q.message()));
    }
}

// Copies the preloaded events (same ids, event ids and payloads) into the reference table.
void fillReference(Database& db)
{
    if (auto q = db.exec(QStringLiteral("DELETE FROM %1").arg(ReferenceTable)); !q)
        die(q.message());
    if (auto q = db.exec(QStringLiteral("INSERT INTO %1 (id, event_id, payload) SELECT id, event_id, payload "
                                        "FROM {events} ORDER BY id")
                             .arg(ReferenceTable));
        !q)
        die(QStringLiteral("reference table: %1").arg(q.message()));
    if (db.kind() == DatabaseKind::PostgreSql)
        (void)db.exec(QStringLiteral("VACUUM ANALYZE %1").arg(ReferenceTable));
    else if (db.kind() == DatabaseKind::MySql)
        (void)db.exec(QStringLiteral("ANALYZE TABLE %1").arg(ReferenceTable));
}

// Events/s and the mean time of one claim and one mark statement (ms per batch, summed over the
// threads' calls).
struct Throughput
{
    double rate = 0, claimMs = 0, markMs = 0;
};

struct StatementClock
{
    std::atomic<qint64> claimNs{0}, markNs{0}, claims{0}, marks{0};
    Throughput result(qint64 done, qint64 elapsedMs) const
    {
        return Throughput{double(done) * 1000.0 / double(std::max<qint64>(1, elapsedMs)),
                          double(claimNs.load()) / 1e6 / double(std::max<qint64>(1, claims.load())),
                          double(markNs.load()) / 1e6 / double(std::max<qint64>(1, marks.load()))};
    }
};

Throughput referenceRate(const DatabaseUrl& url, int threads, int batch,
                         const QString& table = ReferenceTable)
{
    std::atomic<qint64> done{0};
    StatementClock clock;
    QElapsedTimer t;
    t.start();
    std::vector<std::unique_ptr<QThread>> workers;
    for (int i = 0; i < threads; ++i) {
        workers.emplace_back(QThread::create([&, i] {
            auto db = open(url, QStringLiteral("reference-%1").arg(i));
            const QString worker = QStringLiteral("'ref-%1'").arg(i);
            const bool pg = db->kind() == DatabaseKind::PostgreSql;
            const QString skipLocked = db->dialect().forUpdateSkipLocked();
            const QString lease = db->dialect().nowPlusMillis(QStringLiteral("60000"));
            while (true) {
                QStringList ids;
                QElapsedTimer st;
                st.start();
                if (pg) {
                    // One statement: claim and read what is to be sent.
                    auto q =
                        db->exec(QStringLiteral("UPDATE %1 SET status = 'SENDING', worker_id = %2, "
                                                "lease_until = %3 WHERE id IN (SELECT id FROM %1 WHERE "
                                                "status = 'PENDING' ORDER BY id LIMIT %4%5) RETURNING id, "
                                                "event_id, payload")
                                     .arg(table, worker, lease)
                                     .arg(batch)
                                     .arg(skipLocked));
                    if (!q)
                        die(q.message());
                    while (q->next())
                        ids << q->value(0).toString();
                } else {
                    if (!db->beginWrite())
                        die(QStringLiteral("begin failed"));
                    auto q = db->exec(QStringLiteral("SELECT id, event_id, payload FROM %1 WHERE status = "
                                                     "'PENDING' ORDER BY id LIMIT %2%3")
                                          .arg(table)
                                          .arg(batch)
                                          .arg(skipLocked));
                    if (!q)
                        die(q.message());
                    while (q->next())
                        ids << q->value(0).toString();
                    if (!ids.isEmpty()) {
                        auto u = db->exec(QStringLiteral("UPDATE %1 SET status = 'SENDING', worker_id = %2, "
                                                         "lease_until = %3 WHERE id IN (%4)")
                                              .arg(table, worker, lease, ids.join(QLatin1Char(','))));
                        if (!u)
                            die(u.message());
                    }
                    if (!db->commit())
                        die(QStringLiteral("commit failed"));
                }
                clock.claimNs += st.nsecsElapsed();
                ++clock.claims;
                if (ids.isEmpty())
                    break;
                st.restart();
                const QString idSet =
                    pg ? QStringLiteral("= ANY('{%1}'::bigint[])").arg(ids.join(QLatin1Char(',')))
                       : QStringLiteral("IN (%1)").arg(ids.join(QLatin1Char(',')));
                auto m = db->exec(QStringLiteral("UPDATE %1 SET status = 'SENT', sent_at = %2, lease_until = "
                                                 "NULL WHERE id %3 AND status = 'SENDING' AND worker_id = %4")
                                      .arg(table, db->dialect().now(), idSet, worker));
                if (!m)
                    die(m.message());
                clock.markNs += st.nsecsElapsed();
                ++clock.marks;
                done += m->numRowsAffected();
            }
        }));
        workers.back()->start();
    }
    for (auto& w : workers)
        w->wait();
    return clock.result(done.load(), t.elapsed());
}

// The external reference (--minrelay PATH, or OUTBOX_MINRELAY): ../shared/bench/minrelay.c, the
// cheapest correct relay (libpq + librdkafka: claim a batch with SKIP LOCKED, produce, wait for
// every ack, fenced mark SENT), built by hand with the command in its header and never part of
// the project. It runs as its own process against the same database and the embedded broker of
// this process (a real Kafka listener on 127.0.0.1), once on a minimal table and once on the
// project's migrated outbox table. Its table name is fixed (outbox_events): the minimal one lives
// in a schema of its own that its connection puts first on the search_path.
const QString MinrelaySchema = QStringLiteral("outbox_bench_minrelay");

struct ExternalRun
{
    double rate = 0, cpuUs = 0;
};

// A libpq connection string; values single-quoted with \ and ' escaped (libpq's rules).
QString libpqConninfo(const DatabaseUrl& url, const QString& searchPath)
{
    const auto quoted = [](QString v) {
        v.replace(QLatin1String("\\"), QLatin1String("\\\\"));
        v.replace(QLatin1String("'"), QLatin1String("\\'"));
        return QStringLiteral("'%1'").arg(v);
    };
    QStringList parts{QStringLiteral("host=%1").arg(quoted(url.host)),
                      QStringLiteral("dbname=%1").arg(quoted(url.database))};
    if (url.port > 0)
        parts << QStringLiteral("port=%1").arg(url.port);
    if (!url.user.isEmpty())
        parts << QStringLiteral("user=%1").arg(quoted(url.user));
    for (const QString& option : url.connectOptions.split(QLatin1Char(';'), Qt::SkipEmptyParts))
        parts << QStringLiteral("%1=%2").arg(option.section(QLatin1Char('='), 0, 0),
                                             quoted(option.section(QLatin1Char('='), 1)));
    if (!searchPath.isEmpty())
        parts << QStringLiteral("options=%1").arg(quoted(QStringLiteral("-csearch_path=%1").arg(searchPath)));
    return parts.join(QLatin1Char(' '));
}

// The minimal table minrelay needs (its column names), with the preloaded events of {events}.
void fillMinrelayTable(Database& db)
{
    const QString t = MinrelaySchema + QStringLiteral(".outbox_events");
    const QStringList ddl{
        QStringLiteral("DROP SCHEMA IF EXISTS %1 CASCADE").arg(MinrelaySchema),
        QStringLiteral("CREATE SCHEMA %1").arg(MinrelaySchema),
        QStringLiteral(
            "CREATE TABLE %1 (id bigint PRIMARY KEY, event_id text NOT NULL UNIQUE, aggregate_id text "
            "NOT NULL, payload jsonb NOT NULL, status text NOT NULL DEFAULT 'PENDING', attempts "
            "integer NOT NULL DEFAULT 0, available_at timestamptz NOT NULL DEFAULT now(), worker_id "
            "text, lease_until timestamptz, sent_at timestamptz)")
            .arg(t),
        QStringLiteral("CREATE INDEX outbox_events_pending ON %1 (id) WHERE status = 'PENDING'").arg(t),
        QStringLiteral("CREATE INDEX outbox_events_sending ON %1 (worker_id) WHERE status = 'SENDING'")
            .arg(t),
        QStringLiteral(
            "INSERT INTO %1 (id, event_id, aggregate_id, payload) SELECT id, event_id, aggregate_id, "
            "payload FROM {events} ORDER BY id")
            .arg(t),
        QStringLiteral("VACUUM ANALYZE %1").arg(t)};
    for (const QString& statement : ddl) {
        if (auto q = db.exec(statement); !q)
            die(QStringLiteral("minrelay table: %1").arg(q.message()));
    }
}

// Runs minrelay until it has drained its table; its own figure (events/s from its first claim to
// its last mark) and the machine's CPU per event over the run.
ExternalRun runMinrelay(const QString& program, const DatabaseUrl& url, const QString& searchPath,
                        const QString& bootstrap, int workers, int batch, qint64 events)
{
    QProcess p;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    if (!url.password.isEmpty())
        env.insert(QStringLiteral("PGPASSWORD"), url.password); // never in its command line
    p.setProcessEnvironment(env);
    const CpuMeter cpu;
    p.start(program, {libpqConninfo(url, searchPath), bootstrap, QStringLiteral("order"),
                      QString::number(workers), QString::number(batch)});
    if (!p.waitForStarted(10000))
        die(QStringLiteral("cannot start %1: %2").arg(program, p.errorString()));
    if (!p.waitForFinished(600000) || p.exitStatus() != QProcess::NormalExit || p.exitCode() != 0)
        die(QStringLiteral("minrelay failed: %1")
                .arg(QString::fromLocal8Bit(p.readAllStandardError()).trimmed()));
    const QString out = QString::fromLocal8Bit(p.readAllStandardOutput());
    const auto m =
        QRegularExpression(QStringLiteral("minrelay (\\d+) events in ([0-9.]+) s = (\\d+)/s")).match(out);
    if (!m.hasMatch())
        die(QStringLiteral("minrelay printed no figure: %1").arg(out.trimmed()));
    if (m.captured(1).toLongLong() != events)
        die(QStringLiteral("minrelay sent %1 of %2 events").arg(m.captured(1)).arg(events));
    return ExternalRun{m.captured(3).toDouble(), cpu.usPerEvent(events)};
}

// `tablePrefix` runs the same statements on a copy of the outbox table (the attribution stage).
Throughput databaseBound(const DatabaseUrl& url, int threads, int batch, const QString& tablePrefix = {})
{
    std::atomic<qint64> done{0};
    StatementClock clock;
    QElapsedTimer t;
    t.start();
    std::vector<std::unique_ptr<QThread>> workers;
    for (int i = 0; i < threads; ++i) {
        workers.emplace_back(QThread::create([&, i] {
            Database::Options o;
            o.purpose = QStringLiteral("bound-%1").arg(i);
            o.tablePrefix = tablePrefix;
            auto opened = Database::open(url, o);
            if (!opened)
                die(opened.message());
            auto db = std::move(opened).value();
            EventStore store(*db);
            while (true) {
                QElapsedTimer st;
                st.start();
                auto claimed = store.claim(QStringLiteral("bound-%1").arg(i), batch, 60000);
                if (!claimed)
                    die(claimed.message());
                clock.claimNs += st.nsecsElapsed();
                ++clock.claims;
                if (claimed->events.isEmpty())
                    break;
                st.restart();
                QVector<SentMark> marks;
                for (const OutboxEvent& e : claimed->events)
                    marks << SentMark{e.id, 0, e.id};
                auto marked = store.markSent(claimed->leaseToken, marks);
                if (!marked)
                    die(marked.message());
                clock.markNs += st.nsecsElapsed();
                ++clock.marks;
                done += marked->updated;
            }
        }));
        workers.back()->start();
    }
    for (auto& w : workers)
        w->wait();
    return clock.result(done.load(), t.elapsed());
}

// The same with held claims (PostgreSQL): per batch the claim (SELECT … FOR UPDATE SKIP LOCKED in
// an open transaction on a connection of its own), the journal row on the other connection, the
// mark SENT and the commit that deletes the journal row, as a relay with relay.claim_mode = held
// runs them.
Throughput databaseBoundHeld(const DatabaseUrl& url, int threads, int batch)
{
    std::atomic<qint64> done{0};
    StatementClock clock;
    QElapsedTimer t;
    t.start();
    std::vector<std::unique_ptr<QThread>> workers;
    for (int i = 0; i < threads; ++i) {
        workers.emplace_back(QThread::create([&, i] {
            auto db = open(url, QStringLiteral("bound-held-main-%1").arg(i));
            auto held = HeldClaim::open(open(url, QStringLiteral("bound-held-%1").arg(i)), 60000);
            if (!held)
                die(held.message());
            const QString worker = QStringLiteral("bound-held-%1").arg(i);
            while (true) {
                QElapsedTimer st;
                st.start();
                auto claimed = (*held)->claim(worker, batch, OrderingMode::None);
                if (!claimed)
                    die(claimed.message());
                if (claimed->events.isEmpty()) {
                    clock.claimNs += st.nsecsElapsed();
                    ++clock.claims;
                    break;
                }
                QVector<qint64> ids;
                QVector<SentMark> marks;
                for (const OutboxEvent& e : claimed->events) {
                    ids << e.id;
                    marks << SentMark{e.id, 0, e.id};
                }
                auto journal = HeldClaim::journal(*db, worker, ids, 60000);
                if (!journal)
                    die(journal.message());
                clock.claimNs += st.nsecsElapsed();
                ++clock.claims;
                st.restart();
                auto marked = (*held)->markSent(marks);
                if (!marked)
                    die(marked.message());
                if (Status s = (*held)->finish(*journal); !s)
                    die(s.message());
                clock.markNs += st.nsecsElapsed();
                ++clock.marks;
                done += marked->updated;
            }
        }));
        workers.back()->start();
    }
    for (auto& w : workers)
        w->wait();
    return clock.result(done.load(), t.elapsed());
}

// Attribution (PostgreSQL, --attribute): where the gap between the reference and the database
// bound comes from. Each variant is a fresh copy of the preloaded outbox table (attr_outbox_events,
// same rows, the project's columns) with a chosen set of the project's indexes, drained once by the
// reference's SQL or by the project's own (EventStore with the table prefix attr_).
const QString AttributionPrefix = QStringLiteral("attr_");

QVector<QPair<QString, QString>> projectIndexes(Database& db)
{
    QVector<QPair<QString, QString>> indexes; // name, definition
    auto q = db.exec(QStringLiteral("SELECT indexname, indexdef FROM pg_indexes WHERE tablename = "
                                    "'{events}' ORDER BY indexname"));
    if (!q)
        die(q.message());
    while (q->next())
        indexes << qMakePair(q->value(0).toString(), q->value(1).toString());
    return indexes;
}

void fillAttributionTable(Database& db, const QVector<QPair<QString, QString>>& indexes,
                          const QStringList& without, bool referenceIndexes)
{
    const QString copy = AttributionPrefix + QStringLiteral("outbox_events");
    const QString original = db.dialect().sql(QStringLiteral("{events}"));
    QStringList ddl{QStringLiteral("DROP TABLE IF EXISTS %1").arg(copy),
                    QStringLiteral("CREATE TABLE %1 (LIKE %2 INCLUDING DEFAULTS INCLUDING IDENTITY INCLUDING "
                                   "CONSTRAINTS)")
                        .arg(copy, original),
                    QStringLiteral("INSERT INTO %1 SELECT * FROM %2 ORDER BY id").arg(copy, original)};
    for (const auto& [name, definition] : indexes) {
        if (without.contains(name.mid(original.size() + 1)))
            continue;
        QString d = definition;
        d.replace(QStringLiteral("INDEX %1 ON public.%2 ").arg(name, original),
                  QStringLiteral("INDEX %1%2 ON public.%3 ").arg(AttributionPrefix, name, copy));
        ddl << d;
    }
    if (referenceIndexes)
        ddl << QStringLiteral("CREATE INDEX %1_ref_pending ON %1 (id) WHERE status = 'PENDING'").arg(copy)
            << QStringLiteral("CREATE INDEX %1_ref_sending ON %1 (worker_id) WHERE status = 'SENDING'")
                   .arg(copy);
    ddl << QStringLiteral("VACUUM ANALYZE %1").arg(copy);
    for (const QString& statement : ddl) {
        if (auto q = db.exec(statement); !q)
            die(QStringLiteral("attribution table: %1: %2").arg(statement, q.message()));
    }
}

// (b) and (c): the reference's and the project's SQL on the same copy of the project's table.
struct Attribution
{
    Throughput referenceSql, projectSql;
};

Attribution attribute(Database& db, const DatabaseUrl& url, int threads, int batch,
                      const Throughput& reference)
{
    Attribution result;
    const auto indexes = projectIndexes(db);
    const QString original = db.dialect().sql(QStringLiteral("{events}"));
    QStringList extra; // every index beyond the primary key and the unique event_id
    for (const auto& index : indexes) {
        const QString suffix = index.first.mid(original.size() + 1);
        if (suffix != QLatin1String("pkey") && suffix != QLatin1String("event_id_key"))
            extra << suffix;
    }
    const auto line = [&](const QString& what, const Throughput& r) {
        std::printf("  attribution  %-58s %8.0f events/s  %5.1f %% of the reference  claim %6.2f ms  mark "
                    "%6.2f ms\n",
                    qPrintable(what), r.rate, 100.0 * r.rate / reference.rate, r.claimMs, r.markMs);
        std::fflush(stdout);
    };
    line(QStringLiteral("(a) reference SQL, minimal table"), reference);
    const QString copy = AttributionPrefix + QStringLiteral("outbox_events");
    fillAttributionTable(db, indexes, {}, false);
    result.referenceSql = referenceRate(url, threads, batch, copy);
    line(QStringLiteral("(b) reference SQL, project's table, all %1 indexes").arg(indexes.size()),
         result.referenceSql);
    fillAttributionTable(db, indexes, {}, false);
    result.projectSql = databaseBound(url, threads, batch, AttributionPrefix);
    line(QStringLiteral("(c) project's SQL, project's table, all %1 indexes").arg(indexes.size()),
         result.projectSql);
    for (const QString& index : extra) {
        fillAttributionTable(db, indexes, {index}, false);
        line(QStringLiteral("    reference SQL, project's table without %1").arg(index),
             referenceRate(url, threads, batch, copy));
    }
    fillAttributionTable(db, indexes, extra, true);
    line(QStringLiteral("(d) reference SQL, project's table, the reference's 4 indexes"),
         referenceRate(url, threads, batch, copy));
    fillAttributionTable(db, indexes, extra, true);
    line(QStringLiteral("(e) project's SQL, project's table, the reference's 4 indexes"),
         databaseBound(url, threads, batch, AttributionPrefix));
    (void)db.exec(QStringLiteral("DROP TABLE IF EXISTS %1").arg(copy));
    return result;
}

// What the gap between a relay and minrelay on the minimal table is made of, in wall time per
// event (the inverse of the rates, so the parts add up; with several workers in flight the split
// is an estimate): the schema (minrelay on the project's table), the database side of the
// project's SQL and client (attribution (c) against (b): the same table, no broker) and the rest:
// the relay's producer, message headers, delivery waits and loop, and the broker's share of them.
void printGap(const char* mode, double relay, double minimal, double project, const Attribution* a)
{
    const auto us = [](double rate) { return rate > 0 ? 1e6 / rate : 0.0; };
    const double total = us(relay) - us(minimal);
    const double schema = us(project) - us(minimal);
    std::printf(
        "gap to minrelay-minimal, %s: %+.1f us/event = schema %+.1f (minrelay on the project's table)", mode,
        total, schema);
    if (a != nullptr && a->projectSql.rate > 0 && a->referenceSql.rate > 0) {
        const double sql = us(a->projectSql.rate) - us(a->referenceSql.rate);
        std::printf(" + SQL and database client %+.1f (attribution (c) - (b)) + producer, broker and relay "
                    "loop %+.1f (negative: the relay overlaps claims with deliveries, minrelay waits)",
                    sql, total - schema - sql);
    } else {
        std::printf(" + SQL, client, producer and broker path %+.1f (--attribute splits it)", total - schema);
    }
    std::printf("\n");
}

double brokerBound(const QString& bootstrap, qint64 events)
{
    KafkaProperties props;
    auto p = KafkaPublisher::create(bootstrap, props);
    if (!p)
        die(p.message());
    QElapsedTimer t;
    t.start();
    qint64 acked = 0;
    std::vector<std::unique_ptr<PendingBatch>> inFlight;
    for (qint64 start = 0; start < events; start += 500) {
        QVector<BrokerMessage> batch;
        for (qint64 n = start; n < std::min(events, start + 500); ++n) {
            const NewEvent e = sampleEvent(n);
            batch << BrokerMessage{QStringLiteral("order"),
                                   e.aggregateId.toUtf8(),
                                   e.payload,
                                   {{"event_id", QByteArray::number(n)},
                                    {"event_type", e.eventType.toUtf8()},
                                    {"aggregate_type", "Order"},
                                    {"aggregate_id", e.aggregateId.toUtf8()},
                                    {"schema_version", "1"},
                                    {"trace_id", "0"}},
                                   {},
                                   {},
                                   {},
                                   0};
        }
        inFlight.push_back((*p)->enqueue(batch)); // no waiting between batches: the producer's own limit
    }
    for (auto& pending : inFlight) {
        (*p)->await(*pending, 60000);
        for (const DeliveryReport& r : pending->reports())
            acked += r.deliveryClass == DeliveryClass::Success ? 1 : 0;
    }
    if (acked != events)
        die(QStringLiteral("broker bound: only %1 of %2 acked").arg(acked).arg(events));
    return double(events) * 1000.0 / double(std::max<qint64>(1, t.elapsed()));
}

// Produce -> ack latency of single messages, for comparison with commit -> ack.
Latency brokerLatency(const QString& bootstrap, int messages)
{
    KafkaProperties props;
    auto p = KafkaPublisher::create(bootstrap, props);
    if (!p)
        die(p.message());
    QVector<qint64> samples;
    for (int i = 0; i < messages; ++i) {
        const NewEvent e = sampleEvent(i);
        QElapsedTimer t;
        t.start();
        auto pending = (*p)->enqueue({BrokerMessage{
            QStringLiteral("order"), e.aggregateId.toUtf8(), e.payload, {{"event_id", "x"}}, {}, {}, {}, 0}});
        (*p)->await(*pending, 10000);
        samples << t.elapsed();
    }
    return Latency{percentile(samples, 50), percentile(samples, 99), samples.size()};
}

// --linger-ms: the relays' relay.linger_ms (default: the product's default).
int g_lingerMs = RelayOptions().lingerMs;

RelayOptions relayOptions(const QString& bootstrap, int batch, bool notify, ClaimMode mode = ClaimMode::Lease)
{
    RelayOptions o;
    o.lingerMs = g_lingerMs;
    o.claimMode = mode;
    o.broker = test::kafkaAt(bootstrap);
    o.batchSize = batch;
    o.notify = notify;
    // The bench's writer shares this process; an order service usually does not: measure NOTIFY
    // and polling, not the in-process wake-up.
    o.localWakeup = false;
    o.pollIntervalMs = 100;
    o.retentionMs = 0;
    return o;
}

double relayRate(const DatabaseUrl& url, const QString& bootstrap, int relays, int batch, qint64 events,
                 ClaimMode mode = ClaimMode::Lease)
{
    std::vector<std::unique_ptr<RelayStats>> stats;
    std::atomic<bool> stop{false};
    QElapsedTimer t;
    t.start();
    std::vector<std::unique_ptr<QThread>> threads;
    for (int i = 0; i < relays; ++i) {
        RelayOptions o = relayOptions(bootstrap, batch, true, mode);
        o.workerId = QStringLiteral("bench-%1").arg(i);
        stats.push_back(std::make_unique<RelayStats>());
        RelayStats* mine = stats.back().get();
        threads.emplace_back(QThread::create([&, o, mine] {
            Relay relay(DatabaseTarget(url, QString()), o, *mine);
            if (Status s = relay.run(stop); !s)
                die(s.message());
        }));
        threads.back()->start();
    }
    auto sent = [&] {
        qint64 n = 0;
        for (const auto& s : stats)
            n += s->sent.load();
        return n;
    };
    while (sent() < events && t.elapsed() < 600000)
        QThread::msleep(5);
    const qint64 elapsed = t.elapsed();
    stop = true;
    for (auto& th : threads)
        th->wait();
    if (sent() < events)
        die(QStringLiteral("the relays sent only %1 of %2 events").arg(sent()).arg(events));
    return double(events) * 1000.0 / double(std::max<qint64>(1, elapsed));
}

// The relay's own lines about its wake-up ("wake-up: doorbell (…)"), printed as they come.
Relay::Logger wakeUpPrinter()
{
    return [](const QString& line) {
        if (line.startsWith(QLatin1String("wake-up")) || line.startsWith(QLatin1String("doorbell"))) {
            std::printf("  relay: %s\n", qPrintable(line));
            std::fflush(stdout);
        }
    };
}

// The relay as the product runs it (--relay-process): an `outboxctl relay --workers K` process with
// its defaults, from its start (connecting, checking the schema, fetching the broker's metadata) until
// its last mark, as ../shared/bench/relay-limit.sh measures it, but without that script's cost: its
// `count(*)` of the unsent rows every 0.1 s scans the whole table once the statistics call every row
// PENDING (523 ms a count on 200,000 rows, 14 of the server's 26 CPU seconds in a 24 s drain,
// measured with pg_stat_statements on 2026-12-07), on the cores the relay is measured on. Here the
// end is the database's own time of the last mark (max(sent_at), the clock the start was read
// from), and the check that the drain is over asks for one unsent row by the partial index, twice a
// second. The password goes through the environment.
double relayProcessRate(Database& db, const DatabaseUrl& url, const QString& bootstrap, int relays, int batch,
                        qint64 events)
{
    test::OutboxctlStart start;
    start.extraEnv.insert(QStringLiteral("OUTBOX_DB_URL"), url.redacted());
    if (!url.password.isEmpty())
        start.extraEnv.insert(QStringLiteral("OUTBOX_DB_PASSWORD"), url.password);
    start.noInput = true;
    start.outFile =
        QStringLiteral("/tmp/outbox-relay-bench-relay-%1.log").arg(QCoreApplication::applicationPid());
    const bool postgres = db.kind() == DatabaseKind::PostgreSql;
    if (postgres)
        (void)db.exec(
            QStringLiteral("SET enable_seqscan = off")); // the partial index, however stale the statistics
    auto began = db.scalar(postgres ? QStringLiteral("SELECT clock_timestamp()")
                                    : QStringLiteral("SELECT %1").arg(db.dialect().now()));
    if (!began)
        die(began.message());
    const QDateTime startedAt = db.dialect().toDateTime(*began);
    QElapsedTimer t;
    t.start();
    auto relay = test::startOutboxctl({QStringLiteral("relay"), QStringLiteral("--kafka-bootstrap"),
                                       bootstrap, QStringLiteral("--workers"), QString::number(relays),
                                       QStringLiteral("--batch-size"), QString::number(batch),
                                       QStringLiteral("--quiet")},
                                      start);
    bool unsent = true;
    while (unsent && t.elapsed() < 600000) {
        QThread::msleep(500);
        if (relay->state() != QProcess::Running)
            die(QStringLiteral("the relay process ended: see %1").arg(start.outFile));
        auto any =
            db.exec(QStringLiteral("SELECT 1 FROM {events} WHERE status IN ('PENDING','SENDING','FAILED') "
                                   "LIMIT 1"));
        if (!any)
            die(any.message());
        unsent = any->next();
    }
    const qint64 wall = t.elapsed();
    test::terminateAndWait(*relay);
    if (postgres)
        (void)db.exec(QStringLiteral("RESET enable_seqscan"));
    if (unsent)
        die(QStringLiteral("the relay process left events unsent after %1 s").arg(wall / 1000));
    auto last = db.scalar(QStringLiteral("SELECT MAX(sent_at) FROM {events}"));
    if (!last)
        die(last.message());
    const qint64 elapsed = startedAt.msecsTo(db.dialect().toDateTime(*last));
    if (elapsed <= 0 || elapsed > wall + 1000)
        die(QStringLiteral("the last mark's time (%1 ms after the start) does not fit the wall time (%2 ms)")
                .arg(elapsed)
                .arg(wall));
    return double(events) * 1000.0 / double(elapsed);
}

Latency latencyAt(const DatabaseUrl& url, const QString& bootstrap, int rate, int seconds, bool notify,
                  int pollMs, ClaimMode mode = ClaimMode::Lease)
{
    RelayStats stats;
    std::atomic<bool> stop{false};
    RelayOptions o = relayOptions(bootstrap, 500, notify, mode);
    o.pollIntervalMs = pollMs;
    o.workerId = notify ? QStringLiteral("latency-notify") : QStringLiteral("latency-poll");
    QThread* relayThread = QThread::create([&] {
        Relay relay(DatabaseTarget(url, QString()), o, stats, wakeUpPrinter());
        if (Status s = relay.run(stop); !s)
            die(s.message());
    });
    relayThread->start();
    QThread::msleep(1000);
    // The order service: small transactions at a steady offered load.
    auto writer = open(url, QStringLiteral("writer"));
    QElapsedTimer t;
    t.start();
    qint64 written = 0;
    const qint64 total = qint64(rate) * seconds;
    QVector<qint64> writes; // microseconds per transaction
    while (written < total) {
        const qint64 due = t.elapsed() * rate / 1000;
        if (written >= due) {
            QThread::usleep(500);
            continue;
        }
        QVector<NewEvent> events;
        for (qint64 n = written; n < std::min(due, written + 20); ++n)
            events << sampleEvent(1000000 + n);
        QElapsedTimer tx;
        tx.start();
        if (!writer->beginWrite() || !EventWriter(*writer).appendBatch(events) || !writer->commit())
            die(QStringLiteral("writer failed"));
        writes << tx.nsecsElapsed() / 1000;
        written += events.size();
    }
    QElapsedTimer drain;
    drain.start();
    while (stats.sent.load() < total && drain.elapsed() < 60000)
        QThread::msleep(10);
    stop = true;
    relayThread->wait();
    delete relayThread;
    const QVector<qint64> samples = stats.recentLatencies();
    const QVector<qint64> claims = stats.recentCommitToClaim();
    const QVector<qint64> acks = stats.recentClaimToAck();
    return Latency{percentile(samples, 50), percentile(samples, 99), samples.size(),
                   percentile(claims, 50),  percentile(claims, 99),  percentile(acks, 50),
                   percentile(acks, 99),    percentile(writes, 50),  percentile(writes, 99)};
}

// A trickle (--trickle): the relay idle for `idleSeconds`, then one event every `intervalMs`,
// `count` of them, each in a transaction of its own; commit -> ack of each. What a quiet service's
// events wait, where a relay that polls sits at its longest interval.
Latency trickleLatency(const DatabaseUrl& url, const QString& bootstrap, bool notify, int pollMs,
                       int idleSeconds, int count, int intervalMs)
{
    RelayStats stats;
    std::atomic<bool> stop{false};
    RelayOptions o = relayOptions(bootstrap, 500, notify);
    o.pollIntervalMs = pollMs;
    o.workerId = notify ? QStringLiteral("trickle-default") : QStringLiteral("trickle-poll");
    QThread* relayThread = QThread::create([&] {
        Relay relay(DatabaseTarget(url, QString()), o, stats, wakeUpPrinter());
        if (Status s = relay.run(stop); !s)
            die(s.message());
    });
    relayThread->start();
    QThread::sleep(idleSeconds);
    auto writer = open(url, QStringLiteral("trickle-writer"));
    QVector<qint64> writes;
    for (int i = 0; i < count; ++i) {
        QElapsedTimer tx;
        tx.start();
        if (!writer->beginWrite() || !EventWriter(*writer).appendBatch({sampleEvent(2000000 + i)}) ||
            !writer->commit())
            die(QStringLiteral("writer failed"));
        writes << tx.nsecsElapsed() / 1000;
        QThread::msleep(intervalMs);
    }
    QElapsedTimer drain;
    drain.start();
    while (stats.sent.load() < count && drain.elapsed() < 60000)
        QThread::msleep(10);
    stop = true;
    relayThread->wait();
    delete relayThread;
    const QVector<qint64> samples = stats.recentLatencies();
    const QVector<qint64> claims = stats.recentCommitToClaim();
    const QVector<qint64> acks = stats.recentClaimToAck();
    return Latency{percentile(samples, 50), percentile(samples, 99), samples.size(),
                   percentile(claims, 50),  percentile(claims, 99),  percentile(acks, 50),
                   percentile(acks, 99),    percentile(writes, 50),  percentile(writes, 99)};
}

// What runs beside a relay in production while the latency stages measure (--neighbours): the
// demo's inventory consumer and the desktop console's sampler, each a process of its own.
class Neighbours
{
public:
    Neighbours(const DatabaseUrl& url, const QString& bootstrap)
    {
        // The database URL goes through the environment (it may hold a password), never argv.
        test::OutboxctlStart consumerStart;
        consumerStart.extraEnv.insert(QStringLiteral("OUTBOX_DB_URL"), url.redacted());
        if (!url.password.isEmpty())
            consumerStart.extraEnv.insert(QStringLiteral("OUTBOX_DB_PASSWORD"), url.password);
        consumerStart.noInput = true;
        consumerStart.outFile =
            QStringLiteral("/tmp/outbox-relay-bench-consumer-%1.log").arg(QCoreApplication::applicationPid());
        // A group of its own that starts at the topic's end: it consumes what the latency stages
        // send, at their rate, not the throughput stages' backlog.
        m_consumer = test::startOutboxctl(
            {QStringLiteral("consume"), QStringLiteral("--demo-inventory"), QStringLiteral("--quiet"),
             QStringLiteral("--kafka-bootstrap"), bootstrap, QStringLiteral("--consumer"),
             QStringLiteral("bench-neighbour-%1").arg(QCoreApplication::applicationPid()),
             QStringLiteral("-X"), QStringLiteral("auto.offset.reset=latest")},
            consumerStart);
        m_sampler = std::make_unique<QProcess>();
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        for (const QString& key : consumerStart.extraEnv.keys())
            env.insert(key, consumerStart.extraEnv.value(key));
        m_sampler->setProcessEnvironment(env);
        m_sampler->setProcessChannelMode(QProcess::ForwardedErrorChannel);
        m_sampler->start(QCoreApplication::applicationFilePath(),
                         {QStringLiteral("--role"), QStringLiteral("sampler")});
        if (!m_sampler->waitForStarted(10000))
            die(QStringLiteral("the console sampler did not start"));
        QThread::msleep(4000); // the consumer has joined its group, the sampler has ticked
        if (m_consumer->state() != QProcess::Running)
            die(QStringLiteral("the demo consumer ended at once: see %1").arg(consumerStart.outFile));
    }
    ~Neighbours()
    {
        for (QProcess* p : {m_consumer.get(), m_sampler.get()}) {
            if (p && p->state() == QProcess::Running)
                test::terminateAndWait(*p);
        }
    }

private:
    std::unique_ptr<QProcess> m_consumer;
    std::unique_ptr<QProcess> m_sampler;
};

void printLatency(const char* what, int rate, const Latency& l)
{
    std::printf(
        "commit->ack at %d/s offered, %-18s p50 %4lld ms  p99 %4lld ms  (%lld samples; commit->claim "
        "p50 %lld / p99 %lld ms, claim->ack p50 %lld / p99 %lld ms; the writer's transaction p50 %.1f / "
        "p99 %.1f ms)\n",
        rate, what, static_cast<long long>(l.p50), static_cast<long long>(l.p99),
        static_cast<long long>(l.samples), static_cast<long long>(l.claimP50),
        static_cast<long long>(l.claimP99), static_cast<long long>(l.ackP50),
        static_cast<long long>(l.ackP99), double(l.writeP50) / 1000.0, double(l.writeP99) / 1000.0);
    std::fflush(stdout);
}

} // namespace

int main(int argc, char* argv[])
{
    outbox::pinLocalTimeZone();
    QCoreApplication app(argc, argv);
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("Outbox relay benchmark"));
    parser.addHelpOption();
    const QCommandLineOption dbOption(QStringLiteral("db"),
                                      QStringLiteral("Database URL (PostgreSQL recommended)."),
                                      QStringLiteral("url"));
    const QCommandLineOption eventsOption(QStringLiteral("events"),
                                          QStringLiteral("Preloaded events (default 200000)."),
                                          QStringLiteral("n"), QStringLiteral("200000"));
    const QCommandLineOption relaysOption(QStringLiteral("relays"),
                                          QStringLiteral("Relays / claim threads (default 2)."),
                                          QStringLiteral("k"), QStringLiteral("2"));
    const QCommandLineOption batchOption(QStringLiteral("batch"), QStringLiteral("Batch size (default 500)."),
                                         QStringLiteral("n"), QStringLiteral("500"));
    const QCommandLineOption rateOption(QStringLiteral("rate"),
                                        QStringLiteral("Offered load for latency (default 2000/s)."),
                                        QStringLiteral("n"), QStringLiteral("2000"));
    const QCommandLineOption secondsOption(QStringLiteral("seconds"),
                                           QStringLiteral("Latency run length (default 20)."),
                                           QStringLiteral("s"), QStringLiteral("20"));
    const QCommandLineOption smokeOption(QStringLiteral("smoke"),
                                         QStringLiteral("Tiny run for CI: checks that every stage works."));
    const QCommandLineOption latencyOnlyOption(QStringLiteral("latency-only"),
                                               QStringLiteral("Skip the throughput stages."));
    const QCommandLineOption roundsOption(
        QStringLiteral("rounds"), QStringLiteral("Throughput rounds, best of them counts (default 2)."),
        QStringLiteral("n"), QStringLiteral("2"));
    const QCommandLineOption attributeOption(
        QStringLiteral("attribute"),
        QStringLiteral("PostgreSQL: after each round's reference, drain copies of the outbox table with "
                       "the reference's and the project's SQL and one index at a time left out."));
    const QCommandLineOption historyOption(
        QStringLiteral("history"),
        QStringLiteral("SENT events in the outbox (analyzed) before each latency stage (default 100000; 0: "
                       "an empty table whose statistics say so)."),
        QStringLiteral("n"), QStringLiteral("100000"));
    const QCommandLineOption minrelayOption(
        QStringLiteral("minrelay"),
        QStringLiteral(
            "PostgreSQL: also run this minrelay binary (../shared/bench/minrelay.c, built by hand) in "
            "each round, on a minimal table and on the project's table, and print every relay "
            "figure as a percentage of minrelay on the minimal table (default: $OUTBOX_MINRELAY)."),
        QStringLiteral("path"));
    const QCommandLineOption neighboursOption(
        QStringLiteral("neighbours"),
        QStringLiteral("During the latency stages, run the demo's inventory consumer (outboxctl consume) and "
                       "the desktop console's sampler beside the relay, as in production."));
    const QCommandLineOption lingerOption(
        QStringLiteral("linger-ms"),
        QStringLiteral("The relays' relay.linger_ms (default: the product's default)."), QStringLiteral("ms"),
        QString::number(RelayOptions().lingerMs));
    const QCommandLineOption brokersOption(
        QStringLiteral("brokers"),
        QStringLiteral("Brokers of the embedded cluster; the topic's replication is as many, up to 3, as in "
                       "production (default 1)."),
        QStringLiteral("n"), QStringLiteral("1"));
    const QCommandLineOption relayProcessOption(
        QStringLiteral("relay-process"),
        QStringLiteral("Throughput: run the relay as the product runs it, an outboxctl relay --workers K "
                       "process, wall time from its start (as ../shared/bench/relay-limit.sh), instead of "
                       "K relays in this process."));
    const QCommandLineOption notifyOnOption(
        QStringLiteral("notify-on"),
        QStringLiteral("PostgreSQL: also measure the latency with the wake-up trigger switched on (outboxctl "
                       "notify on, the opt-in): a relay that LISTENs."));
    const QCommandLineOption trickleOption(
        QStringLiteral("trickle"),
        QStringLiteral("Also measure a trickle: the relay idle for a minute, then one event every 2 s, 60 "
                       "of them; with the default wake-up and polling only."));
    const QCommandLineOption roleOption(QStringLiteral("role"), QStringLiteral("Internal: sampler."),
                                        QStringLiteral("role"));
    parser.addOptions({dbOption, eventsOption, relaysOption, batchOption, rateOption, secondsOption,
                       smokeOption, latencyOnlyOption, roundsOption, attributeOption, historyOption,
                       neighboursOption, roleOption, minrelayOption, lingerOption, notifyOnOption,
                       trickleOption, brokersOption, relayProcessOption});
    parser.process(app);
    g_lingerMs = parser.value(lingerOption).toInt();
    const bool smoke = parser.isSet(smokeOption);
    const qint64 events = smoke ? 5000 : parser.value(eventsOption).toLongLong();
    const int relays = parser.value(relaysOption).toInt();
    const int batch = parser.value(batchOption).toInt();
    const int rate = smoke ? 500 : parser.value(rateOption).toInt();
    const int seconds = smoke ? 3 : parser.value(secondsOption).toInt();
    const qint64 history = smoke ? 1000 : parser.value(historyOption).toLongLong();
    if (events <= 0 || relays <= 0 || batch <= 0 || rate <= 0 || seconds <= 0)
        die(QStringLiteral("numbers must be positive"));

    auto url = DatabaseUrl::parse(parser.value(dbOption).isEmpty() ? qEnvironmentVariable("OUTBOX_DB_URL")
                                                                   : parser.value(dbOption));
    if (!url)
        die(url.message());
    if (url->password.isEmpty()) // a password stays out of the command line
        url->password = qEnvironmentVariable("OUTBOX_DB_PASSWORD");
    if (parser.value(roleOption) == QLatin1String("sampler"))
        return test::runConsoleSamplerUntilTerminated(DatabaseTarget(*url, QString()));
    auto db = open(*url, QStringLiteral("bench"));
    const bool attribution = parser.isSet(attributeOption) && db->kind() == DatabaseKind::PostgreSql;
    const QString minrelay =
        parser.isSet(minrelayOption) ? parser.value(minrelayOption) : qEnvironmentVariable("OUTBOX_MINRELAY");
    const bool withMinrelay = !minrelay.isEmpty() && db->kind() == DatabaseKind::PostgreSql;
    if (!minrelay.isEmpty() && !withMinrelay)
        std::printf("minrelay runs on PostgreSQL only: not run on this database\n");
    if (withMinrelay && !QFileInfo(minrelay).isExecutable())
        die(QStringLiteral(
                "%1 is not an executable (build ../shared/bench/minrelay.c with the command in its header)")
                .arg(minrelay));
    // minrelay's table name is fixed: on the project's table only with the default prefix.
    const bool minrelayOnProject =
        withMinrelay && db->dialect().sql(QStringLiteral("{events}")) == QLatin1String("outbox_events");
    if (auto m = Migrator(*db).migrate(); !m)
        die(m.message());
    const int brokers = std::clamp(parser.value(brokersOption).toInt(), 1, 9);
    const bool relayProcess = parser.isSet(relayProcessOption);
    auto broker = EmbeddedBroker::start(brokers);
    if (!broker)
        die(broker.message());
    if (!(*broker)->createTopic(QStringLiteral("order"), 6, std::min(brokers, 3)))
        die(QStringLiteral("cannot create the topic"));

    std::printf("outbox relay benchmark: %s, %lld events, %d relays, batch %d, linger %d ms, %d cores\n",
                qPrintable(url->redacted()), static_cast<long long>(events), relays, batch, g_lingerMs,
                QThread::idealThreadCount());
    std::printf("embedded broker: %d broker(s), topic order with 6 partitions, replication %d, acks=all; the "
                "relay %s\n",
                brokers, std::min(brokers, 3),
                relayProcess ? "as an outboxctl relay process (wall time from its start)"
                             : "in this process");
    if (db->kind() == DatabaseKind::PostgreSql) {
        // The doorbell rings when a commit's WAL is flushed: with synchronous_commit off (the test
        // fixture's setting) only at the WAL writer's next flush, so the latency figures depend on it.
        auto settings = db->scalar(
            QStringLiteral("SELECT 'fsync=' || current_setting('fsync') || ', synchronous_commit=' || "
                           "current_setting('synchronous_commit') || ', wal_writer_delay=' || "
                           "current_setting('wal_writer_delay')"));
        std::printf("server: %s\n",
                    settings ? qPrintable(settings->toString()) : qPrintable(settings.message()));
    }
    // Database bound and relay alternate (best of `rounds` each), so that other load on the machine
    // hits both alike.
    const int rounds = parser.isSet(latencyOnlyOption) ? 0
                       : smoke                         ? 1
                                                       : std::max(1, parser.value(roundsOption).toInt());
    double dbBound = 0, relayThroughput = 0, reference = 0, heldBound = 0, heldThroughput = 0;
    // PostgreSQL: the same two stages again with held claims (relay.claim_mode = held).
    const bool held = db->dialect().supportsHeldClaims();
    const CpuMeter brokerCpu;
    const double brokerRate = rounds > 0 ? brokerBound((*broker)->bootstrap(), events) : 0;
    const double brokerUs = brokerCpu.usPerEvent(events);
    double refUs = 0, heldBoundUs = 0, heldRelayUs = 0;
    double minimalBest = 0, projectBest = 0;
    Attribution attributed;
    ExternalRun minimal; // this round's minrelay on the minimal table
    // " = x % of minrelay-minimal" after a relay figure, when minrelay runs.
    const auto ofMinimal = [&](double figure) {
        return withMinrelay && minimal.rate > 0 ? QStringLiteral("  = %1 % of minrelay-minimal")
                                                      .arg(100.0 * figure / minimal.rate, 5, 'f', 1)
                                                : QString();
    };
    if (rounds > 0) {
        std::printf(
            "broker bound (raw produce, embedded broker):   %10.0f events/s  (machine CPU %.1f us/event)\n",
            brokerRate, brokerUs);
        createReference(*db);
    }
    for (int round = 1; round <= rounds; ++round) {
        std::printf("round %d  load average %s\n", round, qPrintable(loadAverage()));
        reset(*db);
        preload(*db, events);
        fillReference(*db);
        const CpuMeter refCpu;
        const Throughput refRun = referenceRate(*url, relays, batch);
        const double refRoundUs = refCpu.usPerEvent(events);
        const double ref = refRun.rate;
        std::printf(
            "round %d  reference (minimal table, cheapest claim + mark): %10.0f events/s  (claim %.2f "
            "ms, mark %.2f ms; machine CPU %.1f us/event)\n",
            round, ref, refRun.claimMs, refRun.markMs, refRoundUs);
        std::fflush(stdout);
        if (attribution) // before the database bound drains the outbox table the copies are made of
            attributed = attribute(*db, *url, relays, batch, refRun);
        if (withMinrelay) {
            fillMinrelayTable(*db); // the preloaded events, before the database bound drains them
            minimal =
                runMinrelay(minrelay, *url, MinrelaySchema, (*broker)->bootstrap(), relays, batch, events);
            std::printf("round %d  minrelay, minimal table (external process): %9.0f events/s  = %5.1f %% of "
                        "this round's reference  (machine CPU %.1f us/event)\n",
                        round, minimal.rate, 100.0 * minimal.rate / ref, minimal.cpuUs);
            std::fflush(stdout);
            minimalBest = std::max(minimalBest, minimal.rate);
            (void)db->exec(QStringLiteral("DROP SCHEMA IF EXISTS %1 CASCADE").arg(MinrelaySchema));
        }
        const Throughput boundRun = databaseBound(*url, relays, batch);
        const double bound = boundRun.rate;
        std::printf("round %d  database bound (claim + mark SENT, no broker): %10.0f events/s  = %5.1f %% of "
                    "this round's reference  (claim %.2f ms, mark %.2f ms)\n",
                    round, bound, 100.0 * bound / ref, boundRun.claimMs, boundRun.markMs);
        std::fflush(stdout);
        if (minrelayOnProject) {
            reset(*db);
            preload(*db, events);
            const ExternalRun project =
                runMinrelay(minrelay, *url, QString(), (*broker)->bootstrap(), relays, batch, events);
            std::printf(
                "round %d  minrelay, the project's table:             %10.0f events/s%s  (machine CPU %.1f "
                "us/event)\n",
                round, project.rate, qPrintable(ofMinimal(project.rate)), project.cpuUs);
            std::fflush(stdout);
            projectBest = std::max(projectBest, project.rate);
        }
        reset(*db);
        preload(*db, events);
        const CpuMeter relayCpu;
        const double relayed =
            relayProcess ? relayProcessRate(*db, *url, (*broker)->bootstrap(), relays, batch, events)
                         : relayRate(*url, (*broker)->bootstrap(), relays, batch, events);
        const double relayRoundUs = relayCpu.usPerEvent(events);
        std::printf("round %d  relay (%d %s, to the embedded broker):      %10.0f events/s  = %5.1f %% "
                    "of this round's reference%s  (machine CPU %.1f us/event)\n",
                    round, relays,
                    relayProcess ? "workers of one outboxctl relay process" : "relays in this process",
                    relayed, 100.0 * relayed / ref, qPrintable(ofMinimal(relayed)), relayRoundUs);
        std::fflush(stdout);
        if (held) {
            reset(*db);
            preload(*db, events);
            const CpuMeter heldCpu;
            const Throughput heldRun = databaseBoundHeld(*url, relays, batch);
            const double heldRoundUs = heldCpu.usPerEvent(events);
            std::printf(
                "round %d  database bound, held claims (no broker):     %10.0f events/s  = %5.1f %% of "
                "this round's reference  (claim + journal %.2f ms, mark + commit %.2f ms; machine CPU %.1f "
                "us/event)\n",
                round, heldRun.rate, 100.0 * heldRun.rate / ref, heldRun.claimMs, heldRun.markMs,
                heldRoundUs);
            std::fflush(stdout);
            reset(*db);
            preload(*db, events);
            const CpuMeter heldRelayCpu;
            const double heldRelayed =
                relayRate(*url, (*broker)->bootstrap(), relays, batch, events, ClaimMode::Held);
            const double heldRelayRoundUs = heldRelayCpu.usPerEvent(events);
            std::printf(
                "round %d  relay, held claims (%d relays, embedded broker): %10.0f events/s  = %5.1f %% "
                "of this round's reference%s  (machine CPU %.1f us/event)\n",
                round, relays, heldRelayed, 100.0 * heldRelayed / ref, qPrintable(ofMinimal(heldRelayed)),
                heldRelayRoundUs);
            if (heldRelayed >= heldThroughput) {
                refUs = refRoundUs;
                heldBoundUs = heldRoundUs;
                heldRelayUs = heldRelayRoundUs;
            }
            std::fflush(stdout);
            heldBound = std::max(heldBound, heldRun.rate);
            heldThroughput = std::max(heldThroughput, heldRelayed);
        }
        reference = std::max(reference, ref);
        dbBound = std::max(dbBound, bound);
        relayThroughput = std::max(relayThroughput, relayed);
    }
    if (rounds > 0) {
        (void)db->exec(QStringLiteral("DROP TABLE IF EXISTS %1").arg(ReferenceTable));
        std::printf("best: reference %.0f/s, database bound %.0f/s, relay %.0f/s\n", reference, dbBound,
                    relayThroughput);
        std::printf("relay / reference: %5.1f %%   relay / database bound: %5.1f %%   relay / broker bound: "
                    "%5.1f %%\n",
                    100.0 * relayThroughput / reference, 100.0 * relayThroughput / dbBound,
                    100.0 * relayThroughput / brokerRate);
        if (held)
            std::printf(
                "held claims: database bound %.0f/s, relay %.0f/s; relay / reference: %5.1f %%   relay / "
                "database bound (held): %5.1f %%\n",
                heldBound, heldThroughput, 100.0 * heldThroughput / reference,
                100.0 * heldThroughput / heldBound);
        if (held && heldBoundUs > 0)
            // The relay's events cost the machine the database's work and the producer's and broker's
            // (in this process): with both cores busy, no relay on this machine can beat this ratio.
            std::printf("machine CPU per event (best held round): reference %.1f us, held database work %.1f "
                        "us + producer and broker %.1f us = %.1f us; the held relay used %.1f us. Ceiling of "
                        "relay / reference on this machine while it runs the broker: about %.0f %%\n",
                        refUs, heldBoundUs, brokerUs, heldBoundUs + brokerUs, heldRelayUs,
                        100.0 * refUs / (heldBoundUs + brokerUs));
        if (withMinrelay) {
            // Best of the rounds each, as for the other figures.
            std::printf(
                "minrelay (best): minimal table %.0f/s, the project's table %.0f/s (%.1f %% of minimal); "
                "relay / minrelay-minimal: lease %5.1f %%",
                minimalBest, projectBest, 100.0 * projectBest / minimalBest,
                100.0 * relayThroughput / minimalBest);
            if (held)
                std::printf(", held %5.1f %%", 100.0 * heldThroughput / minimalBest);
            std::printf("\n");
            const Attribution* a = attribution ? &attributed : nullptr;
            if (minrelayOnProject) {
                printGap("lease", relayThroughput, minimalBest, projectBest, a);
                if (held)
                    printGap("held", heldThroughput, minimalBest, projectBest, a);
            }
        }
    }
    std::printf("load average %s\n", qPrintable(loadAverage()));
    const Latency raw = brokerLatency((*broker)->bootstrap(), smoke ? 20 : 300);
    std::printf("produce->ack of single messages (broker alone):  p50 %4lld ms  p99 %4lld ms\n",
                static_cast<long long>(raw.p50), static_cast<long long>(raw.p99));
    std::printf("latency stages: %lld SENT events of history in the outbox, analyzed%s\n",
                static_cast<long long>(history),
                parser.isSet(neighboursOption)
                    ? "; beside the relay: the demo's inventory consumer and the console's sampler"
                    : "");
    std::unique_ptr<Neighbours> neighbours;
    if (parser.isSet(neighboursOption))
        neighbours = std::make_unique<Neighbours>(*url, (*broker)->bootstrap());
    // The default install: the trigger as migrate leaves it (off since migration 19), relay.notify
    // on: the doorbell where the server allows it (the relay says which), else polling.
    resetWithHistory(*db, history);
    const Latency withDefault = latencyAt(*url, (*broker)->bootstrap(), rate, seconds, true, 250);
    printLatency("default wake-up:", rate, withDefault);
    resetWithHistory(*db, history);
    const Latency polling = latencyAt(*url, (*broker)->bootstrap(), rate, seconds, false, 250);
    printLatency("polling (10-250 ms):", rate, polling); // AdaptivePoll: poll_min_ms doubling to poll_ms
    if (held) {
        resetWithHistory(*db, history);
        const Latency heldDefault =
            latencyAt(*url, (*broker)->bootstrap(), rate, seconds, true, 250, ClaimMode::Held);
        printLatency("held, default:", rate, heldDefault);
        if (heldDefault.samples == 0)
            die(QStringLiteral("no latency samples with held claims"));
    }
    if (parser.isSet(notifyOnOption) && db->dialect().supportsNotifications()) {
        NotifyTrigger trigger(*db);
        if (auto on = trigger.setEnabled(true, QStringLiteral("relay benchmark: --notify-on"),
                                         QStringLiteral("outbox-relay-bench"));
            !on)
            die(on.message());
        resetWithHistory(*db, history);
        const Latency listening = latencyAt(*url, (*broker)->bootstrap(), rate, seconds, true, 250);
        printLatency("NOTIFY on (opt-in):", rate, listening);
        if (auto off = trigger.setEnabled(false, QStringLiteral("relay benchmark: --notify-on done"),
                                          QStringLiteral("outbox-relay-bench"));
            !off)
            die(off.message());
        if (listening.samples == 0)
            die(QStringLiteral("no latency samples with the trigger on"));
    }
    if (parser.isSet(trickleOption)) {
        const int idle = smoke ? 2 : 60;
        const int count = smoke ? 3 : 60;
        for (const bool notify : {true, false}) {
            resetWithHistory(*db, history);
            const Latency t = trickleLatency(*url, (*broker)->bootstrap(), notify, 250, idle, count, 2000);
            std::printf(
                "trickle after %d s idle, %d events 2 s apart, %-18s commit->ack p50 %4lld ms  p99 %4lld "
                "ms  (%lld samples; commit->claim p99 %lld ms)\n",
                idle, count, notify ? "default wake-up:" : "polling (10-250):", static_cast<long long>(t.p50),
                static_cast<long long>(t.p99), static_cast<long long>(t.samples),
                static_cast<long long>(t.claimP99));
            std::fflush(stdout);
            if (t.samples == 0)
                die(QStringLiteral("no trickle samples"));
        }
    }
    neighbours.reset();
    reset(*db);
    std::printf("load average %s\n", qPrintable(loadAverage()));
    if (withDefault.samples == 0 || polling.samples == 0)
        die(QStringLiteral("no latency samples"));
    return 0;
}
