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

} // namespace outbox
