#include "core/diagnosis/DiagnosisCheck.h"

namespace outbox {

QString DiagnosisCheck::notApplicable(DiagnosisContext&) const
{
    return {};
}

} // namespace outbox
