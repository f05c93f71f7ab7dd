#pragma once

#include "core/diagnosis/DiagnosisCheck.h"

namespace outbox {

class Runbook;

// Rows that writers or consumers put in the tables against the contract (docs/contract.md): events
// inserted as SENT or SENDING (never published, or stuck where no reaper takes them), events without
// a topic whose topic template gives no valid topic name, payloads or headers that are not JSON
// where the column is plain text (MariaDB/MySQL), and inbox rows with a status no front end knows.
// Looks at the newest rows only (WindowRows per table, a primary-key range), so that a run stays
// cheap on any table size.
class ContractCheck final : public DiagnosisCheck
{
    Q_DECLARE_TR_FUNCTIONS(outbox::ContractCheck)

public:
    static constexpr qint64 WindowRows = 100000;

    QString id() const override { return QStringLiteral("contract-violations"); }
    Result<QVector<Finding>> run(DiagnosisContext& context) override;
    // Its runbook page: causes and steps the findings take by key, docs/runbooks/contract-violations.md.
    Runbook runbook() const override;

private:
    // The parts of run(), each a kind of violation; eventsFloor bounds the events looked at.
    Status insertedFindings(DiagnosisContext& context, qint64 eventsFloor, QVector<Finding>& findings) const;
    Status topicFindings(DiagnosisContext& context, qint64 eventsFloor, QVector<Finding>& findings) const;
    Status shapeFindings(DiagnosisContext& context, qint64 eventsFloor, QVector<Finding>& findings) const;
    Status timeFindings(DiagnosisContext& context, qint64 eventsFloor, QVector<Finding>& findings) const;
    Status inboxFindings(DiagnosisContext& context, QVector<Finding>& findings) const;
};

} // namespace outbox
