#include "core/consumer/InboxConsumer.h"

#include "core/consumer/MessageSource.h"
#include "core/db/DeadLetterStore.h"
#include "core/db/InboxStore.h"
#include "core/support/Failpoints.h"

#include <QElapsedTimer>
#include <QJsonDocument>
#include <QSet>
#include <QStringList>
#include <QThread>
#include <algorithm>
#include <cstdio>

namespace outbox {

namespace {

QString versionsText(const QSet<int>& versions)
{
    QList<int> sorted(versions.cbegin(), versions.cend());
    std::sort(sorted.begin(), sorted.end());
    QStringList names;
    for (int v : sorted)
        names << QString::number(v);
    return names.join(QStringLiteral(", "));
}

} // namespace

InboxConsumer::InboxConsumer(DatabaseTarget target, ConsumerOptions options, Handler handler,
                             InboxConsumerStats& stats, Logger log)
    : m_target(std::move(target)), m_options(std::move(options)), m_handler(std::move(handler)),
      m_stats(stats), m_log(std::move(log)), m_backoff(m_options.backoffBaseMs, m_options.backoffCapMs)
{
    if (!m_log)
        m_log = [](const QString&) {};
}

InboxConsumer::~InboxConsumer()
{
    if (m_source)
        m_source->close();
}

Status InboxConsumer::connectDatabase()
{
    auto db = m_target.open(QStringLiteral("consumer"));
    if (!db)
        return db.error();
    m_db = std::move(db).value();
    return {};
}

Status InboxConsumer::run(const std::atomic<bool>& stopRequested)
{
    if (Status s = m_options.validate(); !s)
        return s;
    if (!m_handler)
        return Error::usage(QStringLiteral("the consumer has no handler"));
    if (Status s = connectDatabase(); !s)
        return s;
    // What it subscribes to, for the unconsumed check (events of other topics are not its business).
    // A RabbitMQ queue's bindings are known only through [consumer] topics; none: not known.
    if (Status s = InboxStore(*m_db).recordTopics(m_options.consumerName, m_options.topics); !s)
        m_log(QStringLiteral("consumer %1 could not record its topics: %2")
                  .arg(m_options.consumerName, s.message()));
    auto source = MessageSource::create(m_options, m_log);
    if (!source)
        return source.error();
    m_source = std::move(source).value();
    if (Status s = m_source->open(); !s) {
        m_source->close();
        return s;
    }
    m_log(QStringLiteral("consumer %1 reading %2").arg(m_options.consumerName, m_options.sourceText()));
    while (!stopRequested.load()) {
        QVector<InboxMessage> batch =
            m_source->poll(m_options.batchSize, m_options.pollMs, m_options.batchMaxWaitMs);
        if (batch.isEmpty())
            continue;
        if (!processBatch(batch, stopRequested))
            break; // not acknowledged: the broker delivers it again to whoever runs next
    }
    m_source->close();
    m_log(QStringLiteral("consumer %1 stopped").arg(m_options.consumerName));
    return {};
}

bool InboxConsumer::processBatch(QVector<InboxMessage>& messages, const std::atomic<bool>& stop)
{
    const int n = int(messages.size());
    QStringList invalid;
    for (InboxMessage& m : messages) {
        m_stats.received.fetch_add(1);
        completeFromHeaders(m);
        invalid << validate(m);
    }
    int i = 0;
    while (i < n) {
        if (!invalid.at(i).isEmpty()) { // poison: a dead letter of its own
            const Disposition d = handle(messages[i], invalid.at(i), stop);
            if (d == Disposition::Stop)
                return false;
            settle(messages, i, d);
            ++i;
            continue;
        }
        int end = i;
        while (end < n && invalid.at(end).isEmpty())
            ++end;
        const BatchOutcome r = transact(messages, i, end);
        if (r.done > 0) {
            // Crash here: committed but not acknowledged. The batch comes again; the inbox skips it.
            (void)Failpoints::hit("consumer.after_commit_before_ack");
            acknowledge(messages, i, i + r.done);
            i += r.done;
        }
        if (!r.failed.isEmpty() || r.individually) {
            const Disposition d = handle(messages[i], {}, stop, r.failed);
            if (d == Disposition::Stop)
                return false;
            settle(messages, i, d);
            ++i;
        }
    }
    return true;
}

InboxConsumer::BatchOutcome InboxConsumer::transact(QVector<InboxMessage>& messages, int from, int to)
{
    if (!m_db) {
        if (Status s = connectDatabase(); !s)
            return BatchOutcome{0, {}, true}; // the message on its own retries the connection with backoff
    }
    QStringList ids;
    for (int k = from; k < to; ++k)
        ids << messages.at(k).eventId;
    auto known = InboxStore(*m_db).statuses(ids, m_options.consumerName);
    if (!known) {
        m_log(QStringLiteral("batch of %1 messages: %2; going on message by message")
                  .arg(to - from)
                  .arg(known.message()));
        m_db.reset(); // reconnects on the next attempt
        return BatchOutcome{0, {}, true};
    }
    // The batch runs without savepoints first: the common case costs the handlers' statements and
    // a few batch statements, nothing per message. When a handler fails there (message j), the
    // whole transaction is rolled back and the batch done again: without savepoints up to j (those
    // went through), with one before each message from j on, so that j (and any later failure)
    // goes back to its own savepoint and the others commit. A failure before j in that second
    // pass (a handler that is not deterministic) makes a third pass with a savepoint everywhere.
    QHash<int, QVector<Attempt>> earlier;
    int guardFrom = to;
    bool cutAtFailures = false;
    while (true) {
        BatchOutcome r = transactOnce(messages, from, to, *known, guardFrom, earlier, cutAtFailures);
        if (r.cutAtFailures && !cutAtFailures) {
            cutAtFailures = true;
            m_stats.batchRedos.fetch_add(1);
            continue;
        }
        if (r.unguardedFailure < 0)
            return r;
        earlier.insert(r.unguardedFailure, r.failed);
        guardFrom = guardFrom == to ? r.unguardedFailure : from;
        m_stats.batchRedos.fetch_add(1);
    }
}

namespace {

// The new messages from k on, up to the next one that must go on its own (a replayed dead letter,
// one the batch handler failed at, an event_id twice), for one call of the batch handler: `segment`
// gets them, the index after the last is returned.
int newSegment(QVector<InboxMessage>& messages, int k, int to, const QSet<int>& alone,
               const QHash<QString, QString>& known, const QSet<QString>& done,
               QVector<const InboxMessage*>& segment)
{
    QSet<QString> ids;
    int end = k;
    for (; end < to && !alone.contains(end); ++end) {
        InboxMessage& m = messages[end];
        if (!known.value(m.eventId).isEmpty() || done.contains(m.eventId) || ids.contains(m.eventId))
            break;
        m.attempt = 1;
        ids.insert(m.eventId);
        segment << &m;
    }
    return end;
}

// As if the call had stopped at its first failure: rolled back, the messages before it again in
// one call, it on its own, then the ones after it.
BatchHandlerResult stoppedAtFirstFailure(const BatchHandlerResult& r)
{
    const auto first =
        std::min_element(r.failures.cbegin(), r.failures.cend(),
                         [](const BatchHandlerResult::Failure& a, const BatchHandlerResult::Failure& b) {
                             return a.index < b.index;
                         });
    return BatchHandlerResult::failedAt(first->index, first->result);
}

} // namespace

InboxConsumer::BatchOutcome InboxConsumer::transactOnce(QVector<InboxMessage>& messages, int from, int to,
                                                        const QHash<QString, QString>& known, int guardFrom,
                                                        const QHash<int, QVector<Attempt>>& earlier,
                                                        bool cutAtFailures)
{
    BatchOutcome out;
    out.individually = true;
    if (!m_db) {
        if (Status s = connectDatabase(); !s)
            return out; // the message on its own retries the connection with backoff
    }
    if (Status s = Failpoints::hit("consumer.before_inbox_write"); !s)
        return out;
    Transaction tx(*m_db);
    auto giveUp = [&](const QString& why) {
        m_log(
            QStringLiteral("batch of %1 messages: %2; going on message by message").arg(to - from).arg(why));
        tx.rollback();
        m_db.reset(); // reconnects on the next attempt
        return BatchOutcome{0, {}, true};
    };
    InboxStore inbox(*m_db);

    bool begun = false;
    QSet<QString> done;
    QVector<InboxStore::NewRecord> fresh;
    qint64 processed = 0;
    qint64 duplicates = 0;
    qint64 retries = 0;
    // Dead letters written in this transaction (their messages' attempts all failed at once),
    // logged and counted once it commits.
    QVector<std::pair<qint64, QString>> deadLetters;
    // With a batch handler: the messages it failed at, each run on its own by the per-message
    // Handler, and that failure (their attempt 1).
    QSet<int> alone;
    QHash<int, QVector<Attempt>> batchFailures;
    const auto goesAlone = [&alone, &batchFailures](int index, const HandlerResult& failure) {
        alone.insert(index);
        batchFailures[index] << failedAttempt(failure);
    };
    // Messages a batch call with failures named at once (doneExcept) has done: passed over when
    // the loop goes back to the first of its failures.
    QSet<int> handled;
    int k = from;
    for (; k < to; ++k) {
        if (handled.contains(k))
            continue;
        InboxMessage& msg = messages[k];
        msg.attempt = 1;
        const QString status = known.value(msg.eventId);
        if (status == QLatin1String("PROCESSED") || done.contains(msg.eventId)) {
            ++duplicates;
            continue;
        }
        if (!begun) {
            if (Status s = tx.beginWrite(); !s)
                return giveUp(s.message());
            begun = true;
        }
        if (m_batchHandler && status.isEmpty() && !alone.contains(k)) {
            // The new messages from k on, up to the next one that must go on its own (a replayed
            // dead letter, one the batch handler failed at, an event_id twice), in one call.
            QVector<const InboxMessage*> segment;
            const int end = newSegment(messages, k, to, alone, known, done, segment);
            if (auto sp = m_db->exec(QStringLiteral("SAVEPOINT outbox_batch")); !sp)
                return giveUp(sp.message());
            BatchHandlerResult r = m_batchHandler(*m_db, segment);
            if (cutAtFailures && !r.failures.isEmpty())
                r = stoppedAtFirstFailure(r);
            if (r.result.outcome == HandlerResult::Outcome::Ok) {
                // Failures named at once: the others are done and stay; each failed one goes on its
                // own from the first of them on, under its savepoint, after the call's others.
                QSet<int> failedHere;
                for (const BatchHandlerResult::Failure& f : r.failures) {
                    if (f.index < 0 || f.index >= segment.size() || failedHere.contains(f.index))
                        continue;
                    failedHere.insert(f.index);
                    goesAlone(k + f.index, f.result);
                }
                for (int j = 0; j < segment.size(); ++j) {
                    if (failedHere.contains(j))
                        continue;
                    const InboxMessage* m = segment.at(j);
                    fresh << InboxStore::NewRecord{m->eventId, m->aggregateId, 1, m->traceparent};
                    done.insert(m->eventId);
                    handled.insert(k + j);
                }
                processed += segment.size() - failedHere.size();
                k = failedHere.isEmpty() ? end - 1
                                         : k + *std::min_element(failedHere.cbegin(), failedHere.cend()) - 1;
                continue;
            }
            if (auto back = m_db->exec(QStringLiteral("ROLLBACK TO SAVEPOINT outbox_batch")); !back)
                return giveUp(back.message());
            m_stats.batchRedos.fetch_add(1);
            if (r.failedIndex >= 0 && r.failedIndex < segment.size()) {
                goesAlone(k + r.failedIndex, r.result);
            } else {
                for (int j = k; j < end; ++j)
                    alone.insert(j);
            }
            --k; // again from k: a shorter call before the failing message, or k on its own
            continue;
        }
        // With a batch handler every message that gets here has a savepoint of its own.
        const bool guarded = k >= guardFrom || m_batchHandler;
        if (guarded) {
            if (auto sp = m_db->exec(QStringLiteral("SAVEPOINT outbox_message")); !sp)
                return giveUp(sp.message());
        }
        // A transient failure is tried once more at once (attempt 2, back at the savepoint): a lock
        // wait that timed out mostly goes through then, and the batch need not be split for it.
        QVector<Attempt> failures = m_batchHandler ? batchFailures.value(k) : earlier.value(k);
        bool taken = true;
        bool succeeded = false;
        while (true) {
            if (!failures.isEmpty()) {
                if (failures.last().kind != Attempt::Kind::Transient || failures.size() >= 2 ||
                    failures.size() >= m_options.maxAttempts)
                    break;
                ++retries;
            }
            msg.attempt = int(failures.size()) + 1;
            if (!status.isEmpty()) { // FAILED (dead-lettered before, now replayed): taken over
                auto recorded = inbox.recordProcessed(msg.eventId, m_options.consumerName, msg.aggregateId,
                                                      msg.attempt, msg.traceparent);
                if (!recorded)
                    return giveUp(recorded.message());
                taken = *recorded;
            }
            if (!taken)
                break; // nothing written: no rollback needed
            const HandlerResult r = m_handler(*m_db, msg);
            if (r.outcome == HandlerResult::Outcome::Ok) {
                succeeded = true;
                break;
            }
            failures << failedAttempt(r);
            if (!guarded) {
                // No savepoint to go back to: everything goes, and transact() does the batch again.
                tx.rollback();
                return BatchOutcome{0, failures, false, k};
            }
            // Only this message's changes go; the ones before it commit below.
            if (auto back = m_db->exec(QStringLiteral("ROLLBACK TO SAVEPOINT outbox_message")); !back)
                return giveUp(back.message());
        }
        if (!taken) { // another delivery processed it meanwhile
            ++duplicates;
            continue;
        }
        if (!succeeded && isFinal(failures)) {
            // No attempt left: its dead letter commits with the batch (at its savepoint, where its
            // handler's changes are undone), and the batch goes on.
            if (Status s = deadLetterInBatch(msg, failures, deadLetters); !s)
                return giveUp(s.message());
            done.insert(msg.eventId);
            continue;
        }
        if (!succeeded) {
            // Later messages already done in this transaction?
            if (std::any_of(handled.cbegin(), handled.cend(), [k](int j) { return j > k; })) {
                tx.rollback();
                out.cutAtFailures = true;
                return out;
            }
            out.failed = failures;
            break;
        }
        // No RELEASE: the next message's SAVEPOINT of the same name is the one a rollback goes
        // back to (MariaDB replaces it, PostgreSQL and SQLite nest it), and COMMIT keeps them all;
        // one round trip less per message.
        if (status.isEmpty())
            fresh << InboxStore::NewRecord{msg.eventId, msg.aggregateId, msg.attempt, msg.traceparent};
        done.insert(msg.eventId);
        ++processed;
    }
    if (begun) {
        auto inserted = inbox.recordProcessedNew(fresh, m_options.consumerName);
        if (!inserted)
            return giveUp(inserted.message());
        if (*inserted != fresh.size()) {
            // Another member recorded one of them meanwhile (a rebalance): undo the whole batch and
            // let the message-by-message path sort out which are duplicates.
            tx.rollback();
            return BatchOutcome{0, {}, true};
        }
        if (Status s = Failpoints::hit("consumer.before_batch_commit"); !s)
            return giveUp(s.message());
        if (Status s = tx.commit(); !s)
            return giveUp(s.message());
        m_stats.batches.fetch_add(1);
    }
    countCommitted(inbox, deadLetters, processed, duplicates, retries);
    out.done = k - from;
    out.individually = false;
    return out;
}

Status InboxConsumer::deadLetterInBatch(const InboxMessage& msg, const QVector<Attempt>& failures,
                                        QVector<std::pair<qint64, QString>>& deadLetters)
{
    const Failure f = failureOf(failures);
    auto id = storeDeadLetter(msg, f);
    if (!id)
        return id.error();
    if (*id > 0)
        deadLetters.append({*id, QStringLiteral("event %1 at %2/%3@%4 failed for good: %5")
                                     .arg(msg.eventId, msg.topic)
                                     .arg(msg.partition)
                                     .arg(msg.offset)
                                     .arg(f.error)});
    return {};
}

void InboxConsumer::countCommitted(InboxStore& inbox, const QVector<std::pair<qint64, QString>>& deadLetters,
                                   qint64 processed, qint64 duplicates, qint64 retries)
{
    for (const auto& [id, line] : deadLetters) {
        m_stats.deadLettered.fetch_add(1);
        m_log(QStringLiteral("%1; dead letter #%2").arg(line).arg(id));
    }
    m_stats.processed.fetch_add(processed);
    m_stats.duplicates.fetch_add(duplicates);
    m_stats.retries.fetch_add(retries);
    // Persistent for /metrics and the Consumers page; best effort, never holds the batch.
    if (Status s = inbox.countDuplicates(m_options.consumerName, duplicates); !s)
        m_log(QStringLiteral("cannot count %1 duplicates: %2").arg(duplicates).arg(s.message()));
}

void InboxConsumer::completeFromHeaders(InboxMessage& msg)
{
    msg.eventId = QString::fromUtf8(msg.header("event_id")).trimmed();
    msg.eventType = QString::fromUtf8(msg.header("event_type"));
    msg.traceparent = QString::fromUtf8(msg.header("traceparent")).trimmed();
    msg.aggregateId = msg.hasHeader("aggregate_id") ? QString::fromUtf8(msg.header("aggregate_id"))
                                                    : QString::fromUtf8(msg.key);
    msg.replayCount = msg.header("x-replay-count").toInt();
}

QString InboxConsumer::validate(InboxMessage& msg) const
{
    if (msg.eventId.isEmpty())
        return QStringLiteral("the message has no event_id header");
    if (msg.eventId.size() > 191)
        return QStringLiteral("the event_id header is longer than 191 characters");
    if (msg.eventId.contains(QChar(0)))
        return QStringLiteral("the event_id header contains a NUL byte");
    if (!msg.hasHeader("schema_version"))
        return QStringLiteral("the message has no schema_version header");
    bool ok = false;
    msg.schemaVersion = msg.header("schema_version").trimmed().toInt(&ok);
    if (!ok)
        return QStringLiteral("the schema_version header \"%1\" is not a number")
            .arg(QString::fromUtf8(msg.header("schema_version").left(40)));
    if (!m_options.schemaVersions.contains(msg.schemaVersion))
        return QStringLiteral("unknown schema_version %1 (consumer %2 supports %3)")
            .arg(msg.schemaVersion)
            .arg(m_options.consumerName, versionsText(m_options.schemaVersions));
    QJsonParseError parseError{};
    msg.json = QJsonDocument::fromJson(msg.payload, &parseError);
    if (parseError.error != QJsonParseError::NoError) {
        // A bare string, number, true, false or null is JSON, but no document a handler can take
        // (docs/contract.md: an object or array; doctor: contract-violations/not-json).
        QJsonParseError wrapped{};
        (void)QJsonDocument::fromJson('[' + msg.payload + ']', &wrapped);
        if (wrapped.error == QJsonParseError::NoError)
            return QStringLiteral("the payload is a JSON scalar (%1), not a JSON object or array as the "
                                  "contract asks")
                .arg(QString::fromUtf8(msg.payload.trimmed().left(40)));
        return QStringLiteral("the payload is not valid JSON: %1 at byte %2")
            .arg(parseError.errorString())
            .arg(parseError.offset);
    }
    return {};
}

InboxConsumer::Attempt InboxConsumer::tryOnce(const InboxMessage& msg)
{
    auto dbFailure = [](const QString& why) { return Attempt{Attempt::Kind::Transient, why, {}, true}; };
    if (!m_db) {
        if (Status s = connectDatabase(); !s)
            return dbFailure(s.message());
    }
    InboxStore inbox(*m_db);
    auto status = inbox.status(msg.eventId, m_options.consumerName);
    if (!status)
        return dbFailure(status.message());
    if (*status == QLatin1String("PROCESSED"))
        return {Attempt::Kind::Duplicate, {}, {}, false};

    if (Status s = Failpoints::hit("consumer.before_inbox_write"); !s)
        return {Attempt::Kind::Transient, s.message(), {}, false};
    Transaction tx(*m_db);
    if (Status s = tx.beginWrite(); !s)
        return dbFailure(s.message());
    auto recorded = inbox.recordProcessed(msg.eventId, m_options.consumerName, msg.aggregateId, msg.attempt,
                                          msg.traceparent);
    if (!recorded)
        return dbFailure(recorded.message());
    if (!*recorded)
        return {
            Attempt::Kind::Duplicate, {}, {}, false}; // another member processed it meanwhile; tx rolls back
    const HandlerResult r = m_handler(*m_db, msg);
    if (r.outcome != HandlerResult::Outcome::Ok)
        return failedAttempt(r);
    if (Status s = tx.commit(); !s)
        return dbFailure(s.message());
    return {Attempt::Kind::Processed, {}, {}, false};
}

InboxConsumer::Disposition InboxConsumer::handle(InboxMessage& msg, const QString& invalid,
                                                 const std::atomic<bool>& stop,
                                                 const QVector<Attempt>& earlier)
{
    const QString where = QStringLiteral("%1/%2@%3").arg(msg.topic).arg(msg.partition).arg(msg.offset);
    if (!invalid.isEmpty()) {
        const QDateTime now = QDateTime::currentDateTimeUtc();
        m_log(QStringLiteral("poison message %1: %2").arg(where, invalid));
        Failure f{invalid,
                  QStringLiteral("rejected before processing by consumer %1 at %2 (%3 payload bytes)")
                      .arg(m_options.consumerName, where)
                      .arg(msg.payload.size()),
                  1, now, now};
        return deadLetter(msg, f, stop) ? Disposition::DeadLettered : Disposition::Stop;
    }

    QVector<Attempt> failures; // the attempts so far, all failed
    for (int attempt = 1;; ++attempt) {
        msg.attempt = attempt;
        const Attempt a = attempt <= earlier.size() ? earlier.at(attempt - 1) : tryOnce(msg);
        switch (a.kind) {
        case Attempt::Kind::Processed:
            m_stats.processed.fetch_add(1);
            // Crash here: committed but not acknowledged. The message comes again; the inbox skips it.
            (void)Failpoints::hit("consumer.after_commit_before_ack");
            return Disposition::Acknowledge;
        case Attempt::Kind::Duplicate:
            m_stats.duplicates.fetch_add(1);
            // Persistent for /metrics and the Consumers page; best effort, never holds the message.
            if (m_db) {
                if (Status s = InboxStore(*m_db).countDuplicate(m_options.consumerName); !s)
                    m_log(
                        QStringLiteral("cannot count the duplicate of %1: %2").arg(msg.eventId, s.message()));
            }
            return Disposition::Acknowledge;
        case Attempt::Kind::Permanent: {
            m_log(QStringLiteral("event %1 at %2 failed for good: %3").arg(msg.eventId, where, a.error));
            failures << a;
            return deadLetter(msg, failureOf(failures), stop) ? Disposition::DeadLettered : Disposition::Stop;
        }
        case Attempt::Kind::Transient: {
            failures << a;
            if (a.databaseError)
                m_db.reset(); // reconnect on the next attempt
            if (attempt >= m_options.maxAttempts) {
                m_log(QStringLiteral("event %1 at %2: retries exhausted after %3 attempts: %4")
                          .arg(msg.eventId, where)
                          .arg(attempt)
                          .arg(a.error));
                return deadLetter(msg, failureOf(failures), stop) ? Disposition::DeadLettered
                                                                  : Disposition::Stop;
            }
            if (attempt < earlier.size())
                break; // the batch tried the next attempt at once already (and counted the retry)
            m_stats.retries.fetch_add(1);
            const qint64 delay = m_backoff.delayFor(attempt);
            m_log(QStringLiteral("event %1 at %2: transient failure (attempt %3), retrying in %4 ms: %5")
                      .arg(msg.eventId, where)
                      .arg(attempt)
                      .arg(delay)
                      .arg(a.error));
            if (!pause(delay, stop))
                return Disposition::Stop;
            break;
        }
        }
    }
}

InboxConsumer::Attempt InboxConsumer::failedAttempt(const HandlerResult& r)
{
    return {r.outcome == HandlerResult::Outcome::Transient ? Attempt::Kind::Transient
                                                           : Attempt::Kind::Permanent,
            r.error, r.context, false};
}

InboxConsumer::Failure InboxConsumer::failureOf(const QVector<Attempt>& attempts)
{
    QStringList history;
    for (int i = 0; i < attempts.size(); ++i) {
        const Attempt& a = attempts.at(i);
        history << (a.kind == Attempt::Kind::Permanent
                        ? QStringLiteral("attempt %1: permanent: %2").arg(i + 1).arg(a.error)
                        : QStringLiteral("attempt %1: transient%2: %3")
                              .arg(i + 1)
                              .arg(a.databaseError ? QStringLiteral(" (database)") : QString(), a.error));
    }
    const Attempt& last = attempts.last();
    const int n = int(attempts.size());
    return Failure{last.kind == Attempt::Kind::Permanent
                       ? last.error
                       : QStringLiteral("retries exhausted after %1 attempts: %2").arg(n).arg(last.error),
                   (last.context.isEmpty() ? QString() : last.context + QLatin1Char('\n')) +
                       history.join(QLatin1Char('\n')),
                   n, attempts.first().at, last.at};
}

bool InboxConsumer::isFinal(const QVector<Attempt>& failures) const
{
    return !failures.isEmpty() &&
           (failures.last().kind == Attempt::Kind::Permanent ||
            (failures.last().kind == Attempt::Kind::Transient && failures.size() >= m_options.maxAttempts));
}

Result<qint64> InboxConsumer::storeDeadLetter(const InboxMessage& msg, const Failure& f)
{
    // The message exactly as it came (binary keys, payloads and headers included): the store keeps
    // what does not fit its text columns as bytes, so writing the dead letter never fails on the
    // message's content and the partition moves on.
    DeadLetter letter;
    letter.consumerName = m_options.consumerName;
    letter.eventId = msg.eventId.isEmpty() ? QString() : msg.eventId; // the store shortens and says so
    letter.topic = msg.topic;
    letter.sourcePartition = msg.partition;
    letter.sourceOffset = msg.offset;
    letter.key = msg.key;
    letter.rawHeaders = msg.headers;
    letter.headers = QJsonDocument(msg.headersJson()).toJson(QJsonDocument::Compact);
    letter.payload = msg.payload;
    letter.error = f.error;
    letter.stacktrace = f.context;
    letter.attempts = f.attempts;
    letter.firstFailedAt = f.first;
    letter.lastFailedAt = f.last;
    // An event_id that had to be shortened is not the event's id: no inbox row for it.
    const QString storedEventId =
        letter.eventId.isEmpty() ? QString() : DeadLetter::storableEventId(letter.eventId);
    const bool inboxable = !storedEventId.isEmpty() && storedEventId == msg.eventId;
    DeadLetterStore store(*m_db);
    auto exists =
        store.existsForSource(letter.consumerName, storedEventId, letter.topic, msg.partition, msg.offset);
    if (!exists)
        return exists.error();
    if (*exists)
        return qint64(0); // stored before a crash that came before the acknowledgement
    auto id = store.insert(letter);
    if (!id)
        return id.error();
    if (inboxable) {
        if (Status s = InboxStore(*m_db).recordFailed(letter.eventId, letter.consumerName, msg.aggregateId,
                                                      f.attempts, f.error, msg.traceparent);
            !s)
            return s.error();
    }
    return *id;
}

bool InboxConsumer::deadLetter(const InboxMessage& msg, const Failure& f, const std::atomic<bool>& stop)
{
    for (int round = 1;; ++round) {
        QString why;
        if (!m_db) {
            if (Status s = connectDatabase(); !s)
                why = s.message();
        }
        if (m_db) {
            Transaction tx(*m_db);
            Status s = tx.beginWrite();
            auto id = s ? storeDeadLetter(msg, f) : Result<qint64>(s.error());
            if (id && *id == 0)
                return true;
            if (id)
                s = tx.commit();
            else
                s = id.error();
            if (s) {
                m_stats.deadLettered.fetch_add(1);
                m_log(QStringLiteral("dead letter #%1: %2").arg(*id).arg(f.error));
                return true;
            }
            why = s.message();
            m_db.reset();
        }
        m_log(QStringLiteral("cannot store the dead letter for %1/%2@%3 (%4); retrying")
                  .arg(msg.topic)
                  .arg(msg.partition)
                  .arg(msg.offset)
                  .arg(why));
        if (!pause(m_backoff.delayFor(std::min(round, 20)), stop))
            return false;
    }
}

void InboxConsumer::acknowledge(const QVector<InboxMessage>& messages, int from, int to)
{
    if (Status s = m_source->acknowledge(messages, from, to); !s) {
        // Harmless for correctness: the messages come again and the inbox skips them.
        m_stats.ackErrors.fetch_add(1);
        m_log(s.message());
    }
}

void InboxConsumer::settle(const QVector<InboxMessage>& messages, int i, Disposition d)
{
    if (d != Disposition::DeadLettered) {
        acknowledge(messages, i, i + 1);
        return;
    }
    if (Status s = m_source->deadLettered(messages.at(i)); !s) {
        m_stats.ackErrors.fetch_add(1);
        m_log(s.message());
    }
}

bool InboxConsumer::pause(qint64 ms, const std::atomic<bool>& stop)
{
    QElapsedTimer t;
    t.start();
    while (t.elapsed() < ms) {
        if (stop.load())
            return false;
        QThread::msleep(quint64(std::min<qint64>(50, ms - t.elapsed() + 1)));
    }
    return !stop.load();
}

} // namespace outbox
