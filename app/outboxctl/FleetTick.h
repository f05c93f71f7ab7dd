#pragma once

#include "app/outboxctl/Cli.h"
#include "core/diagnosis/DiagnosisOptions.h"
#include "core/fleet/MemberSample.h"

namespace outbox::cli {

// One tick of the fleet sampler over the context's fleet file (doctor --fleet, status --fleet):
// every member's sample, worst first, within the fleet's timeout. Prepared commands name the
// member: options.connectionArguments followed by --fleet FILE --member NAME.
Result<QVector<MemberSample>> sampleFleetOnce(const Context& ctx, const DiagnosisOptions& options);

} // namespace outbox::cli
