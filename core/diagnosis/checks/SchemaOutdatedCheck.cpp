#include "core/diagnosis/checks/SchemaOutdatedCheck.h"

#include "core/db/Database.h"
#include "core/db/Migrator.h"
#include "core/diagnosis/DiagnosisContext.h"
#include "core/diagnosis/Runbook.h"

namespace outbox {

Result<QVector<Finding>> SchemaOutdatedCheck::run(DiagnosisContext& context)
{
    const Runbook& rb = Runbook::of(id());
    Migrator migrator(context.db());
    auto current = migrator.currentVersion();
    if (!current)
        return current.error();
    const int latest = migrator.latestVersion();
    if (*current >= latest)
        return QVector<Finding>{};
    Finding f;
    f.id = id();
    f.key = id();
    f.severity = Severity::Critical;
    f.title = *current == 0
                  ? tr("The database has no outbox schema (this binary expects version %1)").arg(latest)
                  : tr("The outbox schema is at version %1 of %2").arg(*current).arg(latest);
    f.evidence.count = latest - *current;
    f.evidence.unit = QStringLiteral("migrations");
    f.evidence.details.insert(QStringLiteral("current_version"), *current);
    f.evidence.details.insert(QStringLiteral("latest_version"), latest);
    f.causes << rb.cause("not-migrated") << rb.cause("other-target");
    f.runbook << rb.step("read") << rb.step("migrate") << rb.step("restart");
    PreparedAction migrate;
    migrate.operation = PreparedAction::Operation::RunCommand;
    migrate.label = tr("Migrate the schema to version %1").arg(latest);
    migrate.consequence =
        tr("The missing migrations are applied in order and recorded; running it twice is a no-op.");
    context.prepareCommand(migrate, CommandLine(QStringLiteral("outboxctl"), {QStringLiteral("migrate")}));
    f.actions << migrate;
    return QVector<Finding>{f};
}

// Its page of docs/runbooks/ and the lines its findings take (core/diagnosis/Runbook.h).
Runbook SchemaOutdatedCheck::runbook() const
{
    Runbook r =
        Runbook::page("schema-outdated", "The database schema is behind this binary's migrations", "critical",
                      "The outbox schema is older than the migrations of this `outboxctl` (or missing): run "
                      "`outboxctl migrate`.");
    r.causes = {
        {"not-migrated",
         QT_TRANSLATE_NOOP("outbox::Runbook",
                           "This binary was upgraded but outboxctl migrate was not run against this "
                           "database.")},
        {"other-target",
         QT_TRANSLATE_NOOP("outbox::Runbook",
                           "The application, the relays and this tool use different table prefixes or "
                           "databases.")},
    };
    r.steps = {
        {"read",
         QT_TRANSLATE_NOOP(
             "outbox::Runbook",
             "Read what the migrations change in the release notes; they are idempotent and upgrade an "
             "existing database in place.")},
        {"migrate",
         QT_TRANSLATE_NOOP("outbox::Runbook",
                           "Run the migration (prepared below) with an account that may change the schema.")},
        {"restart",
         QT_TRANSLATE_NOOP("outbox::Runbook",
                           "Restart the relays and consoles of older versions after the migration.")},
    };
    return r;
}

} // namespace outbox
