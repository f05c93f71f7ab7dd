#include "core/broker/kafka/KafkaPublisher.h"

#include "core/broker/kafka/KafkaDelivery.h"
#include "core/support/TerminalText.h"
#include "core/support/TopicName.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QElapsedTimer>
#include <QMutexLocker>
#include <algorithm>
#include <cstdio>

namespace outbox {

namespace {

// A batch with the per-message opaque that librdkafka hands back in the delivery callback.
class KafkaBatch final : public PendingBatch
{
public:
    struct Slot
    {
        PendingBatch* batch = nullptr;
        int index = 0;
    };
    explicit KafkaBatch(int size) : PendingBatch(size), opaques(size_t(size)) {}
    std::vector<Slot> opaques;
};

} // namespace

Result<std::unique_ptr<KafkaPublisher>> KafkaPublisher::create(const QString& bootstrap,
                                                               const KafkaProperties& properties)
{
    if (bootstrap.trimmed().isEmpty())
        return Error::usage(
                   QCoreApplication::translate("outbox::KafkaBroker", "no Kafka bootstrap servers given"))
            .about(QStringLiteral("kafka.bootstrap"));
    std::unique_ptr<KafkaPublisher> p(new KafkaPublisher);
    char err[512];
    rd_kafka_conf_t* conf = rd_kafka_conf_new();
    auto set = [&](const QString& name, const QString& value) -> Status {
        if (rd_kafka_conf_set(conf, name.toUtf8().constData(), value.toUtf8().constData(), err, sizeof err) !=
            RD_KAFKA_CONF_OK)
            return Error::usage(QStringLiteral("Kafka property %1: %2").arg(name, QString::fromUtf8(err)));
        return {};
    };
    Status s = set(QStringLiteral("bootstrap.servers"), bootstrap);
    for (auto it = properties.values().cbegin(); s && it != properties.values().cend(); ++it)
        s = set(it.key(), it.value());
    if (!s) {
        rd_kafka_conf_destroy(conf);
        return s.error();
    }
    rd_kafka_conf_set_dr_msg_cb(conf, &KafkaPublisher::onDelivery);
    rd_kafka_conf_set_error_cb(conf, &KafkaPublisher::onError);
    rd_kafka_conf_set_log_cb(conf, &KafkaPublisher::onLog);
    rd_kafka_conf_set_opaque(conf, p.get());
    p->m_rk = rd_kafka_new(RD_KAFKA_PRODUCER, conf, err, sizeof err);
    if (!p->m_rk) {
        rd_kafka_conf_destroy(conf);
        return Error::usage(
            QStringLiteral("cannot create the Kafka producer: %1").arg(QString::fromUtf8(err)));
    }
    KafkaPublisher* self = p.get();
    p->m_reportThread = std::thread([self] { self->serveReports(); });
    return p;
}

KafkaPublisher::~KafkaPublisher()
{
    if (m_rk) {
        rd_kafka_flush(m_rk, 2000);
        m_stopping = true;
        rd_kafka_yield(m_rk);
    }
    if (m_reportThread.joinable())
        m_reportThread.join();
    if (m_rk)
        rd_kafka_destroy(m_rk);
}

void KafkaPublisher::serveReports()
{
    while (!m_stopping.load())
        rd_kafka_poll(m_rk, 50);
}

void KafkaPublisher::batchCompleted()
{
    {
        std::lock_guard<std::mutex> lock(m_completedMutex);
        ++m_completedCount;
    }
    m_completed.notify_all();
}

template <typename Done> void KafkaPublisher::waitFor(qint64 timeoutMs, Done done)
{
    std::unique_lock<std::mutex> lock(m_completedMutex);
    m_completed.wait_for(lock, std::chrono::milliseconds(std::max<qint64>(0, timeoutMs)), done);
}

void KafkaPublisher::poll(int timeoutMs)
{
    std::unique_lock<std::mutex> lock(m_completedMutex);
    const quint64 seen = m_completedCount;
    m_completed.wait_for(lock, std::chrono::milliseconds(std::max(0, timeoutMs)),
                         [&] { return m_completedCount != seen; });
}

void KafkaPublisher::onLog(const rd_kafka_t*, int level, const char* facility, const char* buf)
{
    // Only warnings and worse; the relay reports connection state itself.
    if (level <= 3)
        std::fprintf(stderr, "kafka: %s: %s\n", facility,
                     qPrintable(TerminalText::escape(QString::fromUtf8(buf)))); // may quote topics
}

void KafkaPublisher::onError(rd_kafka_t* rk, int err, const char* reason, void* opaque)
{
    auto* self = static_cast<KafkaPublisher*>(opaque);
    const auto code = static_cast<rd_kafka_resp_err_t>(err);
    if (code == RD_KAFKA_RESP_ERR__FATAL) {
        char why[512];
        rd_kafka_fatal_error(rk, why, sizeof why);
        self->noteConnectionError(QString::fromUtf8(why), true);
        return;
    }
    if (classifyDelivery(code) == DeliveryClass::ConnectionWide)
        self->noteConnectionError(QString::fromUtf8(reason), false);
}

void KafkaPublisher::noteConnectionError(const QString& why, bool isFatal)
{
    QMutexLocker lock(&m_mutex);
    m_connectionError = why;
    m_connectionDown = true;
    if (isFatal)
        m_fatal = true;
}

QString KafkaPublisher::connectionError() const
{
    QMutexLocker lock(&m_mutex);
    return m_connectionError;
}

void KafkaPublisher::onDelivery(rd_kafka_t*, const rd_kafka_message_t* m, void* opaque)
{
    // On the publisher's delivery thread.
    auto* self = static_cast<KafkaPublisher*>(opaque);
    auto* slot = static_cast<KafkaBatch::Slot*>(m->_private);
    if (!m->err)
        self->m_connectionDown = false; // a delivery proves the connection works
    DeliveryReport* r = slot->batch->begin(slot->index);
    if (!r)
        return;
    const rd_kafka_msg_status_t persistence = rd_kafka_message_status(m);
    r->possiblyPersisted = persistence != RD_KAFKA_MSG_STATUS_NOT_PERSISTED;
    r->deliveryClass = classifyDelivery(m->err, persistence);
    r->partition = m->partition;
    r->offset = m->offset;
    r->ackedAtMs = QDateTime::currentMSecsSinceEpoch();
    if (m->err)
        r->message = QString::fromUtf8(rd_kafka_err2str(m->err));
    if (slot->batch->finish(slot->index))
        self->batchCompleted();
}

rd_kafka_resp_err_t KafkaPublisher::topicError(const QString& topic)
{
    constexpr qint64 RecheckMs = 30000;
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    auto it = m_topicChecks.find(topic);
    if (it != m_topicChecks.end() && now - it->checkedAtMs < RecheckMs)
        return it->error;
    TopicCheck check;
    check.checkedAtMs = now;
    rd_kafka_topic_t* rkt = rd_kafka_topic_new(m_rk, topic.toUtf8().constData(), nullptr);
    const struct rd_kafka_metadata* md = nullptr;
    if (rkt && rd_kafka_metadata(m_rk, 0, rkt, &md, 2000) == RD_KAFKA_RESP_ERR_NO_ERROR && md &&
        md->topic_cnt == 1) {
        const rd_kafka_resp_err_t err = md->topics[0].err;
        if (err == RD_KAFKA_RESP_ERR_TOPIC_AUTHORIZATION_FAILED || err == RD_KAFKA_RESP_ERR_TOPIC_EXCEPTION)
            check.error = err;
    }
    if (md)
        rd_kafka_metadata_destroy(md);
    if (rkt)
        rd_kafka_topic_destroy(rkt);
    m_topicChecks.insert(topic, check);
    return check.error;
}

std::unique_ptr<PendingBatch> KafkaPublisher::enqueue(const QVector<BrokerMessage>& messages,
                                                      qint64 queueWaitMs)
{
    auto batch = std::make_unique<KafkaBatch>(int(messages.size()));
    QElapsedTimer waited;
    waited.start();
    for (int i = 0; i < messages.size(); ++i) {
        const BrokerMessage& msg = messages.at(i);
        batch->opaques[size_t(i)] = KafkaBatch::Slot{batch.get(), i};
        if (const QString invalid = TopicName::kafkaProblem(msg.topic); !invalid.isEmpty()) {
            DeliveryReport& r = *batch->begin(i); // never handed to librdkafka: no callback for it
            r.deliveryClass = DeliveryClass::Deterministic;
            r.message = invalid;
            r.ackedAtMs = QDateTime::currentMSecsSinceEpoch();
            if (batch->finish(i))
                batchCompleted();
            continue;
        }
        const QByteArray topic = msg.topic.toUtf8();
        rd_kafka_resp_err_t err = topicError(msg.topic);
        bool queueFull = false;
        while (err == RD_KAFKA_RESP_ERR_NO_ERROR) {
            rd_kafka_headers_t* headers = rd_kafka_headers_new(msg.headers.size());
            for (const BrokerHeader& h : msg.headers)
                rd_kafka_header_add(headers, h.name.constData(), h.name.size(), h.value.constData(),
                                    h.value.size());
            const rd_kafka_resp_err_t produced = rd_kafka_producev(
                m_rk, RD_KAFKA_V_TOPIC(topic.constData()),
                RD_KAFKA_V_KEY(msg.key.isNull() ? nullptr : const_cast<char*>(msg.key.constData()),
                               size_t(msg.key.size())), // a null key stays "no key"
                RD_KAFKA_V_VALUE(const_cast<char*>(msg.payload.constData()), size_t(msg.payload.size())),
                RD_KAFKA_V_MSGFLAGS(RD_KAFKA_MSG_F_COPY), RD_KAFKA_V_HEADERS(headers),
                RD_KAFKA_V_OPAQUE(&batch->opaques[size_t(i)]), RD_KAFKA_V_END);
            if (produced == RD_KAFKA_RESP_ERR_NO_ERROR)
                break; // the headers now belong to the message
            rd_kafka_headers_destroy(headers);
            if (produced != RD_KAFKA_RESP_ERR__QUEUE_FULL) {
                err = produced;
                break;
            }
            const qint64 left = queueWaitMs - waited.elapsed();
            if (left <= 0) { // the caller's time is up (e.g. its lease): give the rest back
                err = produced;
                queueFull = true;
                break;
            }
            poll(int(std::min<qint64>(100, left))); // let the queue drain, then try again
        }
        if (err != RD_KAFKA_RESP_ERR_NO_ERROR) {
            DeliveryReport& r = *batch->begin(i); // never handed to librdkafka: no callback for it
            r.deliveryClass = classifyDelivery(err);
            r.message = queueFull ? QStringLiteral("not queued: librdkafka's queue stayed full for %1 ms "
                                                   "(queue.buffering.max.messages/kbytes)")
                                        .arg(queueWaitMs)
                                  : QString::fromUtf8(rd_kafka_err2str(err));
            r.notQueued = queueFull;
            if (queueFull)
                batch->countNotQueued();
            r.ackedAtMs = QDateTime::currentMSecsSinceEpoch();
            if (batch->finish(i))
                batchCompleted();
        }
    }
    return batch;
}

void KafkaPublisher::await(PendingBatch& batch, qint64 timeoutMs)
{
    waitFor(timeoutMs, [&] { return batch.outstanding() == 0; });
    // Past the deadline (message.timeout.ms is below it, so this is a safety net): unknown outcome.
    for (int i = 0; i < batch.size(); ++i) {
        if (DeliveryReport* r = batch.begin(i)) {
            r->possiblyPersisted = true;
            r->deliveryClass = DeliveryClass::UnknownOutcome;
            r->message = QStringLiteral("no delivery report before the deadline");
            (void)batch.finish(i);
        }
    }
}

Status KafkaPublisher::probe(int timeoutMs)
{
    const struct rd_kafka_metadata* md = nullptr;
    const rd_kafka_resp_err_t err = rd_kafka_metadata(m_rk, 0, nullptr, &md, timeoutMs);
    if (md)
        rd_kafka_metadata_destroy(md);
    if (err != RD_KAFKA_RESP_ERR_NO_ERROR)
        return Error::runtime(
            QStringLiteral("Kafka unreachable: %1").arg(QString::fromUtf8(rd_kafka_err2str(err))));
    if (!m_fatal)
        m_connectionDown = false;
    return {};
}

} // namespace outbox
