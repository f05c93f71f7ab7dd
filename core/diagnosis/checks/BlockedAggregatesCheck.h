#pragma once

#include "core/diagnosis/DiagnosisCheck.h"

namespace outbox {

class BlockedAggregatesCheck final : public DiagnosisCheck
{
    Q_DECLARE_TR_FUNCTIONS(outbox::BlockedAggregatesCheck)

public:
    QString id() const override { return QStringLiteral("blocked-aggregates"); }
    Result<QVector<Finding>> run(DiagnosisContext& context) override;
};

} // namespace outbox
