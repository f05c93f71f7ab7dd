#include "core/diagnosis/Runbook.h"

#include "core/diagnosis/AlertRunbooks.h"
#include "core/diagnosis/DiagnosisCheck.h"
#include "core/diagnosis/Doctor.h"

#include <QCoreApplication>

namespace outbox {

namespace {

const QString AlwaysAfter = QStringLiteral(
    "The doctor's own output of this finding adds the evidence (counts, oldest and newest, sample ids, "
    "the facts of the check) and the prepared actions with their exact `outboxctl` command lines "
    "(add `--reason` and `--yes`); the console's Recovery page and the web console's Recovery view walk "
    "through the same steps with a preview before each change.");

// What the page shows for %1, %2 …: the names of `args`.
QString withArgs(const RunbookLine& line)
{
    QString text = QString::fromUtf8(line.text);
    const QStringList names = QString::fromUtf8(line.args).split(QLatin1Char(','), Qt::SkipEmptyParts);
    for (int i = int(names.size()); i >= 1; --i)
        text.replace(QStringLiteral("%%1").arg(i), names.at(i - 1).trimmed());
    if (*line.when)
        text += QStringLiteral(" *(when %1)*").arg(QString::fromUtf8(line.when));
    return text;
}

QString lineText(const QVector<RunbookLine>& lines, const char* key)
{
    for (const RunbookLine& l : lines)
        if (qstrcmp(l.key, key) == 0)
            return QCoreApplication::translate("outbox::Runbook", l.text);
    Q_ASSERT_X(false, "Runbook: no such cause or step", key);
    return QString::fromUtf8(key);
}

} // namespace

Runbook Runbook::page(const char* id, const char* title, const char* severity, const char* summary)
{
    const auto text = [](const char* utf8) { return QString::fromUtf8(utf8); };
    return {text(id), text(title), text(severity), text(summary), true, {}, {}, {}};
}

QString Runbook::cause(const char* key) const
{
    return lineText(causes, key);
}

QString Runbook::step(const char* key) const
{
    return lineText(steps, key);
}

QString Runbook::generatedHeader()
{
    return QStringLiteral(
        "<!-- GENERATED from the checks' runbook() (the text the doctor prints) by\n"
        "     build/app/outboxctl/outboxctl help --docs docs\n"
        "     Do not edit: tst_docs fails when this file differs from what the command writes. -->\n\n");
}

QString Runbook::markdown() const
{
    return generatedHeader() + servedMarkdown();
}

QString Runbook::servedMarkdown() const
{
    QString page = QStringLiteral("# %1: %2\n\n").arg(id, title);
    page += QStringLiteral("**Severity:** %1.  \n").arg(severity);
    if (finding)
        page += QStringLiteral(
                    "**Check:** `outboxctl doctor --check %1` (alert: `outbox_findings{id=\"%1\"}`)\n\n")
                    .arg(id);
    else
        page += QStringLiteral("**Not a finding:** an alert about the doctor itself.\n\n");
    page += summary + QStringLiteral("\n");
    if (!causes.isEmpty()) {
        page += QStringLiteral("\n## Likely causes\n\n");
        for (const RunbookLine& c : causes)
            page += QStringLiteral("- %1\n").arg(withArgs(c));
    }
    if (!steps.isEmpty()) {
        page += QStringLiteral("\n## What to do\n\n");
        int n = 0;
        for (const RunbookLine& s : steps)
            page += QStringLiteral("%1. %2\n").arg(++n).arg(withArgs(s));
    }
    page += extraMarkdown;
    page += QStringLiteral("\n---\n\n");
    if (finding)
        page += AlwaysAfter + QStringLiteral("\n\n");
    page += QStringLiteral("All runbooks: [README.md](README.md).\n");
    return page;
}

QString Runbook::indexMarkdown()
{
    return generatedHeader() + servedIndexMarkdown();
}

QString Runbook::servedIndexMarkdown()
{
    QString page = QStringLiteral(
        "# Runbooks\n\n"
        "One page per finding of `outboxctl doctor` (the ids are a contract: alert rules, scripts and the "
        "console match on them) and per alert about the doctor itself. Each Prometheus alert of "
        "`resources/prometheus/outbox.rules.yml` links its page in `runbook_url`; `outboxctl serve` "
        "serves the same pages at `/docs/runbooks/<id>`.\n\n"
        "| id | severity | |\n|---|---|---|\n");
    for (const Runbook& r : all())
        page += QStringLiteral("| [%1](%1.md) | %2 | %3 |\n").arg(r.id, r.severity, r.title);
    return page;
}

// Each check's own page (DiagnosisCheck::runbook(), beside the check), then the doctor's own alerts.
const QVector<Runbook>& Runbook::all()
{
    static const QVector<Runbook> pages = [] {
        QVector<Runbook> built;
        for (const auto& check : Doctor::allChecks())
            built << check->runbook();
        return built << AlertRunbooks::doctorFailing() << AlertRunbooks::metricsMissing()
                     << AlertRunbooks::databaseUnreachable();
    }();
    return pages;
}

const Runbook* Runbook::find(const QString& id)
{
    for (const Runbook& r : all())
        if (r.id == id)
            return &r;
    return nullptr;
}

const Runbook& Runbook::of(const QString& id)
{
    const Runbook* r = find(id);
    Q_ASSERT_X(r, "Runbook::of", qPrintable(id));
    static const Runbook none;
    return r ? *r : none;
}

} // namespace outbox
