#pragma once

#include <QString>
#include <QVector>

namespace outbox {

// One cause or runbook step of a finding. The doctor fills `text`'s %1, %2 … with what it found;
// the runbook page shows `args` in their place and says `when` the doctor includes the line.
struct RunbookLine
{
    const char* key;       // unique within its list; the check asks for the line by it
    const char* text;      // source text (translated at use)
    const char* when = ""; // empty: always
    const char* args = ""; // what %1, %2 … stand for, comma-separated: "N, WORKERS"
};

// The one text of a doctor finding's causes and runbook steps: the checks take their lines from
// here, and docs/runbooks/<id>.md (and `outboxctl serve`'s /docs/runbooks/<id>) are written from
// here, so the page and the doctor cannot say different things. Ids are the checks' ids, plus the
// pages of alerts that are not findings (doctor-failing, metrics-missing).
class Runbook
{
public:
    QString id;
    QString title;       // what the alert or finding says, in a line
    QString severity;    // as the doctor reports it, in words
    QString summary;     // what it means, a paragraph
    bool finding = true; // false: an alert about the doctor itself, no check behind it
    QVector<RunbookLine> causes;
    QVector<RunbookLine> steps;
    // Extra sections of the page written from another table (failed-events, dead-events: the
    // advice by cause of FailureAdvice).
    QString extraMarkdown;

    // A page's header (UTF-8 source text, as the page shows it); the checks add causes and steps.
    static Runbook page(const char* id, const char* title, const char* severity, const char* summary);

    // Translated text of a line; a key that is not there is a programming error (asserted; the
    // key itself is returned so that nothing is silently lost).
    QString cause(const char* key) const;
    QString step(const char* key) const;

    // docs/runbooks/<id>.md: the generated file's header, then servedMarkdown().
    QString markdown() const;
    // The page as `outboxctl serve` answers /docs/runbooks/<id>: without the files' "GENERATED …
    // do not edit" comment, which is for whoever edits docs/runbooks/, not for the operator who
    // follows an alert's link.
    QString servedMarkdown() const;

    // Every page, findings in the doctor's check order first.
    static const QVector<Runbook>& all();
    // nullptr when there is no page of that id.
    static const Runbook* find(const QString& id);
    // Like find(), for a check that knows its page exists.
    static const Runbook& of(const QString& id);
    // docs/runbooks/README.md: the index.
    static QString indexMarkdown();
    // The index as `outboxctl serve` answers /docs/runbooks/ (without the header).
    static QString servedIndexMarkdown();

private:
    // The header every generated file starts with (the regenerate command).
    static QString generatedHeader();
};

} // namespace outbox
