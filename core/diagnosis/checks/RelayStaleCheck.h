#pragma once

#include "core/diagnosis/DiagnosisCheck.h"

namespace outbox {

class RelayStaleCheck final : public DiagnosisCheck
{
    Q_DECLARE_TR_FUNCTIONS(outbox::RelayStaleCheck)

public:
    QString id() const override { return QStringLiteral("relay-stale"); }
    Result<QVector<Finding>> run(DiagnosisContext& context) override;
};

} // namespace outbox
