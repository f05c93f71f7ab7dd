#pragma once

#include "core/diagnosis/DiagnosisCheck.h"

namespace outbox {

class BacklogAgeCheck final : public DiagnosisCheck
{
    Q_DECLARE_TR_FUNCTIONS(outbox::BacklogAgeCheck)

public:
    QString id() const override { return QStringLiteral("backlog-age"); }
    Result<QVector<Finding>> run(DiagnosisContext& context) override;
};

} // namespace outbox
