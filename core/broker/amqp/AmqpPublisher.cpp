#include "core/broker/amqp/AmqpPublisher.h"

#include "core/support/TopicName.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QRegularExpression>
#include <QThread>
#include <algorithm>
#include <poll.h>
#include <vector>

namespace outbox {

namespace {

qint64 nowMs()
{
    return QDateTime::currentMSecsSinceEpoch();
}

QString fromBytes(amqp_bytes_t b)
{
    return QString::fromUtf8(static_cast<const char*>(b.bytes), int(b.len));
}

// How long a missing exchange fails its messages without another try (each try closes the channel).
constexpr qint64 MissingExchangeMemoryMs = 2000;
// Between two publishes, the broker's answers are read every so many messages (acks, and above all
// connection.blocked: a blocked broker stops reading the socket).
constexpr int ServeEvery = 64;
// Reading what the broker sent takes microseconds; a read that lasts this much longer than asked is
// stuck inside rabbitmq-c (a flood of frames it swallows, a frame that never ends) and is cut.
constexpr qint64 ReadMarginMs = 1000;

} // namespace

Result<std::unique_ptr<AmqpPublisher>> AmqpPublisher::create(const AmqpOptions& options)
{
    if (options.url.host.isEmpty())
        return Error::usage(
                   QCoreApplication::translate("outbox::AmqpBroker",
                                               "no AMQP broker URL given (amqp://user@host:5672/vhost)"))
            .about(QStringLiteral("broker.url"));
    if (options.window < 1 || options.window > 65535)
        return Error::usage(QStringLiteral("the AMQP publish window must be between 1 and 65535"))
            .about(QStringLiteral("amqp.window"));
    std::unique_ptr<AmqpPublisher> p(new AmqpPublisher(options));
    (void)p->ensureConnected(); // a broker down now makes the relay DEGRADED, not fail to start
    return p;
}

AmqpPublisher::~AmqpPublisher() = default;

QString AmqpPublisher::exchangeOf(const BrokerMessage& m) const
{
    return m.exchange.isNull() ? m_options.exchange : m.exchange;
}

QString AmqpPublisher::missingExchange(const QString& exchange) const
{
    auto it = m_missingExchanges.constFind(exchange);
    if (it == m_missingExchanges.cend() || nowMs() - it->atMs > MissingExchangeMemoryMs)
        return {};
    return it->text;
}

Status AmqpPublisher::connect()
{
    auto c = AmqpConnection::open(m_options, QStringLiteral("outbox relay"));
    if (!c)
        return c.error();
    m_connection = std::move(c).value();
    m_channel = 1;
    m_nextTag = 1;
    m_blocked = false;
    if (Status s = m_connection->openChannel(m_channel, true); !s) {
        m_connection.reset();
        return Error::runtime(QStringLiteral("RabbitMQ at %1: %2").arg(m_options.url.address(), s.message()));
    }
    return {};
}

bool AmqpPublisher::ensureConnected()
{
    if (m_connection)
        return true;
    if (m_sinceConnectAttempt.isValid() && m_sinceConnectAttempt.elapsed() < 500)
        return false; // a refused attempt just now: not once per message
    m_sinceConnectAttempt.start();
    if (Status s = connect(); !s) {
        m_connectionDown = true;
        m_connectionError = s.message();
        return false;
    }
    m_connectionDown = false;
    m_connectionError.clear();
    return true;
}

void AmqpPublisher::report(PendingBatch& batch, int index, DeliveryClass c, const QString& message,
                           bool possiblyPersisted, qint64 tag)
{
    DeliveryReport* r = batch.begin(index);
    if (!r)
        return; // answered already (e.g. await()'s deadline)
    r->deliveryClass = c;
    r->message = message;
    r->possiblyPersisted = possiblyPersisted;
    r->offset = tag;
    r->ackedAtMs = nowMs();
    if (batch.finish(index))
        ++m_completed;
}

std::unique_ptr<PendingBatch> AmqpPublisher::enqueue(const QVector<BrokerMessage>& messages,
                                                     qint64 queueWaitMs)
{
    auto batch = std::make_unique<PendingBatch>(int(messages.size()));
    QElapsedTimer waited;
    waited.start();
    bool lost = false;
    for (int i = 0; i < messages.size(); ++i) {
        const BrokerMessage& m = messages.at(i);
        if (const QString invalid = TopicName::amqpProblem(m.topic); !invalid.isEmpty()) {
            report(*batch, i, DeliveryClass::Deterministic, invalid, false);
            continue;
        }
        if (const QString gone = missingExchange(exchangeOf(m)); !gone.isEmpty()) {
            report(*batch, i, DeliveryClass::Deterministic, gone, false);
            continue;
        }
        // Lost during this batch: no new connection for the rest of it (a broker that takes
        // connections and then stalls would cost a handshake and a deadline per message).
        if (lost || !ensureConnected() || m_blocked) {
            report(*batch, i, DeliveryClass::ConnectionWide, m_connectionError, false);
            continue;
        }
        bool full = false;
        while (m_connection && !m_blocked && int(m_inFlight.size()) >= m_options.window) {
            const qint64 left = queueWaitMs - waited.elapsed();
            if (left <= 0) {
                full = true;
                break;
            }
            serve(std::min<qint64>(50, left));
        }
        if (full) { // the caller's time is up (e.g. its lease): give the rest back, nothing sent
            if (DeliveryReport* r = batch->begin(i)) {
                r->deliveryClass = DeliveryClass::Transient;
                r->message =
                    QStringLiteral("not published: %1 publishes stayed unconfirmed for %2 ms ([amqp] window)")
                        .arg(m_options.window)
                        .arg(queueWaitMs);
                r->notQueued = true;
                r->ackedAtMs = nowMs();
                batch->countNotQueued();
                if (batch->finish(i))
                    ++m_completed;
            }
            continue;
        }
        if (!m_connection || m_blocked) {
            lost = lost || !m_connection;
            report(*batch, i, DeliveryClass::ConnectionWide, m_connectionError, false);
            continue;
        }
        // A broker that stops reading holds a write no longer than the caller's time (its lease).
        lost = !publish(*batch, i, m, std::max<qint64>(100, queueWaitMs - waited.elapsed()));
        if ((i + 1) % ServeEvery == 0)
            serve(0);
    }
    serve(0);
    return batch;
}

bool AmqpPublisher::publish(PendingBatch& batch, int index, const BrokerMessage& m, qint64 deadlineMs)
{
    const QByteArray exchange = exchangeOf(m).toUtf8();
    const QByteArray routingKey = m.topic.toUtf8();
    const QByteArray messageId = m.messageId.toUtf8();
    const QByteArray type = m.type.toUtf8();
    std::vector<amqp_table_entry_t> entries(size_t(m.headers.size()));
    for (int h = 0; h < m.headers.size(); ++h) {
        amqp_table_entry_t& e = entries[size_t(h)];
        e.key = AmqpConnection::bytes(m.headers.at(h).name);
        e.value.kind = AMQP_FIELD_KIND_UTF8; // a long string: any bytes
        e.value.value.bytes = AmqpConnection::bytes(m.headers.at(h).value);
    }
    amqp_basic_properties_t props{};
    props._flags = AMQP_BASIC_CONTENT_TYPE_FLAG | AMQP_BASIC_DELIVERY_MODE_FLAG | AMQP_BASIC_HEADERS_FLAG |
                   AMQP_BASIC_TIMESTAMP_FLAG;
    props.content_type = amqp_cstring_bytes("application/json");
    props.delivery_mode = 2; // persistent
    props.headers.num_entries = int(entries.size());
    props.headers.entries = entries.data();
    props.timestamp = uint64_t((m.createdAtMs > 0 ? m.createdAtMs : nowMs()) / 1000);
    if (!messageId.isEmpty()) {
        props._flags |= AMQP_BASIC_MESSAGE_ID_FLAG;
        props.message_id = AmqpConnection::bytes(messageId);
    }
    if (!type.isEmpty()) {
        props._flags |= AMQP_BASIC_TYPE_FLAG;
        props.type = AmqpConnection::bytes(type);
    }
    const quint64 tag = m_nextTag;
    // rabbitmq-c writes without a bound: a broker that stops reading would hold this call for ever.
    AmqpDeadline& deadline = m_connection->deadline();
    const qint64 limitMs =
        deadlineMs > 0 ? std::min(deadlineMs, m_connection->waitLimitMs()) : m_connection->waitLimitMs();
    deadline.arm(limitMs, QStringLiteral("publishing"));
    const int rc = amqp_basic_publish(m_connection->state(), m_channel, AmqpConnection::bytes(exchange),
                                      AmqpConnection::bytes(routingKey), 1 /* mandatory */, 0, &props,
                                      AmqpConnection::bytes(m.payload));
    deadline.disarm();
    if (rc != AMQP_STATUS_OK) {
        const QString why = lostBecause(QStringLiteral("publishing to RabbitMQ failed: %1")
                                            .arg(QString::fromUtf8(amqp_error_string2(rc))));
        report(batch, index, DeliveryClass::ConnectionWide, why, false);
        connectionLost(why);
        return false;
    }
    ++m_nextTag;
    InFlight f;
    f.alive = batch.liveness();
    f.batch = &batch;
    f.index = index;
    f.message = m;
    f.publishedAtMs = nowMs();
    m_inFlight.emplace(tag, std::move(f));
    return true;
}

QString AmqpPublisher::lostBecause(const QString& otherwise) const
{
    if (m_connection && m_connection->deadline().expired())
        return QStringLiteral("RabbitMQ at %1 gave %2")
            .arg(m_options.url.address(), m_connection->deadline().expiredText());
    return otherwise;
}

void AmqpPublisher::serve(qint64 timeoutMs)
{
    QElapsedTimer t;
    t.start();
    const quint64 completedBefore = m_completed;
    // Reading never takes much longer than asked, whatever the broker sends: a flood of frames
    // returns here after the time is up, one rabbitmq-c swallows (heartbeats) is cut by the deadline.
    const qint64 readLimitMs = std::max<qint64>(timeoutMs, 20);
    struct Disarm
    {
        AmqpPublisher* p;
        ~Disarm()
        {
            if (p->m_connection)
                p->m_connection->deadline().disarm();
        }
    } disarm{this};
    while (m_connection) {
        // Armed anew each round: a channel reopened or a publish repeated in handleFrame disarms it.
        m_connection->deadline().arm(readLimitMs + ReadMarginMs,
                                     QStringLiteral("reading the broker's answers"));
        expireUnconfirmed();
        if (m_completed != completedBefore && timeoutMs > 0)
            return;
        const qint64 left = std::max<qint64>(0, timeoutMs - t.elapsed());
        amqp_connection_state_t state = m_connection->state();
        // rabbitmq-c rounds the time left down to whole milliseconds before it polls the socket: a
        // 1 ms wait polled with 0 and returned at once, and the relay's loop spun (a core's worth of
        // CPU taken from the broker and the database on a small machine). Wait on the socket here,
        // then read without waiting (which also reads what TLS holds decrypted already).
        if (left > 0 && !amqp_frames_enqueued(state) && !amqp_data_in_buffer(state)) {
            struct pollfd pfd;
            pfd.fd = amqp_get_sockfd(state);
            pfd.events = POLLIN;
            pfd.revents = 0;
            if (pfd.fd >= 0)
                (void)::poll(&pfd, 1, int(left));
        }
        struct timeval tv;
        tv.tv_sec = 0;
        tv.tv_usec = 0;
        amqp_frame_t frame;
        const int rc = amqp_simple_wait_frame_noblock(state, &frame, &tv);
        if (rc == AMQP_STATUS_TIMEOUT) {
            if (t.elapsed() < timeoutMs)
                continue; // woken by something else than a whole frame (e.g. half of one)
            return;
        }
        if (rc != AMQP_STATUS_OK) {
            connectionLost(lostBecause(QStringLiteral("connection to RabbitMQ lost: %1")
                                           .arg(QString::fromUtf8(amqp_error_string2(rc)))));
            return;
        }
        handleFrame(frame);
        if (m_connection)
            amqp_maybe_release_buffers(m_connection->state());
        if (t.elapsed() >= readLimitMs)
            return;
    }
}

void AmqpPublisher::handleFrame(const amqp_frame_t& frame)
{
    if (frame.frame_type != AMQP_FRAME_METHOD)
        return;
    const amqp_method_t& method = frame.payload.method;
    switch (method.id) {
    case AMQP_BASIC_ACK_METHOD: {
        const auto* a = static_cast<const amqp_basic_ack_t*>(method.decoded);
        if (frame.channel == m_channel)
            settle(a->delivery_tag, a->multiple, true);
        break;
    }
    case AMQP_BASIC_NACK_METHOD: {
        const auto* n = static_cast<const amqp_basic_nack_t*>(method.decoded);
        if (frame.channel == m_channel)
            settle(n->delivery_tag, n->multiple, false);
        break;
    }
    case AMQP_BASIC_RETURN_METHOD: {
        const auto* r = static_cast<const amqp_basic_return_t*>(method.decoded);
        const int code = r->reply_code;
        const QString replyText = fromBytes(r->reply_text);
        const QString exchange = fromBytes(r->exchange);
        const QString routingKey = fromBytes(r->routing_key);
        amqp_message_t returned;
        const amqp_rpc_reply_t read = amqp_read_message(m_connection->state(), frame.channel, &returned, 0);
        if (read.reply_type != AMQP_RESPONSE_NORMAL) {
            connectionLost(
                lostBecause(QStringLiteral("connection to RabbitMQ lost while reading a returned message")));
            return;
        }
        const QString messageId = (returned.properties._flags & AMQP_BASIC_MESSAGE_ID_FLAG)
                                      ? fromBytes(returned.properties.message_id)
                                      : QString();
        amqp_destroy_message(&returned);
        const QString text =
            // The exchange and routing key first: a group's title is this text cut at 100 characters,
            // and two groups that differ only in their key must not read the same.
            QStringLiteral("%1 (%2): no queue is bound to exchange \"%3\" for routing key \"%4\" (RabbitMQ "
                           "took the message but could not route it)")
                .arg(replyText)
                .arg(code)
                .arg(exchange, routingKey);
        // The return comes before the message's ack: the earliest unanswered publish that matches.
        for (auto& entry : m_inFlight) {
            InFlight& f = entry.second;
            if (f.returned.isEmpty() && f.message.topic == routingKey && exchangeOf(f.message) == exchange &&
                (messageId.isEmpty() || f.message.messageId == messageId)) {
                f.returned = text;
                break;
            }
        }
        break;
    }
    case AMQP_CHANNEL_CLOSE_METHOD:
        if (frame.channel == m_channel)
            channelClosed(method);
        break;
    case AMQP_CONNECTION_CLOSE_METHOD: {
        const QString text = AmqpConnection::closeText(method);
        amqp_connection_close_ok_t ok{};
        (void)amqp_send_method(m_connection->state(), 0, AMQP_CONNECTION_CLOSE_OK_METHOD, &ok);
        connectionLost(QStringLiteral("RabbitMQ closed the connection: %1").arg(text));
        break;
    }
    case AMQP_CONNECTION_BLOCKED_METHOD: {
        const auto* b = static_cast<const amqp_connection_blocked_t*>(method.decoded);
        m_blocked = true;
        m_connectionDown = true;
        m_connectionError =
            QStringLiteral("connection blocked by RabbitMQ (%1): the broker hit its memory or "
                           "disk alarm and takes no messages until it clears")
                .arg(fromBytes(b->reason));
        break;
    }
    case AMQP_CONNECTION_UNBLOCKED_METHOD:
        m_blocked = false;
        m_connectionDown = false;
        break;
    default:
        break;
    }
}

void AmqpPublisher::settle(quint64 tag, bool multiple, bool acked)
{
    auto first = multiple ? m_inFlight.begin() : m_inFlight.find(tag);
    if (first == m_inFlight.end())
        return;
    auto last = multiple ? m_inFlight.upper_bound(tag) : std::next(first);
    for (auto it = first; it != last; ++it) {
        InFlight& f = it->second;
        if (auto alive = f.alive.lock()) {
            if (!acked)
                report(*f.batch, f.index, DeliveryClass::Transient,
                       QStringLiteral("RabbitMQ refused the message (basic.nack): an internal error of the "
                                      "queue; it is sent again"),
                       true, qint64(it->first));
            else if (!f.returned.isEmpty())
                report(*f.batch, f.index, DeliveryClass::Deterministic, f.returned, true, qint64(it->first));
            else
                report(*f.batch, f.index, DeliveryClass::Success, {}, true, qint64(it->first));
        }
    }
    m_inFlight.erase(first, last);
}

void AmqpPublisher::channelClosed(const amqp_method_t& method)
{
    int code = 0;
    const QString text = AmqpConnection::closeText(method, &code);
    amqp_channel_close_ok_t ok{};
    (void)amqp_send_method(m_connection->state(), m_channel, AMQP_CHANNEL_CLOSE_OK_METHOD, &ok);
    const QString why = QStringLiteral("RabbitMQ closed the channel: %1 (%2)").arg(text).arg(code);
    // "NOT_FOUND - no exchange 'x' in vhost '/'", "ACCESS_REFUSED - access to exchange 'x' … refused"
    static const QRegularExpression exchangeName(QStringLiteral("exchange '([^']*)'"));
    const QRegularExpressionMatch match = exchangeName.match(text);
    const QString exchange = match.hasMatch() ? match.captured(1) : QString();
    if (!exchange.isEmpty())
        m_missingExchanges.insert(exchange, Missing{why, nowMs()});
    // "PRECONDITION_FAILED - message size 8012 is larger than configured max size 4096" (RabbitMQ's
    // max_message_size): its refusal of the message as it is, which no retry changes.
    static const QRegularExpression maxSize(QStringLiteral("larger than (?:configured )?max size (\\d+)"));
    const QRegularExpressionMatch tooLarge = maxSize.match(text);
    const qint64 maxBytes = tooLarge.hasMatch() ? tooLarge.captured(1).toLongLong() : -1;
    std::map<quint64, InFlight> pending;
    pending.swap(m_inFlight);
    m_channel = amqp_channel_t(m_channel % 2000 + 1);
    m_nextTag = 1;
    if (Status s = m_connection->openChannel(m_channel, true); !s) {
        const QString lost = QStringLiteral("cannot reopen a channel after \"%1\": %2").arg(why, s.message());
        m_inFlight.swap(pending);
        connectionLost(lost);
        return;
    }
    // The closed channel's unanswered publishes: those for the refused exchange, or larger than the
    // broker's limit, fail for good; the others are published again on the new channel (same
    // message_id: at worst a duplicate). A close that names neither is sent again later, without an
    // attempt spent: it says nothing against any one event.
    for (auto& entry : pending) {
        InFlight& f = entry.second;
        auto alive = f.alive.lock();
        if (!alive)
            continue;
        if (maxBytes >= 0 ? f.message.payload.size() > maxBytes
                          : !exchange.isEmpty() && exchangeOf(f.message) == exchange) {
            report(*f.batch, f.index, DeliveryClass::Deterministic, why, false);
            continue;
        }
        if (maxBytes < 0 && exchange.isEmpty()) {
            report(*f.batch, f.index, DeliveryClass::Transient, why, true);
            continue;
        }
        if (!m_connection) {
            report(*f.batch, f.index, DeliveryClass::UnknownOutcome, m_connectionError, true);
            continue;
        }
        (void)publish(*f.batch, f.index, f.message);
    }
}

void AmqpPublisher::connectionLost(const QString& why)
{
    m_connectionDown = true;
    m_blocked = false;
    m_connectionError = why;
    if (m_connection) {
        m_connection->markBroken();
        m_connection.reset();
    }
    m_sinceConnectAttempt.invalidate();
    std::map<quint64, InFlight> pending;
    pending.swap(m_inFlight);
    for (auto& entry : pending) {
        InFlight& f = entry.second;
        if (auto alive = f.alive.lock())
            report(*f.batch, f.index, DeliveryClass::UnknownOutcome,
                   QStringLiteral("no publisher confirm before the connection was lost: %1").arg(why), true);
    }
}

void AmqpPublisher::expireUnconfirmed()
{
    const qint64 now = nowMs();
    while (!m_inFlight.empty()) {
        auto it = m_inFlight.begin();
        if (now - it->second.publishedAtMs < m_options.confirmTimeoutMs)
            return;
        InFlight& f = it->second;
        if (auto alive = f.alive.lock())
            report(*f.batch, f.index, DeliveryClass::UnknownOutcome,
                   QStringLiteral("no publisher confirm within %1 ms%2")
                       .arg(m_options.confirmTimeoutMs)
                       .arg(m_blocked ? QStringLiteral(" (%1)").arg(m_connectionError) : QString()),
                   true);
        m_inFlight.erase(it);
    }
}

void AmqpPublisher::await(PendingBatch& batch, qint64 timeoutMs)
{
    QElapsedTimer t;
    t.start();
    while (batch.outstanding() > 0 && t.elapsed() < timeoutMs && m_connection)
        serve(std::min<qint64>(100, timeoutMs - t.elapsed()));
    for (int i = 0; i < batch.size(); ++i) {
        if (batch.isReported(i))
            continue;
        report(batch, i, DeliveryClass::UnknownOutcome,
               QStringLiteral("no publisher confirm before the deadline"), true);
    }
}

void AmqpPublisher::poll(int timeoutMs)
{
    if (m_connection)
        serve(timeoutMs);
}

Status AmqpPublisher::probe(int timeoutMs)
{
    if (!m_connection) {
        m_sinceConnectAttempt.invalidate();
        if (!ensureConnected())
            return Error::runtime(m_connectionError);
    }
    serve(std::min(timeoutMs, 200)); // a close or connection.unblocked waiting to be read
    if (!m_connection)
        return Error::runtime(m_connectionError);
    if (m_blocked)
        return Error::runtime(m_connectionError);
    m_connectionDown = false;
    return {};
}

} // namespace outbox
