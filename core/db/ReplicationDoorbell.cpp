#include "core/db/ReplicationDoorbell.h"

#include "core/db/Database.h"

#include <QAtomicInteger>
#include <QCoreApplication>
#include <QDateTime>
#include <QSocketNotifier>
#include <QThread>
#include <algorithm>
#include <libpq-fe.h>
#include <vector>

namespace outbox {

namespace {

QString errorOf(PGconn* conn)
{
    return QString::fromUtf8(PQerrorMessage(conn)).simplified();
}

quint64 bigEndian64(const char* p)
{
    quint64 v = 0;
    for (int i = 0; i < 8; ++i)
        v = (v << 8) | quint8(p[i]);
    return v;
}

void putBigEndian64(char* p, quint64 v)
{
    for (int i = 7; i >= 0; --i) {
        p[i] = char(v & 0xff);
        v >>= 8;
    }
}

// One simple-protocol statement (a WAL sender speaks no other) answering one value, or the
// server's words.
Result<QString> single(PGconn* conn, const QByteArray& statement)
{
    PGresult* r = PQexec(conn, statement.constData());
    const bool ok = PQresultStatus(r) == PGRES_TUPLES_OK && PQntuples(r) == 1;
    const QString value = ok ? QString::fromUtf8(PQgetvalue(r, 0, 0)) : QString();
    const QString error = QString::fromUtf8(PQresultErrorMessage(r)).simplified();
    PQclear(r);
    if (!ok)
        return Error::runtime(error.isEmpty() ? errorOf(conn) : error);
    return value;
}

QByteArray literal(PGconn* conn, const QString& text)
{
    const QByteArray utf8 = text.toUtf8();
    char* quoted = PQescapeLiteral(conn, utf8.constData(), size_t(utf8.size()));
    QByteArray result(quoted ? quoted : "''");
    PQfreemem(quoted);
    return result;
}

QByteArray identifier(PGconn* conn, const QString& text)
{
    const QByteArray utf8 = text.toUtf8();
    char* quoted = PQescapeIdentifier(conn, utf8.constData(), size_t(utf8.size()));
    QByteArray result(quoted ? quoted : "\"\"");
    PQfreemem(quoted);
    return result;
}

} // namespace

Result<int> ReplicationDoorbell::ringingOn(Database& db)
{
    auto n =
        db.scalar(QStringLiteral("SELECT count(*) FROM pg_replication_slots WHERE slot_name LIKE "
                                 "'outbox\\_doorbell\\_%' AND database = current_database() AND active"));
    if (!n)
        return n.error();
    return n->toInt();
}

QString ReplicationDoorbell::publication(const Dialect& dialect)
{
    return dialect.table(QStringLiteral("outbox_events_doorbell"));
}

Result<std::unique_ptr<ReplicationDoorbell>>
ReplicationDoorbell::open(const DatabaseUrl& url, const QString& publication, const QString& table,
                          const QString& applicationName, int connectTimeoutSeconds)
{
    // Keywords and values apart (never one connection string built from them): the password
    // stays out of every text this class logs or returns.
    std::vector<QByteArray> keys{
        "host", "port", "dbname", "user", "replication", "application_name", "connect_timeout"};
    std::vector<QByteArray> values{url.host.toUtf8(),
                                   QByteArray::number(url.port > 0 ? url.port : 5432),
                                   url.database.toUtf8(),
                                   url.user.toUtf8(),
                                   "database",
                                   applicationName.toUtf8(),
                                   QByteArray::number(connectTimeoutSeconds)};
    if (!url.password.isEmpty()) {
        keys.emplace_back("password");
        values.push_back(url.password.toUtf8());
    }
    for (const QString& option : url.connectOptions.split(QLatin1Char(';'), Qt::SkipEmptyParts)) {
        const int eq = option.indexOf(QLatin1Char('='));
        if (eq <= 0)
            continue;
        const QByteArray key = option.left(eq).toUtf8();
        if (key == "replication" || key == "application_name")
            continue;
        keys.push_back(key);
        values.push_back(option.mid(eq + 1).toUtf8());
    }
    std::vector<const char*> k, v;
    for (size_t i = 0; i < keys.size(); ++i) {
        k.push_back(keys[i].constData());
        v.push_back(values[i].constData());
    }
    k.push_back(nullptr);
    v.push_back(nullptr);

    std::unique_ptr<ReplicationDoorbell> bell(new ReplicationDoorbell);
    bell->m_conn = PQconnectdbParams(k.data(), v.data(), 0);
    if (PQstatus(bell->m_conn) != CONNECTION_OK) {
        const QString why = errorOf(bell->m_conn);
        if (why.contains(QLatin1String("replication role")) || why.contains(QLatin1String("WAL sender")))
            return Error::runtime(
                QStringLiteral("the role %1 lacks the REPLICATION attribute (%2)").arg(url.user, why));
        return Error::runtime(QStringLiteral("no replication connection: %1").arg(why));
    }
    bell->m_backendPid = PQbackendPID(bell->m_conn);
    auto walLevel = single(bell->m_conn, "SELECT current_setting('wal_level')");
    if (!walLevel)
        return walLevel.error();
    if (*walLevel != QLatin1String("logical"))
        return Error::runtime(
            QStringLiteral("wal_level is %1 on the server (logical is needed; a restart changes it)")
                .arg(*walLevel));
    // The table may have been dropped and created again since the publication was made: it must
    // still be in it.
    const QByteArray publicationQuery =
        "SELECT count(*) FROM pg_publication_tables WHERE pubname = " + literal(bell->m_conn, publication) +
        " AND tablename = " + literal(bell->m_conn, table);
    auto published = single(bell->m_conn, publicationQuery);
    if (!published)
        return published.error();
    if (published->toInt() == 0)
        return Error::runtime(
            QStringLiteral("the publication %1 of %2 is missing (outboxctl migrate as the schema "
                           "owner creates it)")
                .arg(publication, table));

    static QAtomicInteger<int> counter;
    bell->m_slot = QStringLiteral("outbox_doorbell_%1_%2_%3")
                       .arg(QCoreApplication::applicationPid())
                       .arg(bell->m_backendPid)
                       .arg(counter.fetchAndAddRelaxed(1));
    const QByteArray slot = identifier(bell->m_conn, bell->m_slot);
    // publication_names is a list of identifiers inside a string literal.
    const QByteArray names = literal(bell->m_conn, QString::fromUtf8(identifier(bell->m_conn, publication)));
    bell->m_startStatement = "START_REPLICATION SLOT " + slot + " LOGICAL 0/0 (proto_version '1', " +
                             "publication_names " + names + ")";
    // From here on nothing waits: the slot may take as long as the server's oldest transaction.
    if (PQsetnonblocking(bell->m_conn, 1) != 0)
        return Error::runtime(errorOf(bell->m_conn));
    bell->m_opening.start();
    if (!bell->sendQuery("CREATE_REPLICATION_SLOT " + slot + " TEMPORARY LOGICAL pgoutput NOEXPORT_SNAPSHOT"))
        return Error::runtime(QStringLiteral("no temporary replication slot: %1").arg(errorOf(bell->m_conn)));

    ReplicationDoorbell* raw = bell.get();
    bell->m_notifier = std::make_unique<QSocketNotifier>(PQsocket(bell->m_conn), QSocketNotifier::Read);
    QObject::connect(bell->m_notifier.get(), &QSocketNotifier::activated, raw,
                     [raw] { raw->readAvailable(); });
    QObject::connect(&bell->m_feedback, &QTimer::timeout, raw, [raw] { (void)raw->sendFeedback(false); });
    // An answer that arrived with the request's flush waits in libpq's buffer, unseen by the notifier.
    QTimer::singleShot(0, raw, [raw] { raw->readAvailable(); });
    return bell;
}

bool ReplicationDoorbell::sendQuery(const QByteArray& statement)
{
    if (PQsendQuery(m_conn, statement.constData()) != 1)
        return false;
    // Non-blocking: a short statement normally goes at once; else flush until it has.
    for (int rc = PQflush(m_conn); rc != 0; rc = PQflush(m_conn)) {
        if (rc < 0)
            return false;
        QThread::msleep(1);
    }
    return true;
}

void ReplicationDoorbell::advanceOpening()
{
    // The answers to CREATE_REPLICATION_SLOT, then to START_REPLICATION, as they complete.
    while (m_conn && m_stage != Stage::Streaming && !PQisBusy(m_conn)) {
        PGresult* r = PQgetResult(m_conn);
        if (!r) {
            if (m_stage == Stage::Creating) {
                // The slot exists (its one result was read): start streaming from it.
                m_stage = Stage::Starting;
                if (!sendQuery(m_startStatement)) {
                    fail(QStringLiteral("the replication stream did not start: %1").arg(errorOf(m_conn)));
                    return;
                }
                continue;
            }
            fail(QStringLiteral("the replication stream did not start: %1").arg(errorOf(m_conn)));
            return;
        }
        const ExecStatusType status = PQresultStatus(r);
        const QString error = QString::fromUtf8(PQresultErrorMessage(r)).simplified();
        PQclear(r);
        if (m_stage == Stage::Creating) {
            if (status != PGRES_TUPLES_OK) {
                fail(QStringLiteral("no temporary replication slot: %1").arg(error));
                return;
            }
            continue; // then the null result that ends the statement
        }
        if (status != PGRES_COPY_BOTH) {
            fail(QStringLiteral("the replication stream did not start: %1").arg(error));
            return;
        }
        m_stage = Stage::Streaming;
        m_feedback.start(FeedbackMs);
        emit ready();
    }
}

ReplicationDoorbell::~ReplicationDoorbell()
{
    m_notifier.reset();
    if (m_conn && m_stage != Stage::Streaming) {
        // Still waiting for the slot: the WAL sender waits on the server's transactions, not on
        // this socket, so tell it to stop waiting instead of leaving it there.
        if (PGcancel* cancel = PQgetCancel(m_conn)) {
            char error[256];
            (void)PQcancel(cancel, error, sizeof error);
            PQfreeCancel(cancel);
        }
    }
    if (m_conn)
        PQfinish(m_conn); // the temporary slot goes with the connection
}

void ReplicationDoorbell::fail(const QString& why)
{
    const bool rang = m_stage == Stage::Streaming;
    m_feedback.stop();
    m_notifier.reset();
    PQfinish(m_conn);
    m_conn = nullptr;
    if (rang)
        emit lost(why);
    else
        emit refused(why); // the slot or the stream never came
}

void ReplicationDoorbell::readAvailable()
{
    if (!m_conn)
        return;
    if (PQconsumeInput(m_conn) == 0) {
        fail(errorOf(m_conn));
        return;
    }
    if (m_stage != Stage::Streaming) {
        advanceOpening();
        if (!isRinging())
            return;
    }
    bool ring = false;
    bool reply = false;
    for (;;) {
        char* buffer = nullptr;
        const int length = PQgetCopyData(m_conn, &buffer, 1);
        if (length == 0)
            break; // nothing complete yet
        if (length < 0) {
            PGresult* r = PQgetResult(m_conn);
            const QString why = r ? QString::fromUtf8(PQresultErrorMessage(r)).simplified() : QString();
            PQclear(r);
            if (ring)
                emit rang();
            fail(why.isEmpty() ? errorOf(m_conn) : why);
            return;
        }
        if (buffer[0] == 'w' && length > 25) {
            // XLogData: start, end of WAL, send time, then one pgoutput message.
            m_received = std::max(m_received, bigEndian64(buffer + 9));
            const char kind = buffer[25];
            if (kind == 'B')
                m_inserted = false;
            else if (kind == 'I')
                m_inserted = true;
            else if (kind == 'C' && m_inserted) {
                ring = true;
                m_inserted = false;
            }
        } else if (buffer[0] == 'k' && length >= 18) {
            // Keepalive: end of WAL, send time, whether the server wants an answer now.
            m_received = std::max(m_received, bigEndian64(buffer + 1));
            reply = reply || buffer[17] != 0;
        }
        PQfreemem(buffer);
    }
    if (reply && !sendFeedback(false))
        return;
    if (ring)
        emit rang();
}

bool ReplicationDoorbell::sendFeedback(bool replyRequested)
{
    if (!m_conn)
        return false;
    // Standby status update: written, flushed and applied up to what arrived (the doorbell needs
    // nothing replayed, so the slot keeps no WAL back), the client's clock in microseconds since
    // 2000-01-01, and whether the server should answer.
    char message[34];
    message[0] = 'r';
    putBigEndian64(message + 1, m_received);
    putBigEndian64(message + 9, m_received);
    putBigEndian64(message + 17, m_received);
    const qint64 epoch2000Us = 946684800000000LL;
    putBigEndian64(message + 25, quint64(QDateTime::currentMSecsSinceEpoch() * 1000 - epoch2000Us));
    message[33] = replyRequested ? 1 : 0;
    if (PQputCopyData(m_conn, message, sizeof message) != 1 || PQflush(m_conn) < 0) {
        fail(errorOf(m_conn));
        return false;
    }
    return true;
}

} // namespace outbox
