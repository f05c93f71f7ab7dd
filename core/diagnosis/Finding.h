#pragma once

#include "core/diagnosis/PreparedAction.h"
#include "core/diagnosis/Severity.h"

#include <QDateTime>
#include <QJsonObject>
#include <QMetaType>
#include <QString>
#include <QStringList>
#include <QVector>

namespace outbox {

// Widens [oldest, newest] to take `from` and `to` in; an invalid time changes nothing.
void widenSpan(QDateTime& oldest, QDateTime& newest, const QDateTime& from, const QDateTime& to);

// What a check saw: how many, since when, and a few samples to open.
struct FindingEvidence
{
    qint64 count = 0;
    QString unit;     // what `count` counts: "events", "relays", "dead letters", "aggregates", …
    QDateTime oldest; // invalid when it does not apply
    QDateTime newest;
    QString sampleKind;        // "event", "dead_letter", "relay" or "inbox"
    QVector<qint64> sampleIds; // events and dead letters, at most Finding::MaxSamples
    QStringList sampleNames;   // relays (worker ids)
    QJsonObject details;       // check-specific facts (error class, fingerprint, consumer, threshold…)

    // Widens oldest and newest to take these times in; an invalid time changes nothing.
    void span(const QDateTime& from, const QDateTime& to);
    // One more relay seen: counted, its worker id a sample (up to Finding::MaxSamples), and its
    // times taken into oldest and newest (span()).
    void addRelay(const QString& workerId, const QDateTime& from, const QDateTime& to);

    QJsonObject toJson() const;
    // `unit` for people, translated ("events" / "个事件"); JSON keeps `unit` itself.
    QString unitText() const;
};

// One thing that is wrong, why it probably is, what to do about it, and the prepared actions.
// `id` is the check's stable id (a contract: alert rules and scripts match on it); `key` tells
// apart several findings of one check (e.g. one per failure group).
struct Finding
{
    static constexpr int MaxSamples = 10;

    QString id;
    QString key;
    Severity severity = Severity::Warning;
    QString title; // one line
    FindingEvidence evidence;
    QStringList causes;  // most likely first
    QStringList runbook; // ordered steps, including steps outside the product
    QVector<PreparedAction> actions;

    QJsonObject toJson() const;
};

} // namespace outbox

Q_DECLARE_METATYPE(outbox::Finding)
