#pragma once

#include "core/diagnosis/DiagnosisCheck.h"

namespace outbox {

class ExpiredLeasesCheck final : public DiagnosisCheck
{
    Q_DECLARE_TR_FUNCTIONS(outbox::ExpiredLeasesCheck)

public:
    QString id() const override { return QStringLiteral("expired-leases"); }
    Result<QVector<Finding>> run(DiagnosisContext& context) override;
};

} // namespace outbox
