// Fleet benchmark (not a unit test; CI runs --smoke): how long one tick of the fleet sampler takes
// over many members, how many connections it holds at once, what `outboxctl serve --fleet` costs in
// memory, and how much members that accept TCP and never answer delay the healthy ones.
//
// The fleet: --sqlite N SQLite files and --pg N PostgreSQL databases in one server (the server of
// --db), --events events each (every tenth member sick: a backlog with no relay and FAILED events),
// plus --black-holes ports that accept TCP and never answer. The same machine's limit is measured
// in the same run: one member sampled alone (open, schema check, counts, doctor, close), and from
// it the best a tick could do with every core busy (the sum of the members' lone samples divided by
// the cores, or by max_connections when that is smaller).
//
//   outbox-fleet-bench --db postgresql://outbox@127.0.0.1:25432/postgres [--sqlite 150] [--pg 50]
//                      [--events 10000] [--black-holes 5] [--max-connections 16] [--timeout-ms 3000]
//                      [--ticks 6] [--smoke]
#include "core/db/Database.h"
#include "core/db/Migrator.h"
#include "core/diagnosis/Doctor.h"
#include "core/fleet/FleetSampler.h"
#include "core/metrics/MetricsQuery.h"
#include "tests/support/ServeProcess.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QThread>
#include <QTimer>
#include <algorithm>
#include <arpa/inet.h>
#include <cstdio>
#include <ctime>
#include <memory>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

using namespace outbox;

namespace {

void die(const QString& why)
{
    std::fprintf(stderr, "outbox-fleet-bench: %s\n", qPrintable(why));
    std::exit(1);
}

QString loadAverage()
{
    QFile f(QStringLiteral("/proc/loadavg"));
    if (!f.open(QIODevice::ReadOnly))
        return QStringLiteral("unknown");
    return QString::fromLatin1(f.readLine()).section(QLatin1Char(' '), 0, 2);
}

std::unique_ptr<Database> open(const DatabaseUrl& url)
{
    Database::Options o;
    o.purpose = QStringLiteral("bench");
    auto db = Database::open(url, o);
    if (!db)
        die(db.message());
    return std::move(db).value();
}

void run(Database& db, const QString& statement, const QVariantMap& binds = {})
{
    if (auto q = db.exec(statement, binds); !q)
        die(statement.left(80) + QStringLiteral(": ") + q.message());
}

// Migrates a member and fills it: `events` rows, SENT unless the member is sick (then 50 PENDING,
// 5 FAILED and the rest SENT).
void fill(const DatabaseUrl& url, int events, bool sick)
{
    auto db = open(url);
    if (auto m = Migrator(*db).migrate(); !m)
        die(m.message());
    const QString rows = db->kind() == DatabaseKind::PostgreSql
                             ? QStringLiteral("SELECT n FROM generate_series(1, :n) n")
                             : QStringLiteral("SELECT n FROM g");
    const QString with =
        db->kind() == DatabaseKind::PostgreSql
            ? QString()
            : QStringLiteral("WITH RECURSIVE g(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM g "
                             "WHERE n < :n) ");
    run(*db,
        with + QStringLiteral(
                   "INSERT INTO {events} (event_id, event_type, aggregate_type, aggregate_id, payload, "
                   "status, attempts, sent_at) SELECT 'e-' || n, 'OrderCreated', 'order', 'o-' || (n % 100), "
                   "'{\"n\": 1}', CASE WHEN n <= :failed THEN 'FAILED' WHEN n <= :pending "
                   "THEN 'PENDING' ELSE 'SENT' END, CASE WHEN n <= :pending THEN 0 ELSE 1 END, "
                   "CASE WHEN n > :pending THEN %2 END FROM (%1) r")
                   .arg(rows, db->dialect().now()),
        {{QStringLiteral(":n"), events},
         {QStringLiteral(":failed"), sick ? 5 : 0},
         {QStringLiteral(":pending"), sick ? 55 : 0}});
}

// A port that accepts TCP (the kernel completes the handshake into the backlog) and never answers.
int blackHole(quint16* port)
{
    const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (fd < 0 || ::bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0 || ::listen(fd, 128) != 0)
        die(QStringLiteral("cannot open a black hole"));
    socklen_t size = sizeof a;
    ::getsockname(fd, reinterpret_cast<sockaddr*>(&a), &size);
    *port = ntohs(a.sin_port);
    return fd;
}

// The machine's CPU counters (/proc/stat, all cores): busy and total jiffies.
struct CpuTimes
{
    qint64 busy = 0;
    qint64 total = 0;
};

CpuTimes cpuTimes()
{
    QFile f(QStringLiteral("/proc/stat"));
    CpuTimes t;
    if (!f.open(QIODevice::ReadOnly))
        return t;
    const QList<QByteArray> fields = f.readLine().simplified().split(' ');
    for (int i = 1; i < fields.size(); ++i) {
        const qint64 v = fields.at(i).toLongLong();
        t.total += v;
        if (i != 4 && i != 5) // idle, iowait
            t.busy += v;
    }
    return t;
}

// This process's CPU time (all threads), microseconds.
qint64 processCpuUs()
{
    timespec ts{};
    ::clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return qint64(ts.tv_sec) * 1000000 + ts.tv_nsec / 1000;
}

// The CPU time (ms) of a local PostgreSQL server's finished backends: the postmaster's children's
// user + system time (/proc/PID/stat cutime, cstime), -1 when the server is not on this machine.
qint64 g_postmaster = 0;

// A process's own user + system CPU time so far (ms), 0 when it cannot be read.
qint64 processCpuMs(qint64 pid)
{
    QFile f(QStringLiteral("/proc/%1/stat").arg(pid));
    if (pid <= 0 || !f.open(QIODevice::ReadOnly))
        return 0;
    const QByteArray text = f.readAll();
    const QList<QByteArray> fields = text.mid(text.lastIndexOf(')') + 2).split(' ');
    const long hz = ::sysconf(_SC_CLK_TCK);
    return fields.size() < 15
               ? 0
               : (fields.at(11).toLongLong() + fields.at(12).toLongLong()) * 1000 / (hz > 0 ? hz : 100);
}

qint64 serverChildrenCpuMs()
{
    if (g_postmaster <= 0)
        return -1;
    QFile f(QStringLiteral("/proc/%1/stat").arg(g_postmaster));
    if (!f.open(QIODevice::ReadOnly))
        return -1;
    const QByteArray text = f.readAll();
    // Fields after the command's closing parenthesis: state is field 3, cutime 16, cstime 17.
    const QList<QByteArray> fields = text.mid(text.lastIndexOf(')') + 2).split(' ');
    if (fields.size() < 15)
        return -1;
    const long hz = ::sysconf(_SC_CLK_TCK);
    return (fields.at(13).toLongLong() + fields.at(14).toLongLong()) * 1000 / (hz > 0 ? hz : 100);
}

struct TickFigures
{
    qint64 tickMs = 0;        // tick() to tickFinished
    qint64 healthyDoneMs = 0; // tick() to the last reachable member's sample
    int unreachable = 0;
    int sick = 0;    // critical or warning
    int doctors = 0; // members whose doctor ran in this tick (the slower cadence)
    qint64 sumSampleMs = 0;
    double machineBusy = 0;  // share of all cores busy during the tick (every process), 0..1
    double processCores = 0; // this process's CPU time during the tick, in cores
    qint64 processCpuMs = 0;
    qint64 serverCpuMs = -1; // the PostgreSQL backends that ended during the tick (-1: unknown)
};

TickFigures tickOnce(FleetSampler& sampler)
{
    TickFigures f;
    QEventLoop loop;
    QVector<MemberSample> samples;
    auto c =
        QObject::connect(&sampler, &FleetSampler::tickFinished, &loop, [&](const QVector<MemberSample>& s) {
            samples = s;
            loop.quit();
        });
    QTimer::singleShot(120000, &loop, &QEventLoop::quit);
    const QDateTime startedAt = QDateTime::currentDateTimeUtc();
    const CpuTimes cpuBefore = cpuTimes();
    const qint64 processBefore = processCpuUs();
    const qint64 serverBefore = serverChildrenCpuMs();
    QElapsedTimer clock;
    clock.start();
    if (!sampler.tick())
        die(QStringLiteral("a tick is still running"));
    loop.exec();
    QObject::disconnect(c);
    f.tickMs = clock.elapsed();
    const CpuTimes cpuAfter = cpuTimes();
    if (cpuAfter.total > cpuBefore.total)
        f.machineBusy = double(cpuAfter.busy - cpuBefore.busy) / double(cpuAfter.total - cpuBefore.total);
    f.processCpuMs = (processCpuUs() - processBefore) / 1000;
    if (f.tickMs > 0)
        f.processCores = double(f.processCpuMs) / double(f.tickMs);
    if (const qint64 serverAfter = serverChildrenCpuMs(); serverBefore >= 0 && serverAfter >= 0)
        f.serverCpuMs = serverAfter - serverBefore;
    if (samples.isEmpty())
        die(QStringLiteral("the tick did not finish within 120 s"));
    for (const MemberSample& s : samples) {
        if (!s.reachable()) {
            ++f.unreachable;
            continue;
        }
        f.healthyDoneMs = std::max(f.healthyDoneMs, startedAt.msecsTo(s.sampledAt));
        f.sumSampleMs += s.elapsedMs;
        if (s.findingsAt.isValid() && s.findingsAt >= startedAt && !s.stale)
            ++f.doctors;
        if (s.state == MemberSample::State::Critical || s.state == MemberSample::State::Warning)
            ++f.sick;
    }
    return f;
}

void pause(int ms)
{
    QEventLoop loop;
    QTimer::singleShot(ms, &loop, &QEventLoop::quit);
    loop.exec();
}

qint64 median(QVector<qint64> v)
{
    if (v.isEmpty())
        return 0;
    std::sort(v.begin(), v.end());
    return v.at(v.size() / 2);
}

Fleet loadFleet(const QString& path)
{
    auto fleet = Fleet::load(path);
    if (!fleet)
        die(fleet.message());
    return std::move(fleet).value();
}

} // namespace

int main(int argc, char** argv)
{
    QCoreApplication app(argc, argv);
    QCommandLineParser parser;
    parser.addHelpOption();
    const QCommandLineOption dbOption(
        QStringLiteral("db"), QStringLiteral("PostgreSQL server (any database)."), QStringLiteral("url"));
    const QCommandLineOption sqliteOption(QStringLiteral("sqlite"), QStringLiteral("SQLite members."),
                                          QStringLiteral("n"), QStringLiteral("150"));
    const QCommandLineOption pgOption(QStringLiteral("pg"), QStringLiteral("PostgreSQL members."),
                                      QStringLiteral("n"), QStringLiteral("50"));
    const QCommandLineOption eventsOption(QStringLiteral("events"), QStringLiteral("Events per member."),
                                          QStringLiteral("n"), QStringLiteral("10000"));
    const QCommandLineOption holesOption(QStringLiteral("black-holes"),
                                         QStringLiteral("Members that accept TCP and never answer."),
                                         QStringLiteral("n"), QStringLiteral("5"));
    const QCommandLineOption connectionsOption(QStringLiteral("max-connections"),
                                               QStringLiteral("[fleet] max_connections."),
                                               QStringLiteral("n"), QStringLiteral("16"));
    const QCommandLineOption timeoutOption(QStringLiteral("timeout-ms"), QStringLiteral("[fleet] timeout."),
                                           QStringLiteral("ms"), QStringLiteral("3000"));
    const QCommandLineOption ticksOption(
        QStringLiteral("ticks"),
        QStringLiteral("Ticks measured per fleet after the first (every interval, 5 s; the doctor runs "
                       "every 30 s per member, spread over the ticks)."),
        QStringLiteral("n"), QStringLiteral("6"));
    const QCommandLineOption smokeOption(QStringLiteral("smoke"),
                                         QStringLiteral("A few members and events (CI): the code runs, "
                                                        "the figures mean little."));
    parser.addOptions({dbOption, sqliteOption, pgOption, eventsOption, holesOption, connectionsOption,
                       timeoutOption, ticksOption, smokeOption});
    parser.process(app);
    const bool smoke = parser.isSet(smokeOption);
    const int sqliteMembers = smoke ? 6 : parser.value(sqliteOption).toInt();
    const int pgMembers = smoke ? 3 : parser.value(pgOption).toInt();
    const int events = smoke ? 500 : parser.value(eventsOption).toInt();
    const int holes = smoke ? 2 : parser.value(holesOption).toInt();
    const int maxConnections = smoke ? 4 : parser.value(connectionsOption).toInt();
    const int timeoutMs = smoke ? 2000 : parser.value(timeoutOption).toInt();
    const int ticks = smoke ? 1 : std::max(1, parser.value(ticksOption).toInt());
    if (sqliteMembers < 0 || pgMembers < 0 || events < 0 || holes < 0 || maxConnections <= 0 ||
        timeoutMs < 1000 || sqliteMembers + pgMembers == 0)
        die(QStringLiteral("numbers out of range"));
    auto server = DatabaseUrl::parse(parser.value(dbOption));
    if (pgMembers > 0 && (!server || server->kind != DatabaseKind::PostgreSql))
        die(QStringLiteral("--db must name a PostgreSQL server for the PostgreSQL members"));

    QTemporaryDir dir;
    std::printf("outbox fleet benchmark: %d SQLite + %d PostgreSQL members, %d events each, %d black "
                "hole(s), max_connections %d, timeout %d ms, %d cores, load average %s\n",
                sqliteMembers, pgMembers, events, holes, maxConnections, timeoutMs,
                QThread::idealThreadCount(), qPrintable(loadAverage()));
    std::fflush(stdout);

    // The members.
    QElapsedTimer setup;
    setup.start();
    struct Member
    {
        QString name;
        DatabaseUrl url;
    };
    QVector<Member> members;
    std::unique_ptr<Database> admin = pgMembers > 0 ? open(*server) : nullptr;
    if (admin) {
        // The server's postmaster, when it runs here: the parent of this session's backend.
        auto backend = admin->scalar(QStringLiteral("SELECT pg_backend_pid()"));
        QFile stat(QStringLiteral("/proc/%1/stat").arg(backend ? backend->toLongLong() : 0));
        if (backend && stat.open(QIODevice::ReadOnly)) {
            const QByteArray text = stat.readAll();
            g_postmaster = text.mid(text.lastIndexOf(')') + 2).split(' ').value(1).toLongLong();
        }
    }
    for (int i = 0; i < sqliteMembers + pgMembers; ++i) {
        const bool sqlite = i < sqliteMembers;
        Member m;
        m.name = QStringLiteral("%1-%2").arg(sqlite ? QStringLiteral("edge") : QStringLiteral("svc")).arg(i);
        if (sqlite) {
            m.url = DatabaseUrl::parse(
                        QStringLiteral("sqlite://%1").arg(dir.filePath(m.name + QStringLiteral(".db"))))
                        .value();
        } else {
            const QString name = QStringLiteral("fleetbench_%1").arg(i);
            run(*admin, QStringLiteral("DROP DATABASE IF EXISTS %1").arg(name));
            run(*admin, QStringLiteral("CREATE DATABASE %1").arg(name));
            m.url = *server;
            m.url.database = name;
        }
        fill(m.url, events, i % 10 == 3);
        members << m;
    }
    std::printf("setup: %d members in %.1f s\n", int(members.size()), setup.elapsed() / 1000.0);

    QVector<int> holeFds;
    QVector<quint16> holePorts;
    for (int i = 0; i < holes; ++i) {
        quint16 port = 0;
        holeFds << blackHole(&port);
        holePorts << port;
    }
    const auto writeFleet = [&](const QString& path, bool withHoles, int onlyMember = -1) {
        QFile f(path);
        if (!f.open(QIODevice::WriteOnly))
            die(QStringLiteral("cannot write %1").arg(path));
        QByteArray text = "[fleet]\nmax_connections = " + QByteArray::number(maxConnections) +
                          "\ntimeout = " + QByteArray::number(timeoutMs) +
                          "ms\ninterval = 5s\ndoctor_interval = 30s\n";
        for (int i = 0; i < members.size(); ++i) {
            if (onlyMember >= 0 && i != onlyMember)
                continue;
            DatabaseUrl url = members.at(i).url;
            url.password.clear();
            text += "[member " + members.at(i).name.toUtf8() + "]\nurl = " + url.redacted().toUtf8() +
                    "\ntags = team=t" + QByteArray::number(i % 7) + ", env=prod\n";
        }
        if (withHoles)
            for (int i = 0; i < holePorts.size(); ++i)
                text += "[member hole-" + QByteArray::number(i) +
                        "]\nurl = postgresql://outbox@127.0.0.1:" + QByteArray::number(holePorts.at(i)) +
                        "/nothing\n";
        f.write(text);
    };

    // The machine's limit: each kind of member sampled alone: with the doctor (a fresh sampler's first
    // tick, median of three) and the counts only (its next four ticks, median).
    struct Alone
    {
        qint64 withDoctorMs = 0;
        qint64 countsMs = 0;
    };
    auto alone = [&](int index) {
        const QString path = dir.filePath(QStringLiteral("alone.ini"));
        writeFleet(path, false, index);
        QVector<qint64> first, counts;
        for (int round = 0; round < 3; ++round) {
            FleetSampler sampler(loadFleet(path), {});
            first << tickOnce(sampler).sumSampleMs;
            if (round == 0)
                for (int i = 0; i < 4; ++i)
                    counts << tickOnce(sampler).sumSampleMs;
        }
        return Alone{median(first), median(counts)};
    };
    // Where a lone sample's time goes: connect, schema check, counts, doctor (medians of five).
    // Where a lone sample's time goes: connect, schema check, counts, doctor (medians of five), then
    // the same three again on the open connection (what a kept connection would cost); for a local
    // PostgreSQL server also the backend's CPU time.
    auto stages = [&](int index, const char* label) {
        QVector<qint64> connect, schema, counts, doctor, again, backendCold, backendWarm, bConnect, bSchema,
            bCounts;
        for (int i = 0; i < 5; ++i) {
            QElapsedTimer t;
            t.start();
            auto db = open(members.at(index).url);
            connect << t.nsecsElapsed() / 1000;
            qint64 backend = 0;
            if (db->kind() == DatabaseKind::PostgreSql)
                if (auto pid = db->scalar(QStringLiteral("SELECT pg_backend_pid()")))
                    backend = pid->toLongLong();
            bConnect << processCpuMs(backend);
            t.restart();
            (void)Migrator(*db).currentVersion();
            schema << t.nsecsElapsed() / 1000;
            bSchema << processCpuMs(backend);
            t.restart();
            (void)MetricsQuery(*db).sample();
            counts << t.nsecsElapsed() / 1000;
            bCounts << processCpuMs(backend);
            t.restart();
            (void)Doctor(*db, {}).run();
            doctor << t.nsecsElapsed() / 1000;
            const qint64 cold = processCpuMs(backend);
            t.restart();
            (void)Migrator(*db).currentVersion();
            (void)MetricsQuery(*db).sample();
            (void)Doctor(*db, {}).run();
            again << t.nsecsElapsed() / 1000;
            if (backend > 0) {
                backendCold << cold;
                backendWarm << processCpuMs(backend) - cold;
            }
        }
        std::printf(
            "lone sample of %s member: connect %.1f ms, schema check %.1f ms, counts %.1f ms, doctor %.1f "
            "ms; the three again on the same connection %.1f ms\n",
            label, median(connect) / 1000.0, median(schema) / 1000.0, median(counts) / 1000.0,
            median(doctor) / 1000.0, median(again) / 1000.0);
        if (!backendCold.isEmpty())
            std::printf("  its PostgreSQL backend's CPU: %lld ms from the fork to the doctor's end "
                        "(connected %lld, schema checked %lld, counted %lld), %lld ms "
                        "for the three again\n",
                        static_cast<long long>(median(backendCold)), static_cast<long long>(median(bConnect)),
                        static_cast<long long>(median(bSchema)), static_cast<long long>(median(bCounts)),
                        static_cast<long long>(median(backendWarm)));
    };
    if (sqliteMembers > 0)
        stages(0, "a SQLite");
    if (pgMembers > 0)
        stages(sqliteMembers, "a PostgreSQL");
    const Alone sqliteAlone = sqliteMembers > 0 ? alone(0) : Alone{};
    const Alone pgAlone = pgMembers > 0 ? alone(sqliteMembers) : Alone{};
    // A steady tick: every member's counts, and the doctor of interval/doctor_interval of them.
    const double doctorShare = 5.0 / 30.0;
    const auto steady = [&](const Alone& a) {
        return double(a.countsMs) * (1 - doctorShare) + double(a.withDoctorMs) * doctorShare;
    };
    const double sumAloneMs = steady(sqliteAlone) * sqliteMembers + steady(pgAlone) * pgMembers;
    const int parallel = std::min(maxConnections, QThread::idealThreadCount());
    const double bestTickMs = sumAloneMs / parallel;
    std::printf("limit: one member sampled alone: SQLite %lld ms with the doctor, %lld ms counts only; "
                "PostgreSQL %lld ms with the doctor, %lld ms counts only; a steady tick's members one after "
                "another %.0f ms; best steady tick on %d core(s) %.0f ms\n",
                static_cast<long long>(sqliteAlone.withDoctorMs),
                static_cast<long long>(sqliteAlone.countsMs), static_cast<long long>(pgAlone.withDoctorMs),
                static_cast<long long>(pgAlone.countsMs), sumAloneMs, parallel, bestTickMs);
    std::fflush(stdout);

    // The fleet without and with the black holes.
    auto measure = [&](bool withHoles, int* peak) {
        const QString path =
            dir.filePath(withHoles ? QStringLiteral("holes.ini") : QStringLiteral("fleet.ini"));
        writeFleet(path, withHoles);
        FleetSampler sampler(loadFleet(path), {});
        QVector<qint64> tickMs, healthyMs;
        // The first tick runs every member's doctor (no report yet); the steady ticks follow every
        // interval (5 s) as `serve --fleet` ticks, each running the doctors that are due.
        TickFigures last = tickOnce(sampler);
        std::printf("  first tick (every member's doctor): %lld ms, %d doctor run(s)\n",
                    static_cast<long long>(last.tickMs), last.doctors);
        for (int i = 0; i < ticks; ++i) {
            pause(int(std::max<qint64>(0, 5000 - last.tickMs)));
            last = tickOnce(sampler);
            std::printf(
                "  tick %d: %lld ms, %d doctor run(s), samples in flight on average %.1f, machine busy "
                "%.0f %% of %d cores; CPU: this process %lld ms (%.2f cores), PostgreSQL backends %s\n",
                i + 1, static_cast<long long>(last.tickMs), last.doctors,
                last.tickMs > 0 ? double(last.sumSampleMs) / double(last.tickMs) : 0.0,
                last.machineBusy * 100.0, QThread::idealThreadCount(),
                static_cast<long long>(last.processCpuMs), last.processCores,
                last.serverCpuMs < 0 ? "unknown" : qPrintable(QStringLiteral("%1 ms").arg(last.serverCpuMs)));
            tickMs << last.tickMs;
            healthyMs << last.healthyDoneMs;
        }
        *peak = sampler.peakConnections();
        std::printf("%-22s tick median %6lld ms (min %lld, max %lld), healthy members done after %6lld ms, "
                    "%d unreachable, %d sick, peak connections %d (max_connections %d)\n",
                    withHoles ? "fleet + black holes:" : "fleet:", static_cast<long long>(median(tickMs)),
                    static_cast<long long>(*std::min_element(tickMs.begin(), tickMs.end())),
                    static_cast<long long>(*std::max_element(tickMs.begin(), tickMs.end())),
                    static_cast<long long>(median(healthyMs)), last.unreachable, last.sick, *peak,
                    maxConnections);
        std::fflush(stdout);
        if (last.unreachable != (withHoles ? holes : 0))
            die(QStringLiteral("expected %1 unreachable member(s), saw %2")
                    .arg(withHoles ? holes : 0)
                    .arg(last.unreachable));
        if (*peak > maxConnections)
            die(QStringLiteral("more connections than max_connections"));
        return std::pair<qint64, qint64>{median(tickMs), median(healthyMs)};
    };
    int peakPlain = 0, peakHoles = 0;
    const auto plain = measure(false, &peakPlain);
    const auto withHoles = measure(true, &peakHoles);
    std::printf("delay of the healthy members caused by %d black hole(s): %lld ms (timeout %d ms)\n", holes,
                static_cast<long long>(withHoles.second - plain.second), timeoutMs);

    // `outboxctl serve --fleet` over the whole fleet: its memory after a few ticks.
    test::ServeProcess serve;
    if (!serve.start({}, {QStringLiteral("--fleet"), dir.filePath(QStringLiteral("holes.ini")),
                          QStringLiteral("--member"), members.first().name}))
        die(QStringLiteral("serve did not start: %1").arg(QString::fromUtf8(serve.output)));
    const int serveSeconds = smoke ? 6 : 16; // three ticks of 5 s
    pause(serveSeconds * 1000);
    const qint64 hwm = test::procStatusKb(serve.pid(), "VmHWM");
    const qint64 rss = test::procStatusKb(serve.pid(), "VmRSS");
    test::terminateAndWait(*serve.process);
    std::printf("serve --fleet over %d members after %d s: VmHWM %.1f MB, VmRSS %.1f MB (target <= 150 MB)\n",
                int(members.size()) + holes, serveSeconds, hwm / 1024.0, rss / 1024.0);
    std::printf(
        "summary: tick %lld ms (target <= 2000; best on this machine %.0f), with the black holes "
        "%lld ms (they are given up at the timeout, %d ms), peak connections %d (<= %d), serve %.0f MB "
        "(<= 150), black-hole delay of the healthy members %lld ms (<= %d)\n",
        static_cast<long long>(plain.first), bestTickMs, static_cast<long long>(withHoles.first), timeoutMs,
        std::max(peakPlain, peakHoles), maxConnections, hwm / 1024.0,
        static_cast<long long>(withHoles.second - plain.second), timeoutMs);

    for (int fd : holeFds)
        ::close(fd);
    if (admin)
        for (int i = sqliteMembers; i < sqliteMembers + pgMembers; ++i)
            (void)admin->exec(QStringLiteral("DROP DATABASE IF EXISTS fleetbench_%1").arg(i));
    return 0;
}
