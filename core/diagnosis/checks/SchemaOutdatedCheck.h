#pragma once

#include "core/diagnosis/DiagnosisCheck.h"

namespace outbox {

class SchemaOutdatedCheck final : public DiagnosisCheck
{
    Q_DECLARE_TR_FUNCTIONS(outbox::SchemaOutdatedCheck)

public:
    QString id() const override { return QStringLiteral("schema-outdated"); }
    Result<QVector<Finding>> run(DiagnosisContext& context) override;
};

} // namespace outbox
