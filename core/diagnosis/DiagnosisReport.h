#pragma once

#include "core/diagnosis/Finding.h"

#include <QDateTime>
#include <QJsonObject>
#include <QMetaType>
#include <QVector>
#include <optional>

namespace outbox {

// How one check went: its time (the benchmark prints it), and whether it ran at all.
struct CheckRun
{
    enum class Outcome { Ran, Skipped, Failed };

    QString id;
    Outcome outcome = Outcome::Ran;
    QString note; // why it was skipped, or the error it failed with
    double elapsedMs = 0;
    int findings = 0;

    QString outcomeName() const;
    QJsonObject toJson() const;
};

// The result of one doctor run: the findings, worst first, and every check's outcome.
struct DiagnosisReport
{
    QDateTime takenAt; // database clock, UTC
    double elapsedMs = 0;
    QString database; // redacted URL
    QVector<Finding> findings;
    QVector<CheckRun> checks;

    int count(Severity severity) const;
    // True when a finding is at least this severe.
    bool reaches(Severity severity) const;
    bool anyCheckFailed() const;
    const Finding* findByKey(const QString& key) const;
    QVector<Finding> withId(const QString& id) const;
    QJsonObject toJson() const;
};

} // namespace outbox

Q_DECLARE_METATYPE(outbox::DiagnosisReport)
