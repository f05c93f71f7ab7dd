#include "core/diagnosis/AlertRunbooks.h"

namespace outbox {

Runbook AlertRunbooks::doctorFailing()
{
    Runbook r = Runbook::page(
        "doctor-failing", "The doctor cannot diagnose the outbox", "warning (alert OutboxDoctorFailing)",
        "`outbox_diagnosis_up` is 0: the last run of the doctor in `outboxctl serve` failed, or one of its "
        "checks failed. The findings, and every alert built on them, may be out of date.");
    r.finding = false;
    r.causes = {
        {"database",
         QT_TRANSLATE_NOOP("outbox::Runbook",
                           "The database cannot be reached from the server that runs outboxctl serve.")},
        {"privileges",
         QT_TRANSLATE_NOOP("outbox::Runbook",
                           "The role of outboxctl serve lacks a privilege a check needs (e.g. after an "
                           "upgrade added a table).")},
        {"schema",
         QT_TRANSLATE_NOOP("outbox::Runbook", "The schema is outdated or missing (see schema-outdated).")},
    };
    r.steps = {
        {"timings", QT_TRANSLATE_NOOP(
                        "outbox::Runbook",
                        "Run outboxctl doctor --timings against the same database and configuration: failed "
                        "checks are printed on stderr with their error.")},
        {"fix", QT_TRANSLATE_NOOP(
                    "outbox::Runbook",
                    "Fix what the error names (connection, grants from outboxctl migrate --print-grants, "
                    "outboxctl migrate), then watch outbox_diagnosis_up return to 1.")},
    };
    return r;
}

Runbook AlertRunbooks::metricsMissing()
{
    Runbook r = Runbook::page(
        "metrics-missing", "No outbox doctor metrics are scraped", "warning (alert OutboxMetricsMissing)",
        "Prometheus scrapes no `outbox_diagnosis_up`: `outboxctl serve` is down, not scraped, or refuses "
        "the scrape token. No outbox alert can fire meanwhile.");
    r.finding = false;
    r.causes = {
        {"down", QT_TRANSLATE_NOOP("outbox::Runbook",
                                   "outboxctl serve does not run (its unit failed or was stopped).")},
        {"scrape",
         QT_TRANSLATE_NOOP(
             "outbox::Runbook",
             "Prometheus does not scrape its /metrics, or sends no or a wrong viewer token (401).")},
    };
    r.steps = {
        {"service",
         QT_TRANSLATE_NOOP(
             "outbox::Runbook",
             "Check that outboxctl serve runs: systemctl status 'outbox-serve@*' and its journal.")},
        {"target", QT_TRANSLATE_NOOP(
                       "outbox::Runbook",
                       "Check the scrape target in Prometheus (Status › Targets): the address, and a viewer "
                       "token as bearer token.")},
        {"meanwhile", QT_TRANSLATE_NOOP("outbox::Runbook",
                                        "Meanwhile run outboxctl doctor by hand against the database.")},
    };
    return r;
}

Runbook AlertRunbooks::databaseUnreachable()
{
    Runbook r = Runbook::page(
        "database-unreachable", "A database of the fleet does not answer",
        "critical (alert OutboxDatabaseUnreachable)",
        "`outbox_member_up{database=\"NAME\"}` is 0: `outboxctl serve --fleet FILE` could not sample that "
        "member within the fleet's `timeout`. Nothing is known about its outbox meanwhile (the wall shows "
        "the member unreachable with its error), and its relays may be stuck too.");
    r.finding = false;
    r.causes = {
        {"down",
         QT_TRANSLATE_NOOP("outbox::Runbook", "The database server is down, restarting or failing over.")},
        {"network",
         QT_TRANSLATE_NOOP("outbox::Runbook",
                           "The network between the server of outboxctl serve and the database drops or "
                           "black-holes the connection (firewall, routing, DNS).")},
        {"login",
         QT_TRANSLATE_NOOP(
             "outbox::Runbook",
             "The database refuses the login: a changed password (OUTBOX_DB_PASSWORD_<MEMBER> or the "
             "member's password_file), a dropped role, too many connections.")},
        {"slow",
         QT_TRANSLATE_NOOP("outbox::Runbook",
                           "The database answers slower than the fleet's timeout (overload, locks).")},
    };
    r.steps = {
        {"status",
         QT_TRANSLATE_NOOP(
             "outbox::Runbook",
             "Run outboxctl status --fleet FILE on the server of outboxctl serve: the member's line "
             "carries the error (connection refused, timeout, authentication).")},
        {"doctor", QT_TRANSLATE_NOOP(
                       "outbox::Runbook",
                       "Run outboxctl doctor --fleet FILE --member NAME to connect to that member alone and "
                       "see the whole error.")},
        {"fix", QT_TRANSLATE_NOOP(
                    "outbox::Runbook",
                    "Fix what the error names; the member turns healthy on the wall within one fleet "
                    "interval once it answers (a member that failed twice is retried with backoff, at most "
                    "5 minutes).")},
    };
    return r;
}

} // namespace outbox
