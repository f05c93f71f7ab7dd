#pragma once

#include "core/diagnosis/DiagnosisCheck.h"

namespace outbox {

class ExpiredLeasesCheck final : public DiagnosisCheck
{
public:
    QString id() const override { return QStringLiteral("expired-leases"); }
    Result<QVector<Finding>> run(DiagnosisContext& context) override;
};

} // namespace outbox
