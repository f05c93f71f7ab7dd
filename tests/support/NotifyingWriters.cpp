#include "tests/support/NotifyingWriters.h"

#include "core/db/Database.h"

#include <QProcessEnvironment>

namespace outbox::test {

std::vector<std::unique_ptr<QProcess>> startNotifyingWriters(const Database& db, int writers, bool heavy)
{
    const DatabaseUrl& url = db.url();
    const QStringList connection{QStringLiteral("-X"), QStringLiteral("-q"),
                                 QStringLiteral("-h"), url.host,
                                 QStringLiteral("-p"), QString::number(url.port),
                                 QStringLiteral("-U"), url.user,
                                 QStringLiteral("-d"), url.database};
    const QString events = db.dialect().table(QStringLiteral("outbox_events"));
    const QString writer =
        QStringLiteral("DO $w$ DECLARE started timestamptz := clock_timestamp(); BEGIN "
                       "WHILE clock_timestamp() < started + interval '60 seconds' LOOP "
                       "INSERT INTO %1 (event_id, aggregate_type, aggregate_id, event_type, topic, payload) "
                       "VALUES (gen_random_uuid()::text, 'Order', 'o-1', 'OrderPlaced', 'order', '{}'); "
                       "COMMIT; END LOOP; END $w$")
            .arg(events);
    const QString notifier =
        QStringLiteral("DO $h$ DECLARE started timestamptz := clock_timestamp(); BEGIN "
                       "WHILE clock_timestamp() < started + interval '60 seconds' LOOP "
                       "PERFORM pg_notify('outbox_test_heavy', g::text) FROM generate_series(1, 20000) g; "
                       "COMMIT; END LOOP; END $h$");
    std::vector<std::unique_ptr<QProcess>> processes;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    if (!url.password.isEmpty())
        env.insert(QStringLiteral("PGPASSWORD"), url.password);
    env.insert(QStringLiteral("PGAPPNAME"), QStringLiteral("outbox-test-writer"));
    for (int i = heavy ? 0 : 1; i <= writers; ++i) {
        auto p = std::make_unique<QProcess>();
        p->setProcessEnvironment(env);
        p->setProcessChannelMode(QProcess::ForwardedErrorChannel);
        p->start(QStringLiteral("psql"),
                 connection + QStringList{QStringLiteral("-c"), i == 0 ? notifier : writer});
        processes.push_back(std::move(p));
    }
    for (auto& p : processes)
        if (!p->waitForStarted(10000))
            qFatal("psql did not start: %s", qPrintable(p->errorString()));
    return processes;
}

// Ends the writers' sessions (a server runs a DO block on after its client is gone) and their psql.
void stopWriters(Database& db, std::vector<std::unique_ptr<QProcess>>& writers)
{
    (void)db.exec(
        QStringLiteral("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name "
                       "= 'outbox-test-writer' AND datname = current_database()"));
    for (auto& p : writers) {
        p->terminate();
        if (!p->waitForFinished(10000))
            p->kill();
        p->waitForFinished(5000);
    }
    writers.clear();
}

} // namespace outbox::test
