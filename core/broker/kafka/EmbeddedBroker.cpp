#include "core/broker/kafka/EmbeddedBroker.h"

#include "core/broker/TcpForwarder.h"

namespace outbox {
namespace {
constexpr int16_t ProduceApiKey = 0;
void quiet(const rd_kafka_t*, int, const char*, const char*) {}
} // namespace

Result<std::unique_ptr<EmbeddedBroker>> EmbeddedBroker::start(int brokers)
{
    if (brokers < 1 || brokers > 9)
        return Error::usage(QStringLiteral("the embedded broker runs 1 to 9 brokers"));
    std::unique_ptr<EmbeddedBroker> b(new EmbeddedBroker);
    char err[512];
    rd_kafka_conf_t* conf = rd_kafka_conf_new();
    rd_kafka_conf_set_log_cb(conf, &quiet);
    b->m_rk = rd_kafka_new(RD_KAFKA_PRODUCER, conf, err, sizeof err);
    if (!b->m_rk) {
        rd_kafka_conf_destroy(conf);
        return Error::runtime(
            QStringLiteral("cannot start the embedded broker: %1").arg(QString::fromUtf8(err)));
    }
    b->m_cluster = rd_kafka_mock_cluster_new(b->m_rk, brokers);
    if (!b->m_cluster)
        return Error::runtime(QStringLiteral("cannot start the embedded broker (mock cluster)"));
    b->m_bootstrap = QString::fromUtf8(rd_kafka_mock_cluster_bootstraps(b->m_cluster));
    b->m_brokers = brokers;
    return b;
}

EmbeddedBroker::~EmbeddedBroker()
{
    m_bootstrapPort.reset(); // before the brokers it forwards to
    if (m_cluster)
        rd_kafka_mock_cluster_destroy(m_cluster);
    if (m_rk)
        rd_kafka_destroy(m_rk);
}

Status EmbeddedBroker::bootstrapOn(quint16 port)
{
    // The first broker's own address: "127.0.0.1:PORT[,…]".
    bool ok = false;
    const quint16 first =
        m_bootstrap.section(QLatin1Char(','), 0, 0).section(QLatin1Char(':'), -1).toUShort(&ok);
    if (!ok)
        return Error::runtime(QStringLiteral("the embedded broker has no address (%1)").arg(m_bootstrap));
    auto forwarder = TcpForwarder::start(port, first);
    if (!forwarder)
        return Error::runtime(
            QStringLiteral("the embedded broker cannot take port %1: %2").arg(port).arg(forwarder.message()));
    m_bootstrapPort = std::move(forwarder).value();
    m_bootstrap = QStringLiteral("127.0.0.1:%1").arg(m_bootstrapPort->port());
    return {};
}

Status EmbeddedBroker::createTopic(const QString& topic, int partitions, int replication)
{
    const rd_kafka_resp_err_t e = rd_kafka_mock_topic_create(m_cluster, topic.toUtf8().constData(),
                                                             partitions, std::min(replication, m_brokers));
    if (e)
        return Error::runtime(
            QStringLiteral("cannot create topic %1: %2").arg(topic, QString::fromUtf8(rd_kafka_err2str(e))));
    return {};
}

void EmbeddedBroker::setTopicError(const QString& topic, rd_kafka_resp_err_t error)
{
    rd_kafka_mock_topic_set_error(m_cluster, topic.toUtf8().constData(), error);
}

void EmbeddedBroker::pushProduceErrors(const QVector<rd_kafka_resp_err_t>& errors)
{
    rd_kafka_mock_push_request_errors_array(m_cluster, ProduceApiKey, size_t(errors.size()),
                                            errors.constData());
}

void EmbeddedBroker::clearProduceErrors()
{
    rd_kafka_mock_clear_request_errors(m_cluster, ProduceApiKey);
}

void EmbeddedBroker::setBrokerDown(int brokerId)
{
    rd_kafka_mock_broker_set_down(m_cluster, brokerId);
}

void EmbeddedBroker::setBrokerUp(int brokerId)
{
    rd_kafka_mock_broker_set_up(m_cluster, brokerId);
}

void EmbeddedBroker::setAllBrokersDown()
{
    for (int id = 1; id <= m_brokers; ++id)
        setBrokerDown(id);
}

void EmbeddedBroker::setAllBrokersUp()
{
    for (int id = 1; id <= m_brokers; ++id)
        setBrokerUp(id);
}

void EmbeddedBroker::setLatency(int brokerId, int ms)
{
    rd_kafka_mock_broker_set_rtt(m_cluster, brokerId, ms);
}

} // namespace outbox
