#pragma once

#include "core/broker/kafka/ConsumerLag.h"
#include "core/support/PayloadMasker.h"
#include "core/support/Result.h"
#include "ui/web/api/ActionJobs.h"
#include "ui/web/api/ApiCall.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QObject>
#include <functional>

namespace outbox {
class Database;
}

namespace outbox::web {

class DatabaseWorkerPool;
class IdentityProvider;
class LatestFindings;
class LatestFleet;
class LatestSnapshot;

// Lists answer with summaries: payloads and stack traces cut by the database to this many
// characters (with their full size); the whole value is on the detail route. 300 events of 1.2 MB
// once took the server to 2.2 GB for one page.
constexpr int ListPreviewChars = 4096;

// Each row's JSON (row.toJson()), masked for the principal.
template <typename Rows> QJsonArray maskedRows(const Rows& rows, const PayloadMasker& masker)
{
    QJsonArray array;
    for (const auto& row : rows)
        array.append(masker.maskRow(row.toJson()));
    return array;
}

// A search over text a viewer sees masked (error texts, header and payload values) answers yes or
// no about the hidden value: 178 requests recovered a secret through `error=`. Such filters are
// not evaluated for a masked principal: the error to answer with, or success.
Status refuseMaskedSearch(const PayloadMasker& masker, bool searchesMaskedText);
// Refused only when the configuration masks the traceparent header (a trace id is not secret).
Status refuseMaskedTraceSearch(const PayloadMasker& masker, bool searchesTraceId);

// What every controller of the API shares: the database threads, the latest sample and findings,
// the masking of what viewers see, and the bulk-action jobs. A QObject so that the pool's answers
// come back on the server's thread (and are dropped once the API is gone).
class ApiContext : public QObject
{
    Q_OBJECT

public:
    ApiContext(DatabaseWorkerPool& pool, const LatestSnapshot& latest, PayloadMasker masker,
               int sampleIntervalMs);

    // Operators' tokens see everything; viewers (also one that is an operator on this fleet member
    // through operator=) and the public dashboard see masked rows. Copied into each job: the
    // database threads never share state with the server's thread.
    PayloadMasker maskerFor(const Principal& principal) const;

    // Runs `work` (Database& -> Result<T>) on a database thread; its error becomes the reply's
    // status (WebReply::fromError), its value the JSON object `shape` (const T& -> QJsonObject)
    // makes of it, sent with `status`.
    template <typename Work, typename Shape>
    void query(Work work, Shape shape, ApiDone done, int status = 200)
    {
        submit(
            [work = std::move(work), shape = std::move(shape), status](Database& db) {
                auto result = work(db);
                if (!result)
                    return WebReply::fromError(result.error());
                return WebReply::json(shape(*result), status);
            },
            std::move(done));
    }
    // query() for a list: {"<key>": the page's `rows`, masked for `principal`, "next_after_id": …}.
    template <typename Work, typename Rows, typename PageOf>
    void queryPage(const QString& key, Work work, Rows PageOf::*rows, const Principal& principal,
                   ApiDone done)
    {
        query(
            std::move(work),
            [key, rows, masker = maskerFor(principal)](const PageOf& page) {
                return Page::json(key, maskedRows(page.*rows, masker), page.nextAfterId);
            },
            std::move(done));
    }
    // query() for one row (an event, a trace, a dead letter, an audit entry): its toJson(), masked
    // for `principal` (every field, the nested steps of a trace included).
    template <typename Work> void queryRow(Work work, const Principal& principal, ApiDone done)
    {
        query(
            std::move(work),
            [masker = maskerFor(principal)](const auto& row) { return masker.maskRow(row.toJson()); },
            std::move(done));
    }
    // Runs `work` on a database thread; it shapes the whole reply itself.
    void submit(std::function<WebReply(Database&)> work, ApiDone done);

    DatabaseWorkerPool& pool;
    const LatestSnapshot& latest;
    const int sampleIntervalMs;
    // The doctor's latest report behind GET /api/v1/findings (none: 404).
    const LatestFindings* findings = nullptr;
    // The fleet's latest tick behind GET /api/v1/fleet (serve --fleet; none: 404).
    const LatestFleet* fleet = nullptr;
    // GET /api/v1/consumers asks the brokers for lag when a bootstrap is set.
    ConsumerLag::Options consumerLag;
    // Bulk actions of more than one chunk.
    ActionJobs jobs;
    // GET /static/chart.js: Chart.js as read at start (WebServer::start()).
    QByteArray chartJs;
    // /metrics: a relay whose heartbeat is older is reported stale.
    int relayStaleAfterMs = 0;
    // GET /api/v1/auth: the identity provider people sign in with (none: static tokens only); POST
    // /api/v1/auth/token: a confidential client's exchange there.
    IdentityProvider* identity = nullptr;

private:
    PayloadMasker m_viewerMasker;
};

} // namespace outbox::web
