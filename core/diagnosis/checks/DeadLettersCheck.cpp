#include "core/diagnosis/checks/DeadLettersCheck.h"

#include "core/db/Database.h"
#include "core/db/DeadLetterGroups.h"
#include "core/db/EventStatus.h"
#include "core/db/FailureGroups.h"
#include "core/diagnosis/DiagnosisContext.h"
#include "core/diagnosis/EventErrorGroups.h"
#include "core/diagnosis/Runbook.h"
#include "core/support/TextClip.h"

#include <QHash>
#include <QSqlQuery>
#include <algorithm>

namespace outbox {

namespace {

struct LetterGroup
{
    QString consumer;
    QString fingerprint;
    QString example;
    qint64 count = 0;
    QDateTime oldest;
    QDateTime newest;
    QStringList texts;
    QVector<qint64> firstIds;
    QVector<qint64> sampleIds;
};

} // namespace

Result<QVector<Finding>> DeadLettersCheck::run(DiagnosisContext& context)
{
    const Runbook& rb = Runbook::of(id());
    Database& db = context.db();
    const Dialect& d = db.dialect();
    auto q = db.exec(QStringLiteral("SELECT consumer_name, error, COUNT(*), MIN(id), MIN(first_failed_at), "
                                    "MAX(last_failed_at) FROM {dead_letters} WHERE status = 'NEW' GROUP BY "
                                    "consumer_name, error ORDER BY COUNT(*) DESC LIMIT :cap"),
                     {{QStringLiteral(":cap"), context.options().maxDistinctErrors}});
    if (!q)
        return q.error();
    QHash<QString, int> index;
    QVector<LetterGroup> groups;
    while (q->next()) {
        const QString consumer = q->value(0).toString();
        const QString text = q->value(1).toString();
        const QString print = FailureGroups::fingerprint(text);
        const QString key = consumer + QChar(0x1f) + DeadLetterGroups::errorClass(text) + QChar(0x1f) + print;
        LetterGroup& g = groups[EventErrorGroups::groupIndex(index, groups, key, [&] {
            LetterGroup made;
            made.consumer = consumer;
            made.fingerprint = print;
            made.example = text;
            return made;
        })];
        g.count += q->value(2).toLongLong();
        g.texts << text;
        g.firstIds << q->value(3).toLongLong();
        widenSpan(g.oldest, g.newest, d.toDateTime(q->value(4)), d.toDateTime(q->value(5)));
    }
    std::stable_sort(groups.begin(), groups.end(),
                     [](const LetterGroup& a, const LetterGroup& b) { return a.count > b.count; });
    groups.resize(std::min<int>(int(groups.size()), context.options().maxFindingsPerCheck));

    QVector<Finding> findings;
    for (LetterGroup& g : groups) {
        auto ids = EventErrorGroups::sampleIds(g.firstIds, g.count, int(g.texts.size()), [&](int k) {
            return db.exec(
                QStringLiteral("SELECT id FROM {dead_letters} WHERE status = 'NEW' AND consumer_name "
                               "= :consumer AND error = :text ORDER BY id LIMIT :limit"),
                {{QStringLiteral(":consumer"), g.consumer},
                 {QStringLiteral(":text"), g.texts.at(k)},
                 {QStringLiteral(":limit"), Finding::MaxSamples}});
        });
        if (!ids)
            return ids.error();

        Finding f;
        f.id = id();
        f.key = id() + QLatin1Char('/') + g.consumer + QLatin1Char('/') + g.fingerprint;
        f.severity = Severity::Warning;
        f.title = tr("%1 dead letter(s) of consumer %2: %3")
                      .arg(g.count)
                      .arg(g.consumer, clipAtWord(g.fingerprint, 100));
        f.evidence.count = g.count;
        f.evidence.unit = QStringLiteral("dead letters");
        f.evidence.oldest = g.oldest;
        f.evidence.newest = g.newest;
        f.evidence.sampleKind = QStringLiteral("dead_letter");
        f.evidence.sampleIds = *ids;
        f.evidence.details.insert(QStringLiteral("consumer"), g.consumer);
        f.evidence.details.insert(QStringLiteral("fingerprint"), g.fingerprint);
        f.evidence.details.insert(QStringLiteral("example"), g.example);
        // The exact group (consumer, error class, fingerprint) in NEW: never a substring of the error,
        // which can match another group's letters ("unknown SKU SKU-" and "unknown SKU sku-27").
        DeadLetterGroup target;
        target.consumerName = g.consumer;
        target.errorClass = DeadLetterGroups::errorClass(g.example);
        target.fingerprint = g.fingerprint;
        target.example = g.example;
        target.count = g.count;
        target.statuses = QStringList{DeadLetterStatus::New};
        // A consumer that refused the messages themselves (not retries run out): the payload may be
        // the cause, and a replay as they are would make the same dead letters again. The repair
        // comes first, in the steps and in the prepared actions (a front end preselects the first).
        const bool refused = target.errorClass == QLatin1String("permanent");
        f.causes << rb.cause("gave-up").arg(g.consumer);
        if (refused)
            f.causes << rb.cause("refused");
        f.causes << rb.cause("kept");
        if (refused)
            f.runbook << rb.step("open") << rb.step("edit-first") << rb.step("fix")
                      << rb.step("replay-repaired") << rb.step("discard");
        else
            f.runbook << rb.step("open") << rb.step("fix") << rb.step("edit") << rb.step("replay")
                      << rb.step("discard");
        if (refused) {
            PreparedAction repair;
            repair.operation = PreparedAction::Operation::RunCommand;
            repair.deadLetterGroup = target;
            repair.typedConfirmation = g.count > 1;
            repair.label =
                tr("Repair the payloads of the %1 dead letter(s) of this group first").arg(g.count);
            repair.consequence =
                tr("Nothing changes yet: the group's payload repair opens (one JSON change, every letter's "
                   "diff previewed, a reason, the count typed) and each letter keeps its original. Replay "
                   "the group once its payloads are right.");
            repair.commandRefused =
                tr("the change is yours to write: outboxctl dlq edit-group for this group with --set PATH "
                   "--to VALUE (or --replace), --dry-run first");
            f.actions << repair;
        }
        for (bool replay : {true, false}) {
            PreparedAction a;
            a.operation = replay ? PreparedAction::Operation::ReplayDeadLetters
                                 : PreparedAction::Operation::DiscardDeadLetters;
            a.deadLetterGroup = target;
            a.typedConfirmation = g.count > 1;
            a.label = replay ? tr("Replay the %1 dead letter(s) of this group").arg(g.count)
                             : tr("Discard the %1 dead letter(s) of this group").arg(g.count);
            a.consequence =
                replay ? tr("They become REPLAYING; a running relay produces them to their topic again "
                            "and marks them REPLAYED.")
                       : tr("They become DISCARDED and are never delivered again.");
            CommandLine command(
                QStringLiteral("outboxctl"),
                {QStringLiteral("dlq"), replay ? QStringLiteral("replay") : QStringLiteral("discard")});
            command.option(QStringLiteral("status"), DeadLetterStatus::New)
                .option(QStringLiteral("consumer"), g.consumer)
                .option(QStringLiteral("group-class"), target.errorClass)
                .option(QStringLiteral("group"), g.fingerprint);
            context.prepareCommand(a, command);
            f.actions << a;
        }
        findings << f;
    }
    return findings;
}

// Its page of docs/runbooks/ and the lines its findings take (core/diagnosis/Runbook.h).
Runbook DeadLettersCheck::runbook() const
{
    Runbook r = Runbook::page(
        "dead-letters", "Consumers dead-lettered messages", "warning",
        "NEW dead letters, one finding per consumer and error fingerprint: the consumer gave up on these "
        "messages. Replay or discard them once the cause is fixed.");
    r.causes = {
        {"gave-up",
         QT_TRANSLATE_NOOP(
             "outbox::Runbook",
             "Consumer %1 gave up on these messages: the handler failed for good (a poison message, missing "
             "reference data, a bug) or its retries ran out."),
         "", "CONSUMER"},
        {"refused",
         QT_TRANSLATE_NOOP(
             "outbox::Runbook",
             "The consumer refused the messages themselves, not a passing failure: when their payload is "
             "the cause (a typo, a wrong value, a missing field), replaying them as they are makes the "
             "same dead letters again."),
         "the error class is permanent: the consumer refused the messages"},
        {"kept", QT_TRANSLATE_NOOP(
                     "outbox::Runbook",
                     "The messages stay in dead_letters with their original bytes, key and headers; nothing "
                     "retries them on its own.")},
    };
    r.steps = {
        {"open", QT_TRANSLATE_NOOP("outbox::Runbook",
                                   "Open a sample dead letter and read its error, payload and context.")},
        {"edit-first",
         QT_TRANSLATE_NOOP(
             "outbox::Runbook",
             "Before any replay, find out whether the payload is the cause. When it is (a typo, a wrong "
             "value, a missing field), repair the group's payloads first (prepared below): one JSON change "
             "for the whole group, every diff previewed, with a reason (outboxctl dlq edit-group --consumer "
             "NAME --group-class CLASS --group FINGERPRINT --set PATH --to VALUE --dry-run, then without "
             "--dry-run). Each letter keeps its original and the edit is audited in chunks."),
         "the error class is permanent: the consumer refused the messages"},
        {"fix", QT_TRANSLATE_NOOP(
                    "outbox::Runbook",
                    "Outside the product: fix the consumer or the data it missed (deploy the fix, add the "
                    "reference data).")},
        {"edit",
         QT_TRANSLATE_NOOP(
             "outbox::Runbook",
             "When the payload itself is the cause (a typo, a wrong value, a missing field), repair the "
             "group's payloads before replaying, or the replay makes the same dead letters again: one JSON "
             "change for the whole group, every diff previewed, with a reason (outboxctl dlq edit-group "
             "--consumer NAME --group-class CLASS --group FINGERPRINT --set PATH --to VALUE --dry-run, then "
             "without --dry-run). Each letter keeps its original and the edit is audited in chunks."),
         "the error class is retries_exhausted: the retries ran out"},
        {"replay",
         QT_TRANSLATE_NOOP(
             "outbox::Runbook",
             "Replay the group (prepared below): a running relay produces the messages again to their "
             "topic with their original event_id, and the consumer's inbox keeps it idempotent."),
         "the error class is retries_exhausted: the retries ran out"},
        {"replay-repaired",
         QT_TRANSLATE_NOOP(
             "outbox::Runbook",
             "Then, once the payloads are repaired or the consumer is fixed, replay the group (prepared "
             "below): a running relay produces the messages again to their topic with their original "
             "event_id, and the consumer's inbox keeps it idempotent."),
         "the error class is permanent: the consumer refused the messages"},
        {"discard",
         QT_TRANSLATE_NOOP(
             "outbox::Runbook",
             "If the messages are not needed any more, discard them (prepared below); the decision "
             "stays in the audit log.")},
    };
    return r;
}

} // namespace outbox
