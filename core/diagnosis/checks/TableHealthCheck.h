#pragma once

#include "core/diagnosis/DiagnosisCheck.h"

namespace outbox {

class TableHealthCheck final : public DiagnosisCheck
{
    Q_DECLARE_TR_FUNCTIONS(outbox::TableHealthCheck)

public:
    QString id() const override { return QStringLiteral("table-health"); }
    Result<QVector<Finding>> run(DiagnosisContext& context) override;
};

} // namespace outbox
