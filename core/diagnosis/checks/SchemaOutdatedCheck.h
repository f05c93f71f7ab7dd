#pragma once

#include "core/diagnosis/DiagnosisCheck.h"

namespace outbox {

class Runbook;

class SchemaOutdatedCheck final : public DiagnosisCheck
{
    Q_DECLARE_TR_FUNCTIONS(outbox::SchemaOutdatedCheck)

public:
    QString id() const override { return QStringLiteral("schema-outdated"); }
    Result<QVector<Finding>> run(DiagnosisContext& context) override;
    // Its runbook page: causes and steps the findings take by key, docs/runbooks/schema-outdated.md.
    Runbook runbook() const override;
};

} // namespace outbox
