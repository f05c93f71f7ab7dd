#pragma once

#include "core/diagnosis/DiagnosisCheck.h"

#include <QVariantMap>

namespace outbox {

class Database;
class Dialect;
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
    // What every part of run() reads, set up once: the database, its dialect, the runbook page, the
    // events table's name and the window's floor (the newest WindowRows events), and where the
    // findings go.
    struct Scan
    {
        DiagnosisContext& context;
        Database& db;
        const Dialect& d;
        const Runbook& rb;
        QString events;
        qint64 eventsFloor;
        QVariantMap window; // :floor, eventsFloor: the events of the window
        QVector<Finding>& findings;
    };
    // The parts of run(), each a kind of violation.
    Status insertedFindings(Scan& s) const;
    Status topicFindings(Scan& s) const;
    Status shapeFindings(Scan& s) const;
    Status timeFindings(Scan& s) const;
    Status inboxFindings(Scan& s) const;
};

} // namespace outbox
