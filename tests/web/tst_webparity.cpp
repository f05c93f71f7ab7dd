// The web console does in the browser what the desktop console does during an incident (issue 25
// item 9), in a real headless Chromium with real clicks and keys on a real SQLite database behind
// a real WebServer: dialogs close when the operator goes to another view, a 150 KB payload stays
// inside its box, a stale relay is forgotten through reason and typed confirmation, the requeue
// preview shows the ordering consequences, a finding's samples link to their events, the Blocked
// view lists blocked aggregates, a dead letter is edited (diff, reason, typed confirmation,
// edit_count conflict) and its page refreshes itself, and a dead-letter group is discarded whole.
#include "core/db/DeadLetterStore.h"
#include "core/db/EventWriter.h"
#include "core/db/RelayStore.h"
#include "core/ops/DeadLetterEditor.h"
#include "tests/support/TestDatabases.h"
#include "tests/web/ChromiumPage.h"
#include "tests/web/ConsoleView.h"
#include "ui/web/WebServer.h"
#include "ui/web/http/AccessControl.h"

#include <QRegularExpression>
#include <QStandardPaths>
#include <QTest>

using namespace outbox;
using namespace outbox::test;
using namespace outbox::web;

namespace {

const QByteArray OperatorSecret = "parity-operator-secret";
const QByteArray ViewerSecret = "parity-viewer-secret";

void run(Database& db, const QString& sql, const QVariantMap& binds = {})
{
    if (!db.exec(sql, binds))
        qFatal("%s failed", qPrintable(sql));
}

QVector<qint64> appendEvents(Database& db, const QString& aggregate, int count,
                             const QByteArray& payload = "{}")
{
    QVector<NewEvent> events;
    for (int i = 0; i < count; ++i) {
        NewEvent e;
        e.eventType = QStringLiteral("OrderChanged");
        e.aggregateType = QStringLiteral("Order");
        e.aggregateId = aggregate;
        e.payload = payload;
        events << e;
    }
    if (!db.beginWrite() || !EventWriter(db, 1024 * 1024).appendBatch(events).ok() || !db.commit())
        qFatal("append failed");
    QVector<qint64> ids;
    auto q = db.exec(QStringLiteral("SELECT id FROM {events} WHERE aggregate_id = :a ORDER BY id"),
                     {{QStringLiteral(":a"), aggregate}});
    while (q && q->next())
        ids << q->value(0).toLongLong();
    return ids;
}

} // namespace

class TestWebParity : public QObject
{
    Q_OBJECT

    std::unique_ptr<Database> m_db;
    std::unique_ptr<WebServer> m_server;
    std::unique_ptr<ChromiumPage> m_page;
    QString m_base;
    qint64 m_blocking = 0; // the FAILED event blocking aggregate Order/O-77
    qint64 m_letter = 0;   // the dead letter edited by editADeadLetterWithItsDiff

    ConsoleView view() { return ConsoleView(*m_page); }
    QString text(const QString& selector) { return view().text(selector); }
    int count(const QString& selector) { return view().count(selector); }
    bool viewReady(const QString& v) { return view().ready(v); }
    bool go(const QString& hash, const QString& v)
    {
        m_page->evaluate(QStringLiteral("location.hash = %1").arg(js(hash)));
        return viewReady(v);
    }
    bool dialogOpen()
    {
        return m_page->evaluate(QStringLiteral("String(document.getElementById('action-dialog').open)")) ==
               QLatin1String("true");
    }

private slots:
    void initTestCase()
    {
        QVERIFY2(!QStandardPaths::findExecutable(QStringLiteral("chromium")).isEmpty(),
                 "chromium is not installed (installer/install-deps.sh installs it)");
        m_db = TestDatabases::fresh(QStringLiteral("sqlite"),
                                    TestDatabases::uniqueName(QStringLiteral("webparity")));
        WebConfig config;
        config.port = 0;
        config.sampleIntervalMs = 300;
        config.findingsIntervalMs = 1000;
        config.tokens = {
            ApiToken{QStringLiteral("olga-oncall"), Role::Operator, AccessControl::hashToken(OperatorSecret)},
            ApiToken{QStringLiteral("vera-viewer"), Role::Viewer, AccessControl::hashToken(ViewerSecret)}};
        config.maskedFields = {QStringLiteral("currency")};
        m_server = std::make_unique<WebServer>(config, DatabaseTarget(m_db->url(), QString()));
        QVERIFY(m_server->start().ok());
        m_base = m_server->baseUrl().toString();
        m_base.chop(1);
        m_page = std::make_unique<ChromiumPage>();
        QString error;
        QVERIFY2(m_page->open(m_base + QStringLiteral("/console/#token=") + QString::fromUtf8(OperatorSecret),
                              &error),
                 qPrintable(error));
        QVERIFY(viewReady(QStringLiteral("events")));
    }

    // a) A dialog opened on one view is gone on the next; a 150 KB payload wraps and scrolls
    // inside its box instead of making the page 1.26M px wide.
    void dialogsCloseAndBigPayloadsStayInTheirBox()
    {
        const QByteArray big = "{\"blob\":\"" + QByteArray(150 * 1024, 'x') + "\",\"note\":\"big\"}";
        const qint64 id = appendEvents(*m_db, QStringLiteral("big-1"), 1, big).first();
        QVERIFY(go(QStringLiteral("#/relays"), QStringLiteral("relays")));
        QVERIFY(go(QStringLiteral("#/event/%1").arg(id), QStringLiteral("event")));
        QVERIFY(text(QStringLiteral("#payload-tree")).contains(QLatin1String("\"big\"")));
        const int viewport = m_page->evaluate(QStringLiteral("String(window.innerWidth)")).toInt();
        QVERIFY(viewport > 0);
        const auto width = [&] {
            return m_page->evaluate(QStringLiteral("String(document.scrollingElement.scrollWidth)")).toInt();
        };
        QVERIFY2(width() <= viewport + 2,
                 qPrintable(QStringLiteral("page %1 px wide, viewport %2").arg(width()).arg(viewport)));
        // The payload box scrolls inside itself: the page is not 100,000 px tall either.
        QVERIFY(
            m_page->evaluate(QStringLiteral("String(document.getElementById('payload-tree').clientHeight)"))
                .toInt() < 800);
        QVERIFY(m_page->evaluate(QStringLiteral("String(document.scrollingElement.scrollHeight)")).toInt() <
                6000);
        // The raw JSON opened: still inside the viewport's width.
        m_page->evaluate(QStringLiteral("document.querySelector('#event-raw').parentElement.open = true"));
        QVERIFY2(width() <= viewport + 2, qPrintable(QString::number(width())));

        // A requeue dialog opened on the event, then the operator goes to the Relays view.
        QVERIFY(m_page->click(QStringLiteral("#act-requeue-one")));
        QVERIFY(m_page->waitFor(QStringLiteral("document.getElementById('action-count')")));
        QVERIFY(dialogOpen());
        // (A modal dialog makes the page behind it inert: the operator leaves with the browser's
        // Back button or by opening a pasted link.)
        m_page->evaluate(QStringLiteral("history.back()"));
        QVERIFY(viewReady(QStringLiteral("relays")));
        QVERIFY(!dialogOpen());
        QCOMPARE(statusOf(*m_db, id), QStringLiteral("PENDING")); // nothing ran
        // A result pane (after a run) is discarded too, and navigating does not re-render twice.
        QVERIFY(go(QStringLiteral("#/event/%1").arg(id), QStringLiteral("event")));
        QVERIFY(m_page->click(QStringLiteral("#act-dead-one")));
        QVERIFY(m_page->waitFor(QStringLiteral("document.getElementById('action-reason')")));
        QVERIFY(m_page->type(QStringLiteral("#action-reason"),
                             QStringLiteral("payload too large for the broker")));
        QVERIFY(m_page->click(QStringLiteral("#action-run")));
        QVERIFY(m_page->waitFor(QStringLiteral("document.getElementById('action-result')")));
        QCOMPARE(statusOf(*m_db, id), QStringLiteral("DEAD"));
        QVERIFY(go(QStringLiteral("#/audit"), QStringLiteral("audit")));
        QVERIFY(!dialogOpen());
        QCOMPARE(count(QStringLiteral("#action-result")), 0);
    }

    // b) A relay that is gone is forgotten from the Relays view (reason, typed confirmation), as
    // `outboxctl relays forget`; a live one is refused with the server's message.
    void forgetAStaleRelay()
    {
        registerRelay(*m_db, QStringLiteral("relay-gone"), 10 * 60 * 1000);
        registerRelay(*m_db, QStringLiteral("relay-live"), 0);
        QVERIFY(go(QStringLiteral("#/relays"), QStringLiteral("relays")));
        QVERIFY(m_page->waitFor(
            QStringLiteral(
                "document.querySelector('#relays tr[data-worker=relay-gone] button.relay-forget-one')"),
            15000));
        QCOMPARE(count(QStringLiteral("#relays tr[data-worker=relay-live] button.relay-forget-one")), 0);
        QVERIFY(m_page->click(QStringLiteral("#relays tr[data-worker=relay-gone] button.relay-forget-one")));
        QVERIFY(m_page->waitFor(QStringLiteral("document.getElementById('action-reason')")));
        QCOMPARE(text(QStringLiteral("#action-title")), QStringLiteral("Forget relays"));
        QVERIFY(m_page->type(QStringLiteral("#action-reason"), QStringLiteral("host retired")));
        QVERIFY(m_page->evaluate(QStringLiteral("String(document.getElementById('action-run').disabled)")) ==
                QLatin1String("true"));
        QVERIFY(m_page->type(QStringLiteral("#action-confirm"), QStringLiteral("forget 1")));
        QVERIFY(m_page->click(QStringLiteral("#action-run")));
        QVERIFY(m_page->waitFor(QStringLiteral("document.getElementById('action-result')")));
        QCOMPARE(text(QStringLiteral("#action-changed")), QStringLiteral("Forgotten: relay-gone"));
        QCOMPARE(countRows(*m_db, QStringLiteral("{relays}"), QStringLiteral("worker_id = 'relay-gone'")),
                 qint64(0));
        QCOMPARE(
            countRows(*m_db, QStringLiteral("{audit}"),
                      QStringLiteral(
                          "action = 'relay.forget' AND actor = 'olga-oncall' AND reason = 'host retired'")),
            qint64(1));
        QVERIFY(m_page->click(QStringLiteral("#action-close")));
        // Verified on the page: the next snapshot no longer lists it.
        QVERIFY(
            m_page->waitFor(QStringLiteral("!document.querySelector('#relays tr[data-worker=relay-gone]') && "
                                           "document.querySelector('#relays tr[data-worker=relay-live]')"),
                            15000));
        // The toolbar's Forget… on a live relay: the server refuses it, nothing is deleted.
        QVERIFY(m_page->click(QStringLiteral("#relays tr[data-worker=relay-live] input.pick")));
        QVERIFY(m_page->click(QStringLiteral("#relay-forget")));
        QVERIFY(m_page->waitFor(QStringLiteral("document.getElementById('action-reason')")));
        QVERIFY(m_page->type(QStringLiteral("#action-reason"), QStringLiteral("wrong one")));
        QVERIFY(m_page->type(QStringLiteral("#action-confirm"), QStringLiteral("forget 1")));
        QVERIFY(m_page->click(QStringLiteral("#action-run")));
        QVERIFY(m_page->waitFor(QStringLiteral("document.querySelector('#action-dialog .error')")));
        QVERIFY2(text(QStringLiteral("#action-dialog .error")).contains(QLatin1String("alive")),
                 qPrintable(text(QStringLiteral("#action-dialog .error"))));
        QCOMPARE(countRows(*m_db, QStringLiteral("{relays}"), QStringLiteral("worker_id = 'relay-live'")),
                 qint64(1));
        QVERIFY(m_page->click(QStringLiteral("#action-close")));
        run(*m_db, QStringLiteral("DELETE FROM {relays}"));
    }

    // c) The requeue (and mark DEAD) preview says what it means in ordering mode: the later
    // events of the aggregate wait for the event, from the API's `ordering`.
    void previewShowsTheOrderingConsequences()
    {
        const QVector<qint64> ids = appendEvents(*m_db, QStringLiteral("O-77"), 4);
        QCOMPARE(ids.size(), 4);
        m_blocking = ids.first();
        forceStatus(*m_db, {m_blocking}, QStringLiteral("FAILED"), QStringLiteral("poison pill"));
        // Due for five minutes: the doctor calls it a blocked aggregate after one.
        run(*m_db,
            QStringLiteral(
                "UPDATE {events} SET created_at = %1, available_at = %1 WHERE aggregate_id = 'O-77'")
                .arg(m_db->dialect().nowPlusMillis(QStringLiteral(":age"))),
            {{QStringLiteral(":age"), -5 * 60 * 1000}});
        QVERIFY(go(QStringLiteral("#/event/%1").arg(m_blocking), QStringLiteral("event")));
        QVERIFY(m_page->click(QStringLiteral("#act-requeue-one")));
        QVERIFY(m_page->waitFor(QStringLiteral("document.getElementById('action-count')")));
        QVERIFY2(text(QStringLiteral("#action-consequences"))
                     .contains(QStringLiteral("Event #%1 is sent again first: 3 later event(s) of Order/O-77")
                                   .arg(m_blocking)),
                 qPrintable(text(QStringLiteral("#action-dialog"))));
        QVERIFY(m_page->click(QStringLiteral("#action-close")));
        QVERIFY(m_page->click(QStringLiteral("#act-dead-one")));
        QVERIFY(m_page->waitFor(QStringLiteral("document.getElementById('action-count')")));
        QVERIFY2(text(QStringLiteral("#action-consequences"))
                     .contains(QStringLiteral("Event #%1 will never be sent: 3 later event(s) of Order/O-77")
                                   .arg(m_blocking)),
                 qPrintable(text(QStringLiteral("#action-dialog"))));
        QVERIFY(m_page->click(QStringLiteral("#action-close")));
        // An event with nothing behind it: no consequences block.
        const qint64 lone = appendEvents(*m_db, QStringLiteral("O-lone"), 1).first();
        forceStatus(*m_db, {lone}, QStringLiteral("FAILED"), QStringLiteral("other"));
        QVERIFY(go(QStringLiteral("#/event/%1").arg(lone), QStringLiteral("event")));
        QVERIFY(m_page->click(QStringLiteral("#act-requeue-one")));
        QVERIFY(m_page->waitFor(QStringLiteral("document.getElementById('action-count')")));
        QCOMPARE(count(QStringLiteral("#action-consequences")), 0);
        QVERIFY(m_page->click(QStringLiteral("#action-close")));
        QCOMPARE(statusOf(*m_db, m_blocking), QStringLiteral("FAILED"));
    }

    // d) The blocked-aggregates finding links its sample events and the Blocked view; the view
    // lists the aggregate whole and requeues its blocking event (preview with consequences,
    // reason), after which it lists nothing.
    void findingSamplesAndTheBlockedView()
    {
        QVERIFY(m_blocking > 0);
        QVERIFY(go(QStringLiteral("#/recovery"), QStringLiteral("recovery")));
        const QString sample =
            QStringLiteral(".card[data-id=blocked-aggregates] a.finding-sample[data-sample='%1']")
                .arg(m_blocking);
        QVERIFY2(m_page->waitFor(QStringLiteral("document.querySelector(%1)").arg(js(sample)), 20000),
                 qPrintable(text(QStringLiteral("#findings"))));
        QVERIFY(m_page->click(sample));
        QVERIFY(viewReady(QStringLiteral("event")));
        QCOMPARE(text(QStringLiteral("#event-fields dd[data-field=id]")), QString::number(m_blocking));
        QVERIFY(go(QStringLiteral("#/recovery"), QStringLiteral("recovery")));
        QVERIFY(m_page->waitFor(
            QStringLiteral("document.querySelector('.card[data-id=blocked-aggregates] a.finding-blocked')"),
            20000));
        // The doctor runs every second here: a card whose finding did not change stays the same
        // element (one rebuilt between the press and the release of a click swallowed the click).
        m_page->evaluate(QStringLiteral(
            "window.blockedCard = document.querySelector('.card[data-id=blocked-aggregates]'), 'kept'"));
        QTest::qWait(2500);
        QCOMPARE(m_page->evaluate(QStringLiteral("String(document.querySelector('.card[data-id=blocked-"
                                                 "aggregates]') === window.blockedCard)")),
                 QStringLiteral("true"));
        QVERIFY(m_page->click(QStringLiteral(".card[data-id=blocked-aggregates] a.finding-blocked")));
        QVERIFY(viewReady(QStringLiteral("blocked")));
        QCOMPARE(view().rowIds(QStringLiteral("blocked")), QStringList{QString::number(m_blocking)});
        const QString row = QStringLiteral("#blocked tr[data-id='%1']").arg(m_blocking);
        QCOMPARE(text(row + QStringLiteral(" td.aggregate")), QStringLiteral("Order/O-77"));
        QVERIFY(text(row).contains(QLatin1String("poison pill")));
        QVERIFY(m_page->click(row + QStringLiteral(" button.act-requeue-blocking")));
        QVERIFY(m_page->waitFor(QStringLiteral("document.getElementById('action-reason')")));
        QVERIFY(text(QStringLiteral("#action-consequences"))
                    .contains(QLatin1String("3 later event(s) of Order/O-77")));
        QVERIFY(m_page->type(QStringLiteral("#action-reason"), QStringLiteral("consumer schema fixed")));
        QVERIFY(m_page->click(QStringLiteral("#action-run")));
        QVERIFY(m_page->waitFor(QStringLiteral("document.getElementById('action-result')")));
        QCOMPARE(text(QStringLiteral("#action-affected")), QStringLiteral("1 row(s) changed"));
        QCOMPARE(statusOf(*m_db, m_blocking), QStringLiteral("PENDING"));
        QVERIFY(m_page->click(QStringLiteral("#action-close")));
        // Verified: the view reloads and nothing is blocked any more.
        QVERIFY(m_page->waitFor(QStringLiteral("document.getElementById('blocked-empty')")));
    }

    // e) Dead letter Edit…: the operator changes the payload, reviews the diff of old and new,
    // gives a reason and saves (PATCH, edit_count); an edit made meanwhile elsewhere is refused
    // (409, nothing saved) and the page reads the letter again; the page follows changes made
    // elsewhere without a reload.
    void editADeadLetterWithItsDiff()
    {
        DeadLetter letter;
        letter.consumerName = QStringLiteral("billing");
        letter.topic = QStringLiteral("invoices");
        letter.eventId = QStringLiteral("inv-9");
        letter.payload = QByteArrayLiteral("{\"invoice\":\"INV-9\",\"amount\":-12,\"currency\":\"EUR\"}");
        letter.headers = QByteArrayLiteral("{\"trace_id\":\"t-9\"}");
        letter.error = QStringLiteral("amount must be positive");
        const qint64 id = DeadLetterStore(*m_db).insert(letter).value();
        m_letter = id;
        QVERIFY(go(QStringLiteral("#/dead-letter/%1").arg(id), QStringLiteral("dead-letter")));
        m_page->evaluate(QStringLiteral("window.sameDocument = 'yes'"));
        const auto replacePayload = [&](const QString& from, const QString& to) {
            m_page->evaluate(
                QStringLiteral("(() => { const p = document.getElementById('edit-payload'); "
                               "window.editedText = p.value.replace(%1, %2); p.focus(); p.select(); })()")
                    .arg(js(from), js(to)));
            m_page->call(QStringLiteral("Input.insertText"),
                         {{QStringLiteral("text"), m_page->evaluate(QStringLiteral("window.editedText"))}});
        };

        QVERIFY(m_page->click(QStringLiteral("#act-edit-one")));
        QVERIFY(m_page->waitFor(QStringLiteral("document.getElementById('edit-payload')")));
        QVERIFY(text(QStringLiteral("#action-title")).contains(QString::number(id)));
        replacePayload(QStringLiteral("\"amount\": -12"), QStringLiteral("\"amount\": 12"));
        QVERIFY(m_page->click(QStringLiteral("#edit-review")));
        QVERIFY(m_page->waitFor(QStringLiteral("document.getElementById('edit-diff')")));
        QCOMPARE(m_page->evaluate(QStringLiteral("document.getElementById('edit-diff').dataset.changed")),
                 QStringLiteral("2"));
        QCOMPARE(text(QStringLiteral("#edit-diff .diff-del")), QStringLiteral("-   \"amount\": -12,"));
        QCOMPARE(text(QStringLiteral("#edit-diff .diff-add")), QStringLiteral("+   \"amount\": 12,"));
        QCOMPARE(m_page->evaluate(QStringLiteral("String(document.getElementById('action-run').disabled)")),
                 QStringLiteral("true")); // no reason yet
        QVERIFY(
            m_page->type(QStringLiteral("#action-reason"), QStringLiteral("sign flipped by the producer")));

        // Meanwhile another operator edits the headers: the letter is at edit 1.
        DeadLetterEdit other;
        other.headers = QJsonObject{{QStringLiteral("trace_id"), QStringLiteral("t-9")},
                                    {QStringLiteral("x-checked"), QStringLiteral("1")}};
        other.baseEditCount = 0;
        other.reason = QStringLiteral("marked checked");
        other.actor = QStringLiteral("someone-else");
        QVERIFY(DeadLetterEditor(*m_db).edit(id, other).ok());
        // The open page notices (live), without pulling the dialog away.
        QVERIFY(m_page->waitFor(QStringLiteral("!document.getElementById('letter-changed').hidden"), 15000));
        QVERIFY(dialogOpen());
        QVERIFY(m_page->click(QStringLiteral("#action-run")));
        QVERIFY(m_page->waitFor(QStringLiteral("document.getElementById('edit-reload')")));
        QVERIFY2(text(QStringLiteral("#action-dialog .error")).contains(QLatin1String("edited meanwhile")),
                 qPrintable(text(QStringLiteral("#action-dialog .error"))));
        QVERIFY(DeadLetterStore(*m_db).find(id)->payload.contains("-12")); // nothing saved
        QVERIFY(m_page->click(QStringLiteral("#edit-reload")));
        QVERIFY(m_page->waitFor(
            QStringLiteral("document.querySelector('#letter-fields dd[data-field=edit_count]')"
                           ".textContent === '1'")));
        QVERIFY(text(QStringLiteral("#headers-tree")).contains(QLatin1String("x-checked")));

        // Again, from the current version: saved, audited, the page shows the new payload.
        QVERIFY(m_page->click(QStringLiteral("#act-edit-one")));
        QVERIFY(m_page->waitFor(QStringLiteral("document.getElementById('edit-payload')")));
        replacePayload(QStringLiteral("\"amount\": -12"), QStringLiteral("\"amount\": 12"));
        QVERIFY(m_page->click(QStringLiteral("#edit-review")));
        QVERIFY(m_page->waitFor(QStringLiteral("document.getElementById('edit-diff')")));
        QVERIFY(
            m_page->type(QStringLiteral("#action-reason"), QStringLiteral("sign flipped by the producer")));
        QVERIFY(m_page->click(QStringLiteral("#action-run")));
        QVERIFY(m_page->waitFor(QStringLiteral("document.getElementById('action-result')")));
        QCOMPARE(text(QStringLiteral("#action-affected")),
                 QStringLiteral("Saved: dead letter %1 is at edit 2.").arg(id));
        QCOMPARE(DeadLetterStore(*m_db).find(id)->payload,
                 QByteArrayLiteral("{\"invoice\":\"INV-9\",\"amount\":12,\"currency\":\"EUR\"}"));
        QCOMPARE(countRows(*m_db, QStringLiteral("{audit}"),
                           QStringLiteral("action = 'dlq.edit' AND actor = 'olga-oncall' AND reason = 'sign "
                                          "flipped by the producer'")),
                 qint64(1));
        QVERIFY(m_page->click(QStringLiteral("#action-close")));
        QVERIFY(m_page->waitFor(
            QStringLiteral("document.querySelector('#letter-fields dd[data-field=edit_count]')"
                           ".textContent === '2'")));
        QVERIFY(text(QStringLiteral("#payload-tree")).contains(QLatin1String("amount: 12")));

        // Discarded elsewhere: the open page follows without a reload; Edit… is no longer offered.
        run(*m_db, QStringLiteral("UPDATE {dead_letters} SET status = 'DISCARDED' WHERE id = :id"),
            {{QStringLiteral(":id"), id}});
        QVERIFY(m_page->waitFor(
            QStringLiteral(
                "document.querySelector('#letter-fields dd[data-field=status]').textContent === 'DISCARDED'"),
            15000));
        QCOMPARE(m_page->evaluate(QStringLiteral("window.sameDocument")), QStringLiteral("yes"));
        QCOMPARE(m_page->evaluate(QStringLiteral("String(document.getElementById('act-edit-one').disabled)")),
                 QStringLiteral("true"));
    }

    // f) The Dead-letter groups view lists the groups of GET /api/v1/dead-letters/groups; Discard…
    // of one group goes through preview, reason and typed confirmation and changes exactly that
    // group's letters, not another group of the same consumer whose error text shares a substring.
    void discardADeadLetterGroup()
    {
        const auto letters = [&](const QString& error, int n) {
            QVector<qint64> ids;
            for (int i = 0; i < n; ++i) {
                DeadLetter letter;
                letter.consumerName = QStringLiteral("catalog");
                letter.topic = QStringLiteral("orders");
                letter.eventId = QStringLiteral("ord-%1-%2").arg(error.right(2)).arg(i);
                letter.payload = QByteArrayLiteral("{\"sku\":1}");
                letter.error = error;
                ids << DeadLetterStore(*m_db).insert(letter).value();
            }
            return ids;
        };
        const QVector<qint64> first = letters(QStringLiteral("unknown SKU SKU-1"), 3);
        const QVector<qint64> other = letters(QStringLiteral("unknown SKU sku-27"), 1);
        QVERIFY(m_page->click(QStringLiteral("#nav a[data-view=dl-groups]")));
        QVERIFY(viewReady(QStringLiteral("dl-groups")));
        const QString row =
            QStringLiteral("#dl-groups tr[data-consumer=catalog][data-fingerprint=\"unknown SKU "
                           "SKU-<n>\"]");
        const QString otherRow =
            QStringLiteral("#dl-groups tr[data-consumer=catalog][data-fingerprint=\"unknown "
                           "SKU sku-<n>\"]");
        QCOMPARE(count(row), 1);
        QCOMPARE(count(otherRow), 1);
        QVERIFY(text(row).contains(QLatin1String("unknown SKU SKU-1")));
        QCOMPARE(text(row + QStringLiteral(" td.num")), QStringLiteral("3"));
        QCOMPARE(text(otherRow + QStringLiteral(" td.num")), QStringLiteral("1"));

        QVERIFY(m_page->click(row + QStringLiteral(" button.act-discard-group")));
        QVERIFY(m_page->waitFor(QStringLiteral("document.getElementById('action-reason')")));
        QCOMPARE(text(QStringLiteral("#action-title")), QStringLiteral("Discard dead letters"));
        QVERIFY2(text(QStringLiteral("#action-dialog")).contains(QLatin1String("catalog")),
                 qPrintable(text(QStringLiteral("#action-dialog"))));
        QCOMPARE(text(QStringLiteral("#action-count")), QStringLiteral("3 row(s) will be changed."));
        QCOMPARE(count(QStringLiteral("#action-sample tbody tr")), 3);
        QVERIFY(m_page->type(QStringLiteral("#action-reason"), QStringLiteral("SKU-1 was withdrawn")));
        // Bulk work: the typed confirmation first.
        QCOMPARE(m_page->evaluate(QStringLiteral("String(document.getElementById('action-run').disabled)")),
                 QStringLiteral("true"));
        QVERIFY(m_page->type(QStringLiteral("#action-confirm"), QStringLiteral("discard 3")));
        QVERIFY(m_page->click(QStringLiteral("#action-run")));
        QVERIFY(m_page->waitFor(QStringLiteral("document.getElementById('action-result')")));
        QCOMPARE(text(QStringLiteral("#action-affected")), QStringLiteral("3 row(s) changed"));
        for (qint64 id : first)
            QCOMPARE(DeadLetterStore(*m_db).find(id)->status, QStringLiteral("DISCARDED"));
        QCOMPARE(DeadLetterStore(*m_db).find(other.first())->status, QStringLiteral("NEW"));
        QCOMPARE(countRows(*m_db, QStringLiteral("{audit}"),
                           QStringLiteral("action = 'dlq.discard' AND actor = 'olga-oncall' AND reason = "
                                          "'SKU-1 was withdrawn' AND affected_count = 3")),
                 qint64(1));
        // Verified on the page: after closing, the view lists the other group only.
        QVERIFY(m_page->click(QStringLiteral("#action-close")));
        QVERIFY(m_page->waitFor(QStringLiteral("!document.querySelector(%1) && document.querySelector(%2)")
                                    .arg(js(row), js(otherRow))));
        // The DISCARDED statuses list the discarded group.
        QVERIFY(go(QStringLiteral("#/dl-groups?status=DISCARDED"), QStringLiteral("dl-groups")));
        QCOMPARE(text(row + QStringLiteral(" td.num")), QStringLiteral("3"));
    }

    // A viewer sees the same views read-only: no Edit…, Forget… or blocked-event actions, and the
    // masked fields masked.
    void viewerGetsNoActions()
    {
        QVERIFY(m_letter > 0);
        registerRelay(*m_db, QStringLiteral("relay-old"), 10 * 60 * 1000);
        const QVector<qint64> ids = appendEvents(*m_db, QStringLiteral("O-88"), 2);
        forceStatus(*m_db, {ids.first()}, QStringLiteral("FAILED"), QStringLiteral("poison"));
        // Operators see the masked field in the clear.
        QVERIFY(go(QStringLiteral("#/dead-letter/%1").arg(m_letter), QStringLiteral("dead-letter")));
        QVERIFY(text(QStringLiteral("#payload-tree")).contains(QLatin1String("EUR")));
        m_page->navigate(m_base + QStringLiteral("/console/#token=") + QString::fromUtf8(ViewerSecret));
        QVERIFY(viewReady(QStringLiteral("events")));
        QVERIFY(text(QStringLiteral("#who-name")).contains(QLatin1String("vera-viewer")));
        QVERIFY(go(QStringLiteral("#/dead-letter/%1").arg(m_letter), QStringLiteral("dead-letter")));
        QCOMPARE(count(QStringLiteral("#act-edit-one")), 0);
        QVERIFY(text(QStringLiteral("#payload-tree")).contains(QLatin1String("INV-9")));
        QVERIFY(!text(QStringLiteral("#payload-tree")).contains(QLatin1String("EUR")));
        QVERIFY(go(QStringLiteral("#/relays"), QStringLiteral("relays")));
        QVERIFY(m_page->waitFor(QStringLiteral("document.querySelector('#relays tr[data-worker=relay-old]')"),
                                15000));
        QCOMPARE(count(QStringLiteral("#relay-forget")) + count(QStringLiteral("button.relay-forget-one")),
                 0);
        QVERIFY(go(QStringLiteral("#/blocked"), QStringLiteral("blocked")));
        QCOMPARE(view().rowIds(QStringLiteral("blocked")), QStringList{QString::number(ids.first())});
        QCOMPARE(count(QStringLiteral("#blocked button")), 0);
        // Dead-letter groups: listed without Replay…/Discard…, the example and the fingerprint masked.
        DeadLetter letter;
        letter.consumerName = QStringLiteral("fx");
        letter.topic = QStringLiteral("rates");
        letter.payload = QByteArrayLiteral("{}");
        letter.error = QStringLiteral("rate missing for currency=EUR");
        QVERIFY(DeadLetterStore(*m_db).insert(letter).ok());
        QVERIFY(go(QStringLiteral("#/dl-groups"), QStringLiteral("dl-groups")));
        QCOMPARE(count(QStringLiteral("#dl-groups tr[data-consumer=fx]")), 1);
        QVERIFY(
            text(QStringLiteral("#dl-groups tr[data-consumer=fx]")).contains(QLatin1String("rate missing")));
        QVERIFY(!text(QStringLiteral("#dl-groups")).contains(QLatin1String("EUR")));
        QCOMPARE(count(QStringLiteral("#dl-groups button")), 0);
    }

    // Issue 25 item 10: a browser that prefers Simplified Chinese reads the Recovery page in
    // Chinese, the findings the server's doctor wrote in English included (titles, causes,
    // evidence, runbook steps, action labels and consequences). Fails on any visible text of two
    // or more English words without a Chinese character; commands, ids and database text
    // (sample links, code) are exempt.
    void recoveryPageInChinese()
    {
        m_page->call(QStringLiteral("Emulation.setUserAgentOverride"),
                     {{QStringLiteral("userAgent"), m_page->evaluate(QStringLiteral("navigator.userAgent"))},
                      {QStringLiteral("acceptLanguage"), QStringLiteral("zh-CN,zh")}});
        m_page->navigate(m_base + QStringLiteral("/console/#token=") + QString::fromUtf8(OperatorSecret));
        QVERIFY(viewReady(QStringLiteral("events")));
        QVERIFY(go(QStringLiteral("#/recovery"), QStringLiteral("recovery")));
        // The kinds of this database by now: no relay, a stale relay, a FAILED event blocking its
        // aggregate, dead letters.
        QVERIFY2(m_page->waitFor(QStringLiteral("document.querySelectorAll('#findings .card').length >= 4"),
                                 20000),
                 qPrintable(text(QStringLiteral("#view"))));
        const QString english = m_page->evaluate(QStringLiteral(R"JS(
(() => { try {
  const bad = [];
  const walker = document.createTreeWalker(document.getElementById('view'), NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const text = n.textContent.trim();
    if (!text || n.parentElement.closest('code, .finding-sample')) continue;
    if (/[一-鿿]/.test(text)) continue;
    if ((text.match(/[A-Za-z]{2,}/g) || []).length >= 2) bad.push(text);
  }
  return bad.join(' | ');
} catch (e) { return 'the check failed: ' + e; } })()
)JS"));
        QVERIFY2(english.isEmpty(), qPrintable(english));
        const QString cards = text(QStringLiteral("#findings"));
        QVERIFY2(cards.contains(QStringLiteral("处置手册")), qPrintable(cards));
        // Durations inside the texts are translated with them ("10 分钟", not "10 min").
        QVERIFY2(!cards.contains(QRegularExpression(QStringLiteral("\\d (s|min|h|d)\\b"))),
                 qPrintable(cards));
        QVERIFY2(cards.contains(QStringLiteral(" 分钟")), qPrintable(cards));
        m_page->call(QStringLiteral("Emulation.setUserAgentOverride"),
                     {{QStringLiteral("userAgent"), m_page->evaluate(QStringLiteral("navigator.userAgent"))},
                      {QStringLiteral("acceptLanguage"), QStringLiteral("en")}});
    }
};

QTEST_MAIN(TestWebParity)
#include "tst_webparity.moc"
