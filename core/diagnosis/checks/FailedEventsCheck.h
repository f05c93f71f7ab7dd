#pragma once

#include "core/diagnosis/DiagnosisCheck.h"

namespace outbox {

class FailedEventsCheck final : public DiagnosisCheck
{
    Q_DECLARE_TR_FUNCTIONS(outbox::FailedEventsCheck)

public:
    QString id() const override { return QStringLiteral("failed-events"); }
    Result<QVector<Finding>> run(DiagnosisContext& context) override;
};

} // namespace outbox
