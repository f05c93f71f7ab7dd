#include "core/diagnosis/DiagnosisCheck.h"

#include "core/diagnosis/DiagnosisContext.h"

namespace outbox {

QString DiagnosisCheck::notApplicable(DiagnosisContext&) const
{
    return {};
}

PreparedAction DiagnosisCheck::startRelayAction(const DiagnosisContext& context)
{
    PreparedAction start;
    start.operation = PreparedAction::Operation::RunCommand;
    start.label = tr("Start a relay on this database");
    start.consequence = tr("A relay claims the PENDING events in id order and sends them to Kafka.");
    context.prepareCommand(start,
                           CommandLine(QStringLiteral("outboxctl"), {QStringLiteral("relay")})
                               .option(QStringLiteral("kafka-bootstrap"), QStringLiteral("HOST:PORT")));
    return start;
}

} // namespace outbox
