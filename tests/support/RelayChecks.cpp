#include "tests/support/RelayChecks.h"

#include "core/broker/kafka/EmbeddedBroker.h"
#include "core/db/Database.h"
#include "core/db/EventStore.h"
#include "tests/support/TopicReader.h"

#include <QSet>

namespace outbox::test {

qint64 countStatus(Database& db, const char* status)
{
    auto c = EventStore(db).counts();
    if (!c)
        qFatal("%s", qPrintable(c.message()));
    return c->byStatus.value(QLatin1String(status));
}

std::unique_ptr<EmbeddedBroker> startOrderBroker()
{
    auto b = EmbeddedBroker::start(1);
    if (!b || !(*b)->createTopic(QStringLiteral("order"), 6))
        qFatal("cannot start the embedded broker");
    return std::move(b).value();
}

int duplicatesOnTopic(Database& db, const QString& bootstrap, int events)
{
    const auto messages = readTopic(bootstrap, QStringLiteral("order"), -1, 4000, 180000);
    QSet<QByteArray> onTopic;
    for (const ConsumedMessage& m : messages)
        onTopic.insert(m.headers.value("event_id"));
    auto q = db.exec(QStringLiteral("SELECT event_id FROM {events}"));
    if (!q)
        qFatal("%s", qPrintable(q.message()));
    int missing = 0;
    while (q->next())
        missing += onTopic.contains(q->value(0).toString().toUtf8()) ? 0 : 1;
    if (missing != 0)
        qWarning("%d event_id(s) missing from the topic", missing);
    return missing == 0 && onTopic.size() == events ? int(messages.size()) - events : -1;
}

} // namespace outbox::test
