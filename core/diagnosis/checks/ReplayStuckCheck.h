#pragma once

#include "core/diagnosis/DiagnosisCheck.h"

namespace outbox {

class ReplayStuckCheck final : public DiagnosisCheck
{
    Q_DECLARE_TR_FUNCTIONS(outbox::ReplayStuckCheck)

public:
    QString id() const override { return QStringLiteral("replay-stuck"); }
    Result<QVector<Finding>> run(DiagnosisContext& context) override;
};

} // namespace outbox
