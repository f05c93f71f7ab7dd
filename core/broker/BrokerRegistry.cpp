#include "core/broker/BrokerRegistry.h"

#include "core/broker/BrokerUrl.h"
#include "core/broker/amqp/AmqpBroker.h"
#include "core/broker/kafka/KafkaBroker.h"
#include "core/config/Config.h"

#include <QStringList>

namespace outbox {

namespace {

// One entry per broker: the URL schemes it answers to (the first is what its relays register as
// broker_kind, Broker::scheme()), its name for people, how it is made from its URL (with the
// configuration's sections when there is one) and how a relay registry row becomes its URL again.
struct Entry
{
    QStringList schemes;
    QString name;
    Result<std::unique_ptr<Broker>> (*make)(const QString& url, const config::Config* config);
    QString (*urlFromRow)(const QString& address);
};

// A URL's error, located in the configuration when it came from there.
Error urlError(const Error& error, const config::Config* config)
{
    return config ? config->located(QStringLiteral("broker.url"), error) : error;
}

template <typename B> Result<std::unique_ptr<Broker>> widened(Result<std::unique_ptr<B>> made)
{
    if (!made)
        return made.error();
    return std::unique_ptr<Broker>(std::move(made).value());
}

Result<std::unique_ptr<Broker>> makeKafka(const QString& text, const config::Config* config)
{
    auto bootstrap = KafkaBroker::parseUrl(text);
    if (!bootstrap)
        return urlError(bootstrap.error(), config);
    if (config)
        return widened(KafkaBroker::fromConfig(*config, *bootstrap));
    return std::unique_ptr<Broker>(std::make_unique<KafkaBroker>(*bootstrap));
}

Result<std::unique_ptr<Broker>> makeAmqp(const QString& text, const config::Config* config)
{
    auto url = AmqpUrl::parse(text);
    if (!url)
        return urlError(url.error(), config);
    if (config)
        return widened(AmqpBroker::fromConfig(*config, *url));
    AmqpOptions options;
    options.url = *url;
    return std::unique_ptr<Broker>(std::make_unique<AmqpBroker>(options));
}

const QVector<Entry>& entries()
{
    static const QVector<Entry> all{
        {{QStringLiteral("kafka")}, QStringLiteral("Kafka"), &makeKafka, &KafkaBroker::urlFromRegistryRow},
        {{QStringLiteral("amqp"), QStringLiteral("amqps")},
         QStringLiteral("RabbitMQ"),
         &makeAmqp,
         [](const QString&) { return QString(); }},
    };
    return all;
}

const Entry* entryFor(const QString& scheme)
{
    for (const Entry& e : entries())
        if (e.schemes.contains(scheme))
            return &e;
    return nullptr;
}

Result<std::unique_ptr<Broker>> make(const QString& input, const config::Config* config)
{
    const QString text = input.trimmed();
    auto scheme = BrokerUrl::scheme(text);
    if (!scheme)
        return urlError(scheme.error(), config);
    if (const Entry* e = entryFor(*scheme))
        return e->make(text, config);
    QStringList known;
    for (const Entry& e : entries())
        known << e.schemes;
    const QString last = known.takeLast();
    return urlError(
        BrokerUrl::invalid(text, QStringLiteral("unknown scheme \"%1\" (%2 or %3)")
                                     .arg(scheme->left(40), known.join(QStringLiteral(", ")), last)),
        config);
}

} // namespace

Result<std::unique_ptr<Broker>> BrokerRegistry::fromUrl(const QString& url)
{
    return make(url, nullptr);
}

Result<std::unique_ptr<Broker>> BrokerRegistry::fromConfig(const config::Config& config)
{
    const QString urlKey = QStringLiteral("broker.url");
    const QString bootstrapKey = QStringLiteral("kafka.bootstrap");
    const QString text = config.value(urlKey);
    // --kafka-bootstrap is a synonym of --broker kafka://…: of the two, the one given with more weight wins.
    if (text.isEmpty() || (config.isSet(bootstrapKey) &&
                           int(config.source(bootstrapKey).kind) > int(config.source(urlKey).kind)))
        return widened(KafkaBroker::fromConfig(config, config.value(bootstrapKey)));
    return make(text, &config);
}

QString BrokerRegistry::configuredUrl(const config::Config& config)
{
    auto broker = fromConfig(config);
    return broker ? (*broker)->redactedUrl() : QString(); // the relay reports an invalid configuration
}

std::unique_ptr<Broker> BrokerRegistry::unconfigured()
{
    return std::make_unique<KafkaBroker>();
}

QString BrokerRegistry::describe(const QString& kind, const QString& address)
{
    if (kind.isEmpty())
        return {};
    const Entry* e = entryFor(kind);
    const QString name = e ? e->name : kind;
    return address.isEmpty() ? name : name + QLatin1Char(' ') + address;
}

QString BrokerRegistry::urlFromRegistryRow(const QString& kind, const QString& address)
{
    const Entry* e = entryFor(kind);
    return e && !address.isEmpty() ? e->urlFromRow(address) : QString();
}

} // namespace outbox
