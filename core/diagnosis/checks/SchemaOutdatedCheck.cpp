#include "core/diagnosis/checks/SchemaOutdatedCheck.h"

#include "core/db/Database.h"
#include "core/db/Migrator.h"
#include "core/diagnosis/DiagnosisContext.h"

namespace outbox {

Result<QVector<Finding>> SchemaOutdatedCheck::run(DiagnosisContext& context)
{
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
    f.causes << tr("This binary was upgraded but outboxctl migrate was not run against this database.")
             << tr("The application, the relays and this tool use different table prefixes or databases.");
    f.runbook
        << tr("Read what the migrations change in the release notes; they are idempotent and upgrade an "
              "existing database in place.")
        << tr("Run the migration (prepared below) with an account that may change the schema.")
        << tr("Restart the relays and consoles of older versions after the migration.");
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
