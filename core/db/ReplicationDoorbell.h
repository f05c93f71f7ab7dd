#pragma once

#include "core/db/DatabaseUrl.h"
#include "core/db/Dialect.h"
#include "core/support/Result.h"

#include <QElapsedTimer>
#include <QObject>
#include <QTimer>
#include <memory>

struct pg_conn;
class QSocketNotifier;

namespace outbox {

// A relay's wake-up that costs the writers nothing (issue 42): a temporary logical replication slot
// (pgoutput, the doorbell publication: INSERTs into the events table only) streamed on a
// replication connection of its own. PostgreSQL decodes committed transactions from the WAL after
// their commit, outside the writers' transactions; rang() fires at the commit of every transaction
// that inserted events. The doorbell carries no data the relay uses: claims stay SKIP LOCKED on the
// table, so a missed ring costs latency (the relay still polls at relay.poll_ms), never an event. A
// temporary slot disappears with its connection and retains no WAL after the relay dies; the slot's
// confirmed position follows what arrived, so it retains none while the relay lives either.
//
// Needs wal_level = logical, a role with the REPLICATION attribute (or a superuser), a free
// replication slot and WAL sender (max_replication_slots, max_wal_senders) and the publication
// (migration 19). QtSql cannot speak the replication protocol: this is libpq directly.
class ReplicationDoorbell : public QObject
{
    Q_OBJECT
public:
    // How often the slot's position is confirmed (and the server told the doorbell is alive; the
    // server ends a WAL sender silent for wal_sender_timeout, 60 s by default).
    static constexpr int FeedbackMs = 10000;

    // The publication of the events table's INSERTs (migration 19), with the table prefix.
    static QString publication(const Dialect& dialect);

    // Doorbells one database keeps at most. Every WAL sender decodes the server's whole WAL stream,
    // the relays' own heartbeats included, so N doorbells cost the server about N times N: measured
    // with tests/bench/relay_idle_cost.sh, one idle relay's doorbell 0.38 % of a core, each of 50
    // 0.68 % (34 % in all). A ring wakes one relay and that relay claims every due event, so a few
    // doorbells give the latency; the other relays poll adaptively.
    static constexpr int MaxPerDatabase = 4;
    // Doorbells ringing on the database `db` is connected to (active temporary slots named as
    // open() names them).
    static Result<int> ringingOn(class Database& db);

    // Connects and checks what the doorbell needs (one sentence naming what is missing when it cannot
    // ring: the role, wal_level, `table` in `publication`), then asks for the temporary slot and the
    // stream without waiting for them: PostgreSQL creates a logical slot only once every transaction
    // that holds a transaction id on the server has ended, which a long batch job or a forgotten
    // open transaction can make minutes or hours. ready() or refused() follows; the caller polls
    // meanwhile.
    static Result<std::unique_ptr<ReplicationDoorbell>> open(const DatabaseUrl& url,
                                                             const QString& publication, const QString& table,
                                                             const QString& applicationName,
                                                             int connectTimeoutSeconds = 10);
    ~ReplicationDoorbell() override;

    QString slotName() const { return m_slot; }
    int backendPid() const { return m_backendPid; }
    // False once the connection is lost or refused (lost() or refused() was emitted).
    bool isOpen() const { return m_conn != nullptr; }
    // Streaming: rang() fires at the commits of events (false while the slot is being created).
    bool isRinging() const { return m_conn != nullptr && m_stage == Stage::Streaming; }
    // Milliseconds since open() asked for the slot.
    qint64 openingForMs() const { return m_opening.elapsed(); }

signals:
    // The slot exists and the stream started: the doorbell rings from now on.
    void ready();
    // The slot or the stream was refused (no free replication slot, …): no doorbell on this
    // connection; the server's words.
    void refused(const QString& why);
    // A transaction that inserted events committed.
    void rang();
    // The replication connection failed (the server ended it, a network error): no more rings.
    void lost(const QString& why);

private:
    ReplicationDoorbell() = default;
    enum class Stage { Creating, Starting, Streaming };
    void readAvailable();
    void advanceOpening();
    bool sendQuery(const QByteArray& statement);
    bool sendFeedback(bool replyRequested);
    void fail(const QString& why);

    pg_conn* m_conn = nullptr;
    std::unique_ptr<QSocketNotifier> m_notifier;
    QTimer m_feedback;
    QString m_slot;
    QByteArray m_startStatement;
    Stage m_stage = Stage::Creating;
    QElapsedTimer m_opening;
    int m_backendPid = 0;
    quint64 m_received = 0;  // the latest WAL position the server sent (confirmed as flushed)
    bool m_inserted = false; // the transaction being decoded inserted events
};

} // namespace outbox
