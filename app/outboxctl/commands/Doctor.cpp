// `outboxctl doctor`: runs the diagnosis checks and prints the findings with their evidence,
// causes, runbook and prepared actions. Exit 0 when no finding reaches --fail-on (default
// critical), 3 when one does; 1 and 2 keep their meaning (runtime and usage errors), so it fits
// cron, Nagios-style checks and a systemd timer.
#include "core/diagnosis/Doctor.h"

#include "app/outboxctl/FleetTick.h"
#include "app/outboxctl/commands/Commands.h"
#include "core/db/DatabaseTarget.h"
#include "core/support/TerminalText.h"

#include <QCoreApplication>
#include <QJsonArray>
#include <algorithm>
#include <cstdio>
#include <unistd.h>

namespace outbox::cli {

// The labels of the human output are translated (context outbox::cli::Doctor); --json keeps its
// English keys and ids.

namespace {

constexpr int FindingsExitCode = 3;
constexpr int UnreachableExitCode = 4;

// How the prepared command lines reach the same database as this run: the same --config, and the
// --db (without a password) and --table-prefix given as flags, or --fleet and --member; the
// environment carries the rest.
QStringList connectionArguments(Context& ctx)
{
    auto target = ctx.target();
    return target ? target->outboxctlArguments() : QStringList();
}

// `text` followed by spaces up to `columns` terminal columns (a CJK character takes two).
QString padded(const QString& text, int columns)
{
    int width = 0;
    for (const QChar c : text)
        width += c.unicode() >= 0x1100 ? 2 : 1;
    return text + QString(std::max(0, columns - width), QLatin1Char(' '));
}

struct Style
{
    bool colour = false;
    QString paint(const QString& text, const char* code) const
    {
        return colour ? QStringLiteral("\x1b[%1m%2\x1b[0m").arg(QLatin1String(code), text) : text;
    }
    QString severity(Severity s) const
    {
        const QString name = padded(severityText(s), 8);
        switch (s) {
        case Severity::Critical:
            return paint(name, "1;31");
        case Severity::Warning:
            return paint(name, "1;33");
        case Severity::Info:
            return paint(name, "36");
        }
        return name;
    }
};

QString when(const QDateTime& t, const QDateTime& now)
{
    if (!t.isValid())
        return QStringLiteral("-");
    // A time after the report's (a row written while the doctor ran, or a clock ahead) is "just
    // now", never "(- ago)".
    const qint64 age = t.msecsTo(now);
    if (age < 1000)
        return QCoreApplication::translate("outbox::cli::Doctor", "%1 UTC (just now)")
            .arg(t.toUTC().toString(QStringLiteral("yyyy-MM-dd HH:mm:ss")));
    return QCoreApplication::translate("outbox::cli::Doctor", "%1 UTC (%2 ago)")
        .arg(t.toUTC().toString(QStringLiteral("yyyy-MM-dd HH:mm:ss")), formatAge(age));
}

void printFinding(QTextStream& out, const Finding& f, const QDateTime& now, const Style& style)
{
    // Titles, samples, details and advice quote database text: escaped for the terminal.
    const auto shown = [](const QString& text) { return TerminalText::escape(text); };
    out << style.severity(f.severity) << "  " << style.paint(f.id, "1") << "  " << shown(f.title) << "\n";
    const FindingEvidence& e = f.evidence;
    out << "  "
        << QCoreApplication::translate("outbox::cli::Doctor", "evidence: %1 %2")
               .arg(e.count)
               .arg(shown(e.unitText()));
    if (e.oldest.isValid())
        out << QCoreApplication::translate("outbox::cli::Doctor", "; oldest %1").arg(when(e.oldest, now));
    if (e.newest.isValid() && e.newest != e.oldest)
        out << QCoreApplication::translate("outbox::cli::Doctor", "; newest %1").arg(when(e.newest, now));
    out << "\n";
    if (!e.sampleIds.isEmpty() || !e.sampleNames.isEmpty()) {
        QStringList samples;
        for (qint64 id : e.sampleIds)
            samples << QLatin1Char('#') + QString::number(id);
        samples << e.sampleNames;
        out << "  "
            << QCoreApplication::translate("outbox::cli::Doctor", "samples (%1): %2")
                   .arg(shown(e.sampleKind), shown(samples.join(QLatin1Char(' '))))
            << "\n";
    }
    static const char* const details[][2] = {
        {"error_class", QT_TRANSLATE_NOOP("outbox::cli::Doctor", "error_class")},
        {"example", QT_TRANSLATE_NOOP("outbox::cli::Doctor", "example")},
        {"payload", QT_TRANSLATE_NOOP("outbox::cli::Doctor", "payload")},
        {"consumer", QT_TRANSLATE_NOOP("outbox::cli::Doctor", "consumer")},
        {"last_error", QT_TRANSLATE_NOOP("outbox::cli::Doctor", "last_error")}};
    for (const auto& detail : details) {
        const QString value = e.details.value(QLatin1String(detail[0])).toString();
        if (!value.isEmpty())
            out << "  " << padded(QCoreApplication::translate("outbox::cli::Doctor", detail[1]), 12)
                << shown(value.left(200)) << "\n";
    }
    if (!f.causes.isEmpty()) {
        out << "  " << QCoreApplication::translate("outbox::cli::Doctor", "why:") << "\n";
        for (const QString& c : f.causes)
            out << "    - " << shown(c) << "\n";
    }
    if (!f.runbook.isEmpty()) {
        out << "  " << QCoreApplication::translate("outbox::cli::Doctor", "what to do:") << "\n";
        for (int i = 0; i < f.runbook.size(); ++i)
            out << "    " << (i + 1) << ". " << shown(f.runbook.at(i)) << "\n";
    }
    if (!f.actions.isEmpty()) {
        out << "  " << QCoreApplication::translate("outbox::cli::Doctor", "prepared actions:") << "\n";
        for (const PreparedAction& a : f.actions) {
            out << "    - " << shown(a.label) << "\n";
            if (a.command.isEmpty())
                out << "      "
                    << style.paint(QCoreApplication::translate("outbox::cli::Doctor", "(no command: %1)")
                                       .arg(a.commandRefused),
                                   "2")
                    << "\n";
            else
                out << "      " << style.paint(QStringLiteral("$ ") + a.command, "2") << "\n";
        }
    }
    out << "\n";
}

} // namespace

namespace {

// `doctor --fleet`: every member's findings, each with its member; exit 4 when a member was
// unreachable (naming it), else 3 when a finding (or a member without the outbox schema) reaches
// --fail-on.
int runFleetDoctor(Context& ctx, Severity failOn, DiagnosisOptions options)
{
    // The fleet file and the member name the database; the rest (--config) stays.
    options.connectionArguments.clear();
    if (!ctx.config().file().isEmpty())
        options.connectionArguments << QStringLiteral("--config") << ctx.config().file();
    auto samples = sampleFleetOnce(ctx, options);
    if (!samples)
        return ctx.fail(samples.error());
    bool reached = false;
    bool checkFailed = false;
    QStringList unreachable;
    for (const MemberSample& s : std::as_const(*samples)) {
        reached = reached || s.report.reaches(failOn) || s.state == MemberSample::State::Unmigrated;
        checkFailed = checkFailed || s.report.anyCheckFailed();
        if (s.state == MemberSample::State::Unreachable)
            unreachable << s.member;
    }
    if (ctx.json()) {
        QJsonArray members;
        QJsonArray findings;
        for (const MemberSample& s : std::as_const(*samples)) {
            members.append(s.toJson());
            for (const Finding& f : s.report.findings) {
                QJsonObject json = f.toJson();
                json.insert(QStringLiteral("member"), s.member);
                findings.append(json);
            }
        }
        ctx.printJson(
            QJsonObject{{QStringLiteral("fleet"), ctx.config().value(QStringLiteral("general.fleet"))},
                        {QStringLiteral("fail_on"), severityName(failOn)},
                        {QStringLiteral("members"), members},
                        {QStringLiteral("findings"), findings}});
    } else {
        Style style;
        style.colour = isatty(STDOUT_FILENO) && qEnvironmentVariableIsEmpty("NO_COLOR") &&
                       qEnvironmentVariable("TERM") != QLatin1String("dumb");
        ctx.out << "outboxctl doctor: fleet "
                << TerminalText::escape(ctx.config().value(QStringLiteral("general.fleet"))) << ", "
                << samples->size() << " members\n\n";
        for (const MemberSample& s : std::as_const(*samples)) {
            ctx.out << style.paint(QStringLiteral("== %1: %2").arg(s.member, s.stateName()), "1");
            if (!s.error.isEmpty())
                ctx.out << " (" << TerminalText::escape(s.error) << ")";
            ctx.out << "\n\n";
            for (const Finding& f : s.report.findings)
                printFinding(ctx.out, f, s.report.takenAt, style);
        }
        ctx.out.flush();
    }
    for (const MemberSample& s : std::as_const(*samples))
        if (s.state == MemberSample::State::Unreachable)
            ctx.err << "outboxctl: member " << s.member
                    << " is unreachable: " << TerminalText::escape(s.error) << Qt::endl;
    if (!unreachable.isEmpty())
        return UnreachableExitCode;
    if (reached)
        return FindingsExitCode;
    return checkFailed ? int(RuntimeError) : int(Ok);
}

int runDoctor(Context& ctx)
{
    Severity failOn = Severity::Critical;
    if (ctx.parser.isSet(QStringLiteral("fail-on"))) {
        const QString level = ctx.parser.value(QStringLiteral("fail-on")).trimmed().toLower();
        if (level != QLatin1String("warning") && level != QLatin1String("critical"))
            return ctx.usage(QStringLiteral("--fail-on must be warning or critical"));
        failOn = *parseSeverity(level);
    }
    DiagnosisOptions options = DiagnosisOptions::fromConfig(ctx.config());
    for (const QString& value : ctx.parser.values(QStringLiteral("consumer")))
        for (const QString& c : value.split(QLatin1Char(','), Qt::SkipEmptyParts))
            if (!options.consumers.contains(c.trimmed()))
                options.consumers << c.trimmed();
    for (const QString& value : ctx.parser.values(QStringLiteral("check")))
        for (const QString& c : value.split(QLatin1Char(','), Qt::SkipEmptyParts))
            options.onlyChecks << c.trimmed();
    options.connectionArguments = connectionArguments(ctx);
    if (ctx.watchesFleet())
        return runFleetDoctor(ctx, failOn, options);

    auto db = ctx.openDatabase(QStringLiteral("doctor"));
    if (!db)
        return ctx.fail(db.error());
    auto report = Doctor(**db, options).run();
    if (!report)
        return ctx.fail(report.error());

    if (ctx.json()) {
        QJsonObject json = report->toJson();
        json.insert(QStringLiteral("fail_on"), severityName(failOn));
        ctx.printJson(json);
    } else {
        Style style;
        style.colour = isatty(STDOUT_FILENO) && qEnvironmentVariableIsEmpty("NO_COLOR") &&
                       qEnvironmentVariable("TERM") != QLatin1String("dumb");
        ctx.out << "outboxctl doctor: " << report->database << ", "
                << report->takenAt.toString(QStringLiteral("yyyy-MM-dd HH:mm:ss")) << " UTC\n\n";
        for (const Finding& f : report->findings)
            printFinding(ctx.out, f, report->takenAt, style);
        int ran = 0;
        for (const CheckRun& c : report->checks)
            ran += c.outcome == CheckRun::Outcome::Ran ? 1 : 0;
        if (report->findings.isEmpty())
            ctx.out << style.paint(QCoreApplication::translate("outbox::cli::Doctor", "no findings"), "1;32");
        else
            ctx.out << QCoreApplication::translate("outbox::cli::Doctor", "%1 critical, %2 warning, %3 info")
                           .arg(report->count(Severity::Critical))
                           .arg(report->count(Severity::Warning))
                           .arg(report->count(Severity::Info));
        ctx.out << QCoreApplication::translate("outbox::cli::Doctor", " (%1 of %2 checks in %3 ms)")
                       .arg(ran)
                       .arg(report->checks.size())
                       .arg(qRound(report->elapsedMs))
                << "\n";
        if (ctx.parser.isSet(QStringLiteral("timings"))) {
            for (const CheckRun& c : report->checks)
                ctx.out << "  " << c.id.leftJustified(20)
                        << QString::number(c.elapsedMs, 'f', 1).rightJustified(9) << " ms  "
                        << c.outcomeName() << (c.note.isEmpty() ? QString() : QStringLiteral(": ") + c.note)
                        << "\n";
        }
        ctx.out.flush();
    }
    for (const CheckRun& c : report->checks)
        if (c.outcome == CheckRun::Outcome::Failed)
            ctx.err << "outboxctl: check " << c.id << " failed: " << c.note << Qt::endl;
    if (report->reaches(failOn))
        return FindingsExitCode;
    return report->anyCheckFailed() ? int(RuntimeError) : int(Ok);
}

} // namespace

Command doctorCommand()
{
    return {
        QStringLiteral("doctor"),
        QStringLiteral("Diagnose the outbox (or every member of --fleet): findings, runbooks and prepared "
                       "actions (exit 3 on findings, 4 when a member is unreachable)."),
        QString(),
        {QCommandLineOption(
             QStringLiteral("fail-on"),
             QStringLiteral("Exit 3 when a finding is at least this severe: warning or critical "
                            "(default critical)."),
             QStringLiteral("level")),
         QCommandLineOption(QStringLiteral("check"),
                            QStringLiteral("Run only this check (repeat or comma-separate): ") +
                                Doctor::checkIds().join(QStringLiteral(", ")) + QLatin1Char('.'),
                            QStringLiteral("id")),
         QCommandLineOption(
             QStringLiteral("consumer"),
             QStringLiteral(
                 "Check the unconsumed events of this consumer, repeatable (adds to [doctor] consumers)."),
             QStringLiteral("name")),
         QCommandLineOption(QStringLiteral("timings"), QStringLiteral("Print the time each check took."))},
        withoutPositionals(QStringLiteral("doctor"), runDoctor),
        {},
        {QStringLiteral("doctor.*")},
        true};
}

} // namespace outbox::cli
