#pragma once

#include "core/diagnosis/DiagnosisCheck.h"

namespace outbox {

class RelayDegradedCheck final : public DiagnosisCheck
{
    Q_DECLARE_TR_FUNCTIONS(outbox::RelayDegradedCheck)

public:
    QString id() const override { return QStringLiteral("relay-degraded"); }
    Result<QVector<Finding>> run(DiagnosisContext& context) override;
};

} // namespace outbox
