// Issue 36 M3 in the web console, in a real headless Chromium with real clicks and keys: 25 dead
// letters of one group with the same typo are repaired by one group edit (Edit group… → the change
// → Preview with every letter's diff → reason → the count typed → audited chunks) and replayed with
// the group's Replay group…; the real `outboxctl dlq replay --deliver` then produces the repaired
// messages to the embedded broker.
#include "core/broker/kafka/EmbeddedBroker.h"
#include "core/db/DeadLetterStore.h"
#include "tests/support/OutboxctlProcess.h"
#include "tests/support/TestDatabases.h"
#include "tests/support/TopicReader.h"
#include "tests/web/ChromiumPage.h"
#include "tests/web/ConsoleView.h"
#include "ui/web/WebServer.h"
#include "ui/web/http/AccessControl.h"

#include <QStandardPaths>
#include <QTest>

using namespace outbox;
using namespace outbox::test;
using namespace outbox::web;

namespace {

const QByteArray OperatorSecret = "group-edit-operator-secret";
constexpr int Letters = 25;

} // namespace

class TestGroupEditWeb : public QObject
{
    Q_OBJECT

private:
    // The web server over `db` with one operator token; null when it did not start.
    static std::unique_ptr<WebServer> startServer(Database& db)
    {
        WebConfig config;
        config.port = 0;
        config.sampleIntervalMs = 500;
        config.tokens = {ApiToken{QStringLiteral("alice-oncall"), Role::Operator,
                                  AccessControl::hashToken(OperatorSecret)}};
        auto server = std::make_unique<WebServer>(config, DatabaseTarget(db.url(), QString()));
        return server->start().ok() ? std::move(server) : nullptr;
    }

    // The console at `base` in Chromium, signed in with the operator token, on its Events view.
    static bool openAsOperator(ChromiumPage& page, ConsoleView& view, const QString& base)
    {
        QString error;
        if (!page.open(base + QStringLiteral("/console/#token=") + QString::fromUtf8(OperatorSecret),
                       &error)) {
            qWarning("the console did not open: %s", qPrintable(error));
            return false;
        }
        return view.ready(QStringLiteral("events"));
    }

private slots:
    void repairsAndReplaysTheGroup()
    {
        QVERIFY2(!QStandardPaths::findExecutable(QStringLiteral("chromium")).isEmpty(),
                 "chromium is not installed (installer/install-deps.sh installs it)");
        auto db = TestDatabases::fresh(QStringLiteral("postgresql"),
                                       TestDatabases::uniqueName(QStringLiteral("grpweb")));
        for (int i = 0; i < Letters; ++i) {
            DeadLetter letter;
            letter.consumerName = QStringLiteral("inventory");
            letter.eventId = QStringLiteral("e-web-%1").arg(i);
            letter.topic = QStringLiteral("orders");
            letter.headers = R"({"schema_version":"1"})";
            letter.payload = QStringLiteral("{\"order_id\":\"o%1\",\"sku\":\"SKU-l\",\"quantity\":%2}")
                                 .arg(i)
                                 .arg(i + 1)
                                 .toUtf8();
            letter.error = QStringLiteral("unknown SKU SKU-l");
            QVERIFY(DeadLetterStore(*db).insert(letter).ok());
        }
        const auto server = startServer(*db);
        QVERIFY(server);
        QString base = server->baseUrl().toString();
        base.chop(1);

        ChromiumPage page;
        ConsoleView view(page);
        QVERIFY(openAsOperator(page, view, base));
        page.navigate(base + QStringLiteral("/console/#/dl-groups"));
        QVERIFY(view.ready(QStringLiteral("dl-groups")));
        QCOMPARE(view.count(QStringLiteral("#dl-groups tbody tr")), 1);

        // Edit group…: set sku to "SKU-1", previewed letter by letter.
        QVERIFY(page.click(QStringLiteral("#dl-groups .act-edit-group")));
        QVERIFY(page.waitFor(QStringLiteral("document.getElementById('group-edit-path')")));
        QVERIFY(page.type(QStringLiteral("#group-edit-path"), QStringLiteral("sku")));
        QVERIFY(page.type(QStringLiteral("#group-edit-to"), QStringLiteral("\"SKU-1\"")));
        QVERIFY(page.click(QStringLiteral("#group-edit-preview")));
        QVERIFY(page.waitFor(
            QStringLiteral("document.querySelectorAll('#group-edit-diffs li').length === %1").arg(Letters),
            15000));
        QCOMPARE(view.count(QStringLiteral("#group-edit-diffs li.diff-add")), Letters);
        QVERIFY2(view.text(QStringLiteral("#group-edit-diffs li .difference"))
                     .contains(QStringLiteral("sku: \"SKU-l\" \u2192 \"SKU-1\"")),
                 qPrintable(view.text(QStringLiteral("#group-edit-diffs li .difference"))));
        QCOMPARE(countRows(*db, QStringLiteral("{dead_letters}"), QStringLiteral("edit_count > 0")),
                 qint64(0));
        // A reason and core's phrase ("edit 25", the API's preview.confirmation) typed: only then can it
        // run; the verb alone does not confirm.
        QVERIFY(page.type(QStringLiteral("#action-reason"), QStringLiteral("SKU typo: SKU-l is SKU-1")));
        QCOMPARE(page.evaluate(QStringLiteral("String(document.getElementById('action-run').disabled)")),
                 QStringLiteral("true"));
        QCOMPARE(page.evaluate(QStringLiteral("document.getElementById('action-confirm').placeholder")),
                 QStringLiteral("edit %1").arg(Letters));
        QVERIFY(page.type(QStringLiteral("#action-confirm"), QStringLiteral("edit")));
        QCOMPARE(page.evaluate(QStringLiteral("String(document.getElementById('action-run').disabled)")),
                 QStringLiteral("true"));
        QVERIFY(page.type(QStringLiteral("#action-confirm"), QStringLiteral(" %1").arg(Letters)));
        QVERIFY(page.waitFor(QStringLiteral("!document.getElementById('action-run').disabled")));
        QVERIFY(page.click(QStringLiteral("#action-run")));
        QVERIFY(page.waitFor(QStringLiteral("document.getElementById('action-affected')"), 15000));
        QCOMPARE(view.text(QStringLiteral("#action-affected")),
                 QStringLiteral("Edited %1 dead letter(s) in 1 audited chunk(s).").arg(Letters));
        QCOMPARE(
            countRows(*db, QStringLiteral("{dead_letters}"),
                      QStringLiteral("status = 'NEW' AND edit_count = 1 AND edited_by = 'alice-oncall' AND "
                                     "payload LIKE '%\"sku\":\"SKU-1\"%'")),
            qint64(Letters));
        QCOMPARE(countRows(*db, QStringLiteral("{audit}"),
                           QStringLiteral("action = 'dlq.edit_group' AND actor = 'alice-oncall' AND reason = "
                                          "'SKU typo: SKU-l is SKU-1'")),
                 qint64(1));
        QVERIFY(page.click(QStringLiteral("#action-close")));

        // Replay group…: the same group, now repaired.
        QVERIFY(view.ready(QStringLiteral("dl-groups")));
        QVERIFY(page.click(QStringLiteral("#dl-groups .act-replay-group")));
        QVERIFY(page.waitFor(QStringLiteral("document.getElementById('action-count')"), 15000));
        QVERIFY(page.type(QStringLiteral("#action-reason"), QStringLiteral("replay after the group repair")));
        if (view.count(QStringLiteral("#action-confirm")) == 1)
            QVERIFY(page.type(QStringLiteral("#action-confirm"), QStringLiteral("replay %1").arg(Letters)));
        QVERIFY(page.waitFor(QStringLiteral("!document.getElementById('action-run').disabled")));
        QVERIFY(page.click(QStringLiteral("#action-run")));
        QTRY_COMPARE_WITH_TIMEOUT(
            countRows(*db, QStringLiteral("{dead_letters}"), QStringLiteral("status = 'REPLAYING'")),
            qint64(Letters), 15000);

        // Delivered by the real process: the messages on the topic carry the repaired payload.
        auto broker = EmbeddedBroker::start(1);
        QVERIFY(broker.ok());
        QVERIFY((*broker)->createTopic(QStringLiteral("orders"), 1).ok());
        OutboxctlOptions options;
        options.extraEnv.insert(QStringLiteral("OUTBOX_DB_PASSWORD"), db->url().password);
        DatabaseUrl url = db->url();
        url.password.clear();
        const OutboxctlRun deliver =
            runOutboxctl({QStringLiteral("dlq"), QStringLiteral("replay"), QStringLiteral("--deliver"),
                          QStringLiteral("--kafka-bootstrap"), (*broker)->bootstrap(), QStringLiteral("--db"),
                          url.redacted()},
                         options);
        QVERIFY2(deliver.exitCode == 0, deliver.err.constData());
        const QVector<ConsumedMessage> read =
            readTopic((*broker)->bootstrap(), QStringLiteral("orders"), Letters);
        QCOMPARE(read.size(), Letters);
        for (const ConsumedMessage& m : read)
            QVERIFY2(m.payload.contains("\"sku\":\"SKU-1\""), m.payload.constData());
        QCOMPARE(countRows(*db, QStringLiteral("{dead_letters}"), QStringLiteral("status = 'REPLAYED'")),
                 qint64(Letters));
    }

    // Issue 40: the Recovery view's "Repair the payloads … first" (the dead-letters finding of a group
    // the consumer refused) opens the same group edit as Edit group… (a command line for the CLI, a
    // button here); the repair it runs is the group's.
    void repairsFromTheRecoveryFinding()
    {
        QVERIFY2(!QStandardPaths::findExecutable(QStringLiteral("chromium")).isEmpty(),
                 "chromium is not installed (installer/install-deps.sh installs it)");
        auto db = TestDatabases::fresh(QStringLiteral("postgresql"),
                                       TestDatabases::uniqueName(QStringLiteral("grprecovery")));
        constexpr int Refused = 4;
        for (int i = 0; i < Refused; ++i) {
            DeadLetter letter;
            letter.consumerName = QStringLiteral("inventory");
            letter.eventId = QStringLiteral("e-rec-%1").arg(i);
            letter.topic = QStringLiteral("orders");
            letter.payload = QStringLiteral("{\"order_id\":\"o%1\",\"sku\":\"SKU-l\"}").arg(i).toUtf8();
            letter.error = QStringLiteral("unknown SKU SKU-l");
            QVERIFY(DeadLetterStore(*db).insert(letter).ok());
        }
        const auto server = startServer(*db);
        QVERIFY(server);
        QString base = server->baseUrl().toString();
        base.chop(1);

        ChromiumPage page;
        ConsoleView view(page);
        QVERIFY(openAsOperator(page, view, base));
        page.navigate(base + QStringLiteral("/console/#/recovery"));
        QVERIFY(view.ready(QStringLiteral("recovery")));
        const QString repair = QStringLiteral("#findings .card[data-id=dead-letters] .act-repair-group");
        QVERIFY(page.waitFor(QStringLiteral("document.querySelector('%1')").arg(repair), 20000));
        QVERIFY2(view.text(repair).startsWith(QLatin1String("Repair the payloads of the 4 dead letter(s)")),
                 qPrintable(view.text(repair)));
        QVERIFY(page.click(repair));
        QVERIFY(page.waitFor(QStringLiteral("document.getElementById('group-edit-path')")));
        QVERIFY2(view.text(QStringLiteral("#action-dialog p.muted")).contains(QLatin1String("inventory")),
                 qPrintable(view.text(QStringLiteral("#action-dialog p.muted"))));
        QVERIFY(page.type(QStringLiteral("#group-edit-path"), QStringLiteral("sku")));
        QVERIFY(page.type(QStringLiteral("#group-edit-to"), QStringLiteral("\"SKU-1\"")));
        QVERIFY(page.click(QStringLiteral("#group-edit-preview")));
        QVERIFY(page.waitFor(
            QStringLiteral("document.querySelectorAll('#group-edit-diffs li.diff-add').length === %1")
                .arg(Refused),
            15000));
        QVERIFY(page.type(QStringLiteral("#action-reason"), QStringLiteral("SKU typo, from the finding")));
        QVERIFY(page.type(QStringLiteral("#action-confirm"), QStringLiteral("edit %1").arg(Refused)));
        QVERIFY(page.waitFor(QStringLiteral("!document.getElementById('action-run').disabled")));
        QVERIFY(page.click(QStringLiteral("#action-run")));
        QVERIFY(page.waitFor(QStringLiteral("document.getElementById('action-affected')"), 15000));
        QCOMPARE(countRows(*db, QStringLiteral("{dead_letters}"),
                           QStringLiteral(
                               "status = 'NEW' AND edit_count = 1 AND payload LIKE '%\"sku\":\"SKU-1\"%'")),
                 qint64(Refused));
        QCOMPARE(
            countRows(*db, QStringLiteral("{audit}"),
                      QStringLiteral("action = 'dlq.edit_group' AND reason = 'SKU typo, from the finding'")),
            qint64(1));
    }
};

QTEST_MAIN(TestGroupEditWeb)
#include "tst_groupeditweb.moc"
