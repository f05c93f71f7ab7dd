#pragma once

#include "core/broker/ConsumerLag.h"
#include "core/ops/BulkActionEngine.h"
#include "core/support/PayloadMasker.h"
#include "ui/web/ActionJobs.h"
#include "ui/web/ApiCall.h"
#include "ui/web/WebReply.h"

#include <QObject>
#include <functional>

namespace outbox::web {

class DatabaseWorkerPool;
class LatestFindings;
class LatestSnapshot;

// The JSON API under /api/v1. Reads and mutations go through core's stores and
// BulkActionEngine on the pool's threads; an action that takes more than one chunk runs as a job
// (ActionJobs: a thread and a connection of its own). This class only parses requests and shapes
// JSON.
class WebApi : public QObject
{
    Q_OBJECT

public:
    using Done = std::function<void(const WebReply&)>;

    WebApi(DatabaseWorkerPool& pool, const LatestSnapshot& latest, PayloadMasker masker, int sampleIntervalMs,
           QObject* parent = nullptr);

    // `call.principal` is already authenticated; the API checks the role for mutations.
    void handle(const ApiCall& call, Done done);
    // The doctor's latest report behind GET /api/v1/findings.
    void setFindings(const LatestFindings* findings) { m_findings = findings; }
    // GET /api/v1/consumers asks the brokers for lag when a bootstrap is set.
    void setConsumerLag(const ConsumerLag::Options& lag) { m_consumerLag = lag; }

    static constexpr int MaxPageSize = 1000;

    // The bulk-action jobs, for their live progress over /ws (DashboardHub).
    ActionJobs& actionJobs() { return m_jobs; }

private:
    WebReply summary(const Principal& principal) const;
    void listEvents(const ApiCall& call, Done done);
    void showEvent(const QString& idOrEventId, const ApiCall& call, Done done);
    void traceEvent(const QString& idOrEventId, const ApiCall& call, Done done);
    void listDeadLetters(const ApiCall& call, Done done);
    void showDeadLetter(const QString& id, const ApiCall& call, Done done);
    void listAudit(const ApiCall& call, Done done);
    void listFailureGroups(const ApiCall& call, Done done);
    void controlRelays(const ApiCall& call, const QString& command, Done done);
    void listConsumers(const ApiCall& call, Done done);
    void listInbox(const ApiCall& call, Done done);
    void runAction(const ApiCall& call, ActionKind kind, Done done);
    void startJob(ActionKind kind, const ActionRequest& request, const Done& done);
    void jobs(const ApiCall& call, const QString& id, Done done);
    // WebRepairApi.cpp: blocked aggregates, dead-letter groups and edits.
    void listBlocked(const ApiCall& call, Done done);
    void listDeadLetterGroups(const ApiCall& call, Done done);
    void editDeadLetter(qint64 id, const ApiCall& call, Done done);

    // Paging parameters shared by the lists: limit (1..MaxPageSize) and after_id.
    Result<std::pair<int, qint64>> paging(const QUrlQuery& query, int defaultLimit) const;
    Status rejectUnknown(const QUrlQuery& query, const QStringList& known) const;
    PayloadMasker maskerFor(const Principal& principal) const;

    DatabaseWorkerPool& m_pool;
    const LatestSnapshot& m_latest;
    PayloadMasker m_masker;
    int m_sampleIntervalMs;
    const LatestFindings* m_findings = nullptr;
    ActionJobs m_jobs;
    ConsumerLag::Options m_consumerLag;
};

} // namespace outbox::web
