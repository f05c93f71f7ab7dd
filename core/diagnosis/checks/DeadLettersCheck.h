#pragma once

#include "core/diagnosis/DiagnosisCheck.h"

namespace outbox {

class DeadLettersCheck final : public DiagnosisCheck
{
    Q_DECLARE_TR_FUNCTIONS(outbox::DeadLettersCheck)

public:
    QString id() const override { return QStringLiteral("dead-letters"); }
    Result<QVector<Finding>> run(DiagnosisContext& context) override;
};

} // namespace outbox
