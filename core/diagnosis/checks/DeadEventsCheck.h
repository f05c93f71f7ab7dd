#pragma once

#include "core/diagnosis/DiagnosisCheck.h"

namespace outbox {

class DeadEventsCheck final : public DiagnosisCheck
{
    Q_DECLARE_TR_FUNCTIONS(outbox::DeadEventsCheck)

public:
    QString id() const override { return QStringLiteral("dead-events"); }
    Result<QVector<Finding>> run(DiagnosisContext& context) override;
};

} // namespace outbox
