#include "core/db/EventStore.h"
#include "tests/support/BulkEvents.h"
#include "tests/support/TestDatabases.h"

#include <QRegularExpression>
#include <QTest>

using namespace outbox;
using namespace outbox::test;

// The relay's claim is prepared once per connection. Its LIMIT must be written into the
// statement: with a bound `LIMIT $n`, PostgreSQL's generic plan for the prepared statement
// (what it uses after five executions, or at once with plan_cache_mode = force_generic_plan)
// assumes the subquery returns a tenth of the table and hash-joins a sequential scan of the whole
// outbox: 152 ms instead of 10 ms per claim on 100,000 rows. This test looks at the prepared
// statement the claim left on its connection and at its generic plan.
class TestClaimPlan : public QObject
{
    Q_OBJECT

private slots:
    void claimsGenericPlanUsesIndexes()
    {
        if (!TestDatabases::available(QStringLiteral("postgresql")))
            QSKIP("no PostgreSQL test server configured");
        auto db = TestDatabases::fresh(QStringLiteral("postgresql"),
                                       TestDatabases::uniqueName(QStringLiteral("pg")));
        // A backlog: 100,000 PENDING events (the relay benchmark's preload, where the bound limit's
        // generic plan cost 152 ms per claim). The planner's estimate for `LIMIT $n` is a tenth of
        // the PENDING rows, so the backlog, not the table's history, makes the plan go wrong.
        const QVector<qint64> pending = insertEvents(*db, 50);
        insertGeneratedEvents(*db, 100000);
        QVERIFY(db->exec(QStringLiteral("UPDATE {events} SET status = 'PENDING' WHERE status <> 'PENDING'")));
        QVERIFY(db->exec(QStringLiteral("ANALYZE {events}")));
        QVERIFY(db->exec(QStringLiteral("SET plan_cache_mode = force_generic_plan")));

        EventStore store(*db);
        auto batch = store.claim(QStringLiteral("plan-worker"), 20, 60000);
        QVERIFY2(batch, qPrintable(batch.message()));
        QCOMPARE(batch->events.size(), 20);
        QCOMPARE(batch->events.first().id, pending.first());

        // The claim's prepared statement on this connection.
        auto prepared = db->exec(
            QStringLiteral("SELECT name, statement, array_to_string(parameter_types::text[], ',') FROM "
                           "pg_prepared_statements "
                           "WHERE statement ILIKE '%SKIP LOCKED%' AND statement ILIKE '%RETURNING%'"));
        QVERIFY2(prepared, qPrintable(prepared.message()));
        QVERIFY2(prepared->next(), "the claim left no prepared statement on its connection");
        const QString name = prepared->value(0).toString();
        const QString statement = prepared->value(1).toString();
        const QStringList types = prepared->value(2).toString().split(QLatin1Char(','), Qt::SkipEmptyParts);
        QVERIFY2(!prepared->next(), "more than one prepared claim statement");
        QVERIFY2(statement.contains(QRegularExpression(QStringLiteral("LIMIT\\s+20\\b"))),
                 qPrintable(QStringLiteral("the claim's LIMIT is not a literal: %1").arg(statement)));

        // The generic plan (force_generic_plan) must reach the PENDING rows through indexes, not by
        // reading the table. EXPLAIN without ANALYZE plans the UPDATE without running it.
        // A quoted number fits every parameter type the claim binds (text, integer, double).
        QStringList values;
        for (const QString& type : types)
            values << (type == QLatin1String("uuid")
                           ? QStringLiteral("'00000000-0000-0000-0000-000000000000'")
                           : QStringLiteral("'60000'"));
        auto plan = db->exec(QStringLiteral("EXPLAIN EXECUTE %1%2")
                                 .arg(name, values.isEmpty()
                                                ? QString()
                                                : QStringLiteral("(%1)").arg(values.join(QLatin1Char(',')))));
        QVERIFY2(plan, qPrintable(plan.message()));
        QStringList lines;
        while (plan->next())
            lines << plan->value(0).toString();
        const QString text = lines.join(QLatin1Char('\n'));
        QVERIFY2(!text.contains(QLatin1String("Seq Scan")),
                 qPrintable(QStringLiteral("the claim's generic plan reads the whole table:\n%1").arg(text)));
        QVERIFY2(text.contains(QLatin1String("Index")), qPrintable(text));
    }
};

QTEST_GUILESS_MAIN(TestClaimPlan)
#include "tst_claimplan.moc"
