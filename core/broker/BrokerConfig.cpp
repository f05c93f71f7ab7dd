#include "core/broker/BrokerConfig.h"

#include "core/config/Config.h"

#include <QFile>

namespace outbox {

Status brokerFromConfig(const config::Config& config, BrokerUrl::Kind& kind, QString& bootstrap,
                        AmqpOptions& amqp)
{
    const QString urlKey = QStringLiteral("broker.url");
    const QString bootstrapKey = QStringLiteral("kafka.bootstrap");
    kind = BrokerUrl::Kind::Kafka;
    bootstrap = config.value(bootstrapKey);
    amqp.exchange = config.value(QStringLiteral("amqp.exchange"));
    amqp.window = int(config.integer(QStringLiteral("amqp.window")));
    amqp.confirmTimeoutMs = config.integer(QStringLiteral("amqp.confirm_timeout_ms"));
    amqp.caFile = config.value(QStringLiteral("amqp.ca_file"));
    amqp.queue = config.value(QStringLiteral("consumer.queue"));
    const QString text = config.value(urlKey);
    if (text.isEmpty())
        return {};
    // --kafka-bootstrap is a synonym of --broker kafka://…: of the two, the one given with more weight wins.
    if (config.isSet(bootstrapKey) && int(config.source(bootstrapKey).kind) > int(config.source(urlKey).kind))
        return {};
    auto url = BrokerUrl::parse(text);
    if (!url)
        return config.located(urlKey, url.error());
    kind = url->kind;
    if (url->kind == BrokerUrl::Kind::Kafka) {
        bootstrap = url->bootstrap;
        return {};
    }
    if (!url->password.isEmpty() && config.source(urlKey).kind == config::Source::Flag)
        return config.located(
            urlKey, Error::usage(QStringLiteral("a password does not belong on the command line (other "
                                                "users see it in the process list): give it in "
                                                "OUTBOX_BROKER_PASSWORD or [amqp] password_file")));
    if (url->password.isEmpty())
        url->password = config.value(QStringLiteral("broker.password"));
    const QString passwordFile = config.value(QStringLiteral("amqp.password_file"));
    if (url->password.isEmpty() && !passwordFile.isEmpty()) {
        QFile file(passwordFile);
        if (!file.open(QIODevice::ReadOnly))
            return config.located(
                QStringLiteral("amqp.password_file"),
                Error::usage(QStringLiteral("cannot read %1: %2").arg(passwordFile, file.errorString())));
        url->password = QString::fromUtf8(file.readLine(4096)).trimmed();
    }
    if (url->password.isEmpty() && url->user == QLatin1String("guest"))
        url->password = QStringLiteral("guest"); // RabbitMQ's own default user (loopback only)
    amqp.url = *url;
    return {};
}

QString configuredBrokerUrl(const config::Config& config)
{
    BrokerUrl url;
    AmqpOptions amqp;
    if (!brokerFromConfig(config, url.kind, url.bootstrap, amqp))
        return {}; // the relay reports an invalid broker configuration when it starts
    url.bootstrap = url.bootstrap.trimmed();
    if (!amqp.url.host.isEmpty())
        return amqp.url.redacted();
    return url.bootstrap.isEmpty() ? QString() : url.redacted();
}

} // namespace outbox
