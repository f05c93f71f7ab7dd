#pragma once

#include "core/diagnosis/DiagnosisCheck.h"

namespace outbox {

class NoRelayCheck final : public DiagnosisCheck
{
    Q_DECLARE_TR_FUNCTIONS(outbox::NoRelayCheck)

public:
    QString id() const override { return QStringLiteral("no-relay"); }
    Result<QVector<Finding>> run(DiagnosisContext& context) override;
};

} // namespace outbox
