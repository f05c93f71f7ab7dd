#include "ui/web/WebApi.h"

#include "core/consumer/ConsumerOverview.h"
#include "core/db/DeadLetterStore.h"
#include "core/db/EventStatus.h"
#include "core/db/EventStore.h"
#include "core/db/FailureGroups.h"
#include "core/db/InboxStore.h"
#include "core/ops/AuditCsv.h"
#include "core/ops/AuditLog.h"
#include "core/ops/EventTrail.h"
#include "core/ops/RelayControl.h"
#include "ui/web/DatabaseWorkerPool.h"
#include "ui/web/LatestFindings.h"
#include "ui/web/LatestSnapshot.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QRegularExpression>
#include <algorithm>
#include <atomic>
#include <memory>

namespace outbox::web {

namespace {

// A search over text a viewer sees masked (error texts, header and payload values) answers yes or
// no about the hidden value: 178 requests recovered a secret through `error=`. Such filters are
// not evaluated for a masked principal.
Status refuseMaskedSearch(const PayloadMasker& masker, bool searchesMaskedText)
{
    if (masker.isEmpty() || !searchesMaskedText)
        return {};
    return Error::usage(WebApi::tr("the error, header and payload filters search text that is masked for "
                                   "viewers; an operator token may use them"));
}

QString queryValue(const QUrlQuery& q, const QString& key)
{
    return q.queryItemValue(key, QUrl::FullyDecoded);
}

QStringList queryValues(const QUrlQuery& q, const QString& key)
{
    QStringList values;
    for (const QString& v : q.allQueryItemValues(key, QUrl::FullyDecoded))
        values << v.split(QLatin1Char(','), Qt::SkipEmptyParts);
    return values;
}

QJsonValue nextCursor(qint64 next)
{
    return next > 0 ? QJsonValue(next) : QJsonValue();
}

// A dead-letter failure group as GET /api/v1/dead-letters/groups lists it.
Result<DeadLetterGroup> deadLetterGroupFromJson(const QJsonValue& value)
{
    if (!value.isObject())
        return Error::usage(WebApi::tr("group must be a JSON object"));
    const QJsonObject g = value.toObject();
    static const QStringList keys = {QStringLiteral("consumer"), QStringLiteral("error_class"),
                                     QStringLiteral("fingerprint"), QStringLiteral("statuses")};
    DeadLetterGroup group;
    for (auto it = g.begin(); it != g.end(); ++it) {
        if (!keys.contains(it.key()))
            return Error::usage(WebApi::tr("unknown group field \"%1\" (expected %2)")
                                    .arg(it.key(), keys.join(QStringLiteral(", "))));
        if (it.key() == QLatin1String("statuses")) {
            if (!it->isArray())
                return Error::usage(WebApi::tr("group field \"statuses\" must be an array of strings"));
            for (const QJsonValue& v : it->toArray()) {
                auto status = DeadLetterStatus::parse(v.toString());
                if (!v.isString() || !status)
                    return Error::usage(WebApi::tr("group field \"statuses\" names an unknown status"));
                group.statuses << *status;
            }
        } else if (!it->isString()) {
            return Error::usage(WebApi::tr("group field \"%1\" must be a string").arg(it.key()));
        }
    }
    group.consumerName = g.value(QStringLiteral("consumer")).toString();
    group.errorClass = g.value(QStringLiteral("error_class")).toString();
    group.fingerprint = g.value(QStringLiteral("fingerprint")).toString();
    return group;
}

} // namespace

WebApi::WebApi(DatabaseWorkerPool& pool, const LatestSnapshot& latest, PayloadMasker masker,
               int sampleIntervalMs, QObject* parent)
    : QObject(parent), m_pool(pool), m_latest(latest), m_masker(std::move(masker)),
      m_sampleIntervalMs(sampleIntervalMs), m_jobs(pool.url(), pool.tablePrefix())
{
}

PayloadMasker WebApi::maskerFor(const Principal& principal) const
{
    // Copied into each job: the database threads never share state with the server's thread.
    return principal.role == Role::Operator && !principal.anonymous ? PayloadMasker() : m_masker;
}

void WebApi::handle(const ApiCall& call, Done done)
{
    static const QRegularExpression eventPath(QStringLiteral("^/api/v1/events/([^/]+)$"));
    static const QRegularExpression tracePath(QStringLiteral("^/api/v1/events/([^/]+)/trace$"));
    static const QRegularExpression letterPath(QStringLiteral("^/api/v1/dead-letters/(\\d+)$"));
    static const QRegularExpression jobPath(QStringLiteral("^/api/v1/jobs/([0-9a-f-]{1,64})$"));
    static const QRegularExpression relayPath(QStringLiteral("^/api/v1/relays/(pause|resume|drain)$"));
    const QString& p = call.path;

    if (call.post || call.del || call.patch) {
        if (!call.principal.mayChange())
            return done(WebReply::error(403, tr("this token may only read; changes need an operator token")));
    }
    if (call.patch) {
        if (const auto m = letterPath.match(p); m.hasMatch())
            return editDeadLetter(m.captured(1).toLongLong(), call, std::move(done));
        return done(WebReply::error(405, tr("%1 does not accept PATCH").arg(p)));
    }
    if (call.del) {
        if (const auto m = jobPath.match(p); m.hasMatch())
            return jobs(call, m.captured(1), std::move(done));
        return done(WebReply::error(405, tr("%1 does not accept DELETE").arg(p)));
    }
    if (call.post) {
        if (p == QLatin1String("/api/v1/events/requeue"))
            return runAction(call, ActionKind::Requeue, std::move(done));
        if (p == QLatin1String("/api/v1/events/dead"))
            return runAction(call, ActionKind::MarkDead, std::move(done));
        if (p == QLatin1String("/api/v1/dead-letters/replay"))
            return runAction(call, ActionKind::ReplayDeadLetters, std::move(done));
        if (p == QLatin1String("/api/v1/dead-letters/discard"))
            return runAction(call, ActionKind::DiscardDeadLetters, std::move(done));
        if (const auto m = relayPath.match(p); m.hasMatch())
            return controlRelays(call, m.captured(1), std::move(done));
        return done(WebReply::error(404, tr("there is no action at %1").arg(p)));
    }

    if (p == QLatin1String("/api/v1/jobs"))
        return jobs(call, QString(), std::move(done));
    if (const auto m = jobPath.match(p); m.hasMatch())
        return jobs(call, m.captured(1), std::move(done));
    if (p == QLatin1String("/api/v1/summary"))
        return done(summary(call.principal));
    if (p == QLatin1String("/api/v1/me")) // who the token is: the web console shows actions to operators
        return done(WebReply::json(QJsonObject{{QStringLiteral("name"), call.principal.name},
                                               {QStringLiteral("role"), call.principal.role == Role::Operator
                                                                            ? QStringLiteral("operator")
                                                                            : QStringLiteral("viewer")},
                                               {QStringLiteral("may_change"), call.principal.mayChange()}}));
    if (p == QLatin1String("/api/v1/failure-groups"))
        return listFailureGroups(call, std::move(done));
    if (p == QLatin1String("/api/v1/findings") && m_findings)
        return done(m_findings->reply(maskerFor(call.principal)));
    if (p == QLatin1String("/api/v1/events"))
        return listEvents(call, std::move(done));
    if (p == QLatin1String("/api/v1/events/blocked"))
        return listBlocked(call, std::move(done));
    if (p == QLatin1String("/api/v1/dead-letters/groups"))
        return listDeadLetterGroups(call, std::move(done));
    if (p == QLatin1String("/api/v1/dead-letters"))
        return listDeadLetters(call, std::move(done));
    if (p == QLatin1String("/api/v1/audit"))
        return listAudit(call, std::move(done));
    if (p == QLatin1String("/api/v1/consumers"))
        return listConsumers(call, std::move(done));
    if (p == QLatin1String("/api/v1/inbox"))
        return listInbox(call, std::move(done));
    if (p == QLatin1String("/api/v1/events/requeue") || p == QLatin1String("/api/v1/events/dead") ||
        p == QLatin1String("/api/v1/dead-letters/replay") ||
        p == QLatin1String("/api/v1/dead-letters/discard")) {
        WebReply r = WebReply::error(405, tr("%1 takes POST").arg(p));
        r.headers << qMakePair(QByteArrayLiteral("Allow"), QByteArrayLiteral("POST"));
        return done(r);
    }
    if (const auto m = eventPath.match(p); m.hasMatch())
        return showEvent(m.captured(1), call, std::move(done));
    if (const auto m = tracePath.match(p); m.hasMatch())
        return traceEvent(m.captured(1), call, std::move(done));
    if (const auto m = letterPath.match(p); m.hasMatch())
        return showDeadLetter(m.captured(1), call, std::move(done));
    done(WebReply::error(404, tr("there is nothing at %1").arg(p)));
}

WebReply WebApi::summary(const Principal& principal) const
{
    if (!m_latest.has())
        return WebReply::error(
            503, m_latest.healthy()
                     ? tr("no sample has been taken yet; try again in a moment")
                     : tr("the sampler cannot read the database: %1").arg(m_latest.lastError()));
    QJsonObject o = maskerFor(principal).maskSnapshot(m_latest.snapshot().toJson());
    o[QStringLiteral("sample_age_seconds")] = double(m_latest.ageMs()) / 1000.0;
    o[QStringLiteral("stale")] = m_latest.ageMs() > 3 * qint64(m_sampleIntervalMs) || !m_latest.healthy();
    if (!m_latest.healthy())
        o[QStringLiteral("sampler_error")] = maskerFor(principal).maskText(m_latest.lastError());
    return WebReply::json(o);
}

Status WebApi::rejectUnknown(const QUrlQuery& query, const QStringList& known) const
{
    for (const auto& item : query.queryItems(QUrl::FullyDecoded))
        if (!known.contains(item.first))
            return Error::usage(tr("unknown parameter \"%1\" (expected one of %2)")
                                    .arg(item.first, known.join(QStringLiteral(", "))));
    return {};
}

Result<std::pair<int, qint64>> WebApi::paging(const QUrlQuery& query, int defaultLimit) const
{
    int limit = defaultLimit;
    qint64 afterId = 0;
    bool ok = true;
    if (query.hasQueryItem(QStringLiteral("limit"))) {
        limit = queryValue(query, QStringLiteral("limit")).toInt(&ok);
        if (!ok || limit < 1 || limit > MaxPageSize)
            return Error::usage(tr("limit must be a number between 1 and %1").arg(MaxPageSize));
    }
    if (query.hasQueryItem(QStringLiteral("after_id"))) {
        afterId = queryValue(query, QStringLiteral("after_id")).toLongLong(&ok);
        if (!ok || afterId < 0)
            return Error::usage(tr("after_id must be a non-negative number"));
    }
    return std::pair{limit, afterId};
}

void WebApi::listEvents(const ApiCall& call, Done done)
{
    static const QStringList filterKeys = {
        QStringLiteral("status"),        QStringLiteral("type"),     QStringLiteral("aggregate_type"),
        QStringLiteral("aggregate"),     QStringLiteral("error"),    QStringLiteral("created_from"),
        QStringLiteral("created_until"), QStringLiteral("event_id"), QStringLiteral("topic"),
        QStringLiteral("header"),        QStringLiteral("payload"),  QStringLiteral("partition"),
        QStringLiteral("offset")};
    if (Status s = rejectUnknown(call.query,
                                 filterKeys + QStringList{QStringLiteral("limit"), QStringLiteral("after_id"),
                                                          QStringLiteral("order")});
        !s)
        return done(WebReply::fromError(s.error()));
    auto page = paging(call.query, 100);
    if (!page)
        return done(WebReply::fromError(page.error()));
    QJsonObject filterJson;
    for (const QString& key : filterKeys) {
        if (!call.query.hasQueryItem(key))
            continue;
        if (key == QLatin1String("status"))
            filterJson[key] = QJsonArray::fromStringList(queryValues(call.query, key));
        else if (key == QLatin1String("header") || key == QLatin1String("payload")) // values may hold commas
            filterJson[key] =
                QJsonArray::fromStringList(call.query.allQueryItemValues(key, QUrl::FullyDecoded));
        else
            filterJson[key] = queryValue(call.query, key);
    }
    auto filter = EventFilter::fromJson(filterJson);
    if (!filter)
        return done(WebReply::fromError(filter.error()));
    const QString order = queryValue(call.query, QStringLiteral("order"));
    if (!order.isEmpty() && order != QLatin1String("asc") && order != QLatin1String("desc"))
        return done(WebReply::fromError(Error::usage(tr("order must be asc or desc"))));

    EventPageRequest request;
    request.filter = *filter;
    request.limit = page->first;
    request.afterId = page->second;
    request.ascending = order == QLatin1String("asc");
    PayloadMasker masker = maskerFor(call.principal);
    if (Status s = refuseMaskedSearch(masker, !filter->errorText.isEmpty() || !filter->headers.isEmpty() ||
                                                  !filter->payload.isEmpty());
        !s)
        return done(WebReply::fromError(s.error()));
    m_pool.submit(
        [request, masker](Database& db) {
            auto result = EventStore(db).list(request);
            if (!result)
                return WebReply::fromError(result.error());
            QJsonArray events;
            for (const OutboxEvent& e : result->events)
                events.append(masker.maskRow(e.toJson()));
            return WebReply::json(
                QJsonObject{{QStringLiteral("events"), events},
                            {QStringLiteral("next_after_id"), nextCursor(result->nextAfterId)}});
        },
        this, std::move(done));
}

void WebApi::showEvent(const QString& idOrEventId, const ApiCall& call, Done done)
{
    PayloadMasker masker = maskerFor(call.principal);
    m_pool.submit(
        [idOrEventId, masker](Database& db) {
            auto event = EventStore(db).find(idOrEventId);
            if (!event)
                return WebReply::fromError(event.error());
            return WebReply::json(masker.maskRow(event->toJson()));
        },
        this, std::move(done));
}

void WebApi::traceEvent(const QString& idOrEventId, const ApiCall& call, Done done)
{
    PayloadMasker masker = maskerFor(call.principal);
    m_pool.submit(
        [idOrEventId, masker](Database& db) {
            auto trail = EventTrail::build(db, idOrEventId);
            if (!trail)
                return WebReply::fromError(trail.error());
            // The event, and every step's summary and details (errors, audit reasons, filters).
            return WebReply::json(masker.maskRow(trail->toJson()));
        },
        this, std::move(done));
}

void WebApi::listDeadLetters(const ApiCall& call, Done done)
{
    if (Status s = rejectUnknown(call.query, {QStringLiteral("status"), QStringLiteral("consumer"),
                                              QStringLiteral("topic"), QStringLiteral("event_id"),
                                              QStringLiteral("error"), QStringLiteral("limit"),
                                              QStringLiteral("after_id")});
        !s)
        return done(WebReply::fromError(s.error()));
    auto page = paging(call.query, 100);
    if (!page)
        return done(WebReply::fromError(page.error()));
    DeadLetterFilter filter;
    for (const QString& s : queryValues(call.query, QStringLiteral("status"))) {
        auto status = DeadLetterStatus::parse(s);
        if (!status)
            return done(WebReply::fromError(status.error()));
        filter.statuses << *status;
    }
    filter.consumerName = queryValue(call.query, QStringLiteral("consumer"));
    filter.topic = queryValue(call.query, QStringLiteral("topic"));
    filter.eventId = queryValue(call.query, QStringLiteral("event_id"));
    filter.errorText = queryValue(call.query, QStringLiteral("error"));
    PayloadMasker masker = maskerFor(call.principal);
    if (Status s = refuseMaskedSearch(masker, !filter.errorText.isEmpty()); !s)
        return done(WebReply::fromError(s.error()));
    const auto [limit, afterId] = *page;
    m_pool.submit(
        [filter, limit = limit, afterId = afterId, masker](Database& db) {
            auto result = DeadLetterStore(db).list(filter, afterId, limit);
            if (!result)
                return WebReply::fromError(result.error());
            QJsonArray letters;
            for (const DeadLetter& l : result->letters)
                letters.append(masker.maskRow(l.toJson()));
            return WebReply::json(
                QJsonObject{{QStringLiteral("dead_letters"), letters},
                            {QStringLiteral("next_after_id"), nextCursor(result->nextAfterId)}});
        },
        this, std::move(done));
}

void WebApi::listConsumers(const ApiCall& call, Done done)
{
    if (Status s = rejectUnknown(call.query, {QStringLiteral("consumer"), QStringLiteral("older_than_ms"),
                                              QStringLiteral("reconcile")});
        !s)
        return done(WebReply::fromError(s.error()));
    ConsumerOverviewQuery::Options options;
    options.consumerName = queryValue(call.query, QStringLiteral("consumer"));
    if (call.query.hasQueryItem(QStringLiteral("older_than_ms"))) {
        bool ok = false;
        options.unconsumedOlderThanMs =
            queryValue(call.query, QStringLiteral("older_than_ms")).toLongLong(&ok);
        if (!ok || options.unconsumedOlderThanMs < 0)
            return done(
                WebReply::error(400, tr("older_than_ms must be a non-negative number of milliseconds")));
    }
    if (call.query.hasQueryItem(QStringLiteral("reconcile"))) {
        const QString r = queryValue(call.query, QStringLiteral("reconcile"));
        if (r != QLatin1String("true") && r != QLatin1String("false"))
            return done(WebReply::error(400, tr("reconcile must be true or false")));
        options.reconcile = r == QLatin1String("true");
    }
    options.lag = m_consumerLag;
    PayloadMasker masker = maskerFor(call.principal);
    m_pool.submit(
        [options, masker](Database& db) {
            auto overview = ConsumerOverviewQuery(db).load(options);
            if (!overview)
                return WebReply::fromError(overview.error());
            QJsonObject o = overview->toJson();
            if (o.contains(QStringLiteral("lag_error")))
                o[QStringLiteral("lag_error")] =
                    masker.maskText(o.value(QStringLiteral("lag_error")).toString());
            return WebReply::json(o);
        },
        this, std::move(done));
}

void WebApi::listInbox(const ApiCall& call, Done done)
{
    if (Status s = rejectUnknown(call.query, {QStringLiteral("consumer"), QStringLiteral("status"),
                                              QStringLiteral("event_id"), QStringLiteral("limit"),
                                              QStringLiteral("after_id")});
        !s)
        return done(WebReply::fromError(s.error()));
    auto page = paging(call.query, 100);
    if (!page)
        return done(WebReply::fromError(page.error()));
    InboxFilter filter;
    filter.consumerName = queryValue(call.query, QStringLiteral("consumer"));
    filter.status = queryValue(call.query, QStringLiteral("status")).toUpper();
    filter.eventId = queryValue(call.query, QStringLiteral("event_id"));
    if (Status s = filter.validate(); !s)
        return done(WebReply::fromError(s.error()));
    PayloadMasker masker = maskerFor(call.principal);
    const auto [limit, afterId] = *page;
    m_pool.submit(
        [filter, limit = limit, afterId = afterId, masker](Database& db) {
            auto result = InboxStore(db).list(filter, afterId, limit);
            if (!result)
                return WebReply::fromError(result.error());
            QJsonArray rows;
            for (const InboxRecord& r : result->records)
                rows.append(masker.maskRow(r.toJson()));
            return WebReply::json(
                QJsonObject{{QStringLiteral("inbox"), rows},
                            {QStringLiteral("next_after_id"), nextCursor(result->nextAfterId)}});
        },
        this, std::move(done));
}

void WebApi::showDeadLetter(const QString& id, const ApiCall& call, Done done)
{
    PayloadMasker masker = maskerFor(call.principal);
    const qint64 numericId = id.toLongLong();
    m_pool.submit(
        [numericId, masker](Database& db) {
            auto letter = DeadLetterStore(db).find(numericId);
            if (!letter)
                return WebReply::fromError(letter.error());
            return WebReply::json(masker.maskRow(letter->toJson()));
        },
        this, std::move(done));
}

void WebApi::listAudit(const ApiCall& call, Done done)
{
    if (Status s = rejectUnknown(call.query, {QStringLiteral("since"), QStringLiteral("action"),
                                              QStringLiteral("actor"), QStringLiteral("target_kind"),
                                              QStringLiteral("target_id"), QStringLiteral("limit"),
                                              QStringLiteral("after_id"), QStringLiteral("format")});
        !s)
        return done(WebReply::fromError(s.error()));
    auto page = paging(call.query, 100);
    if (!page)
        return done(WebReply::fromError(page.error()));
    // format=csv: the same page as CSV through core's AuditCsv (cells never become spreadsheet
    // formulas), the header line on the first page, the next cursor in X-Next-After-Id.
    const QString format = queryValue(call.query, QStringLiteral("format"));
    if (!format.isEmpty() && format != QLatin1String("json") && format != QLatin1String("csv"))
        return done(WebReply::fromError(Error::usage(tr("format must be json or csv"))));
    const bool csv = format == QLatin1String("csv");
    AuditQuery query;
    query.limit = page->first;
    query.afterId = page->second;
    query.action = queryValue(call.query, QStringLiteral("action"));
    query.actor = queryValue(call.query, QStringLiteral("actor"));
    query.targetKind = queryValue(call.query, QStringLiteral("target_kind"));
    if (call.query.hasQueryItem(QStringLiteral("target_id"))) {
        bool ok = false;
        query.targetId = queryValue(call.query, QStringLiteral("target_id")).toLongLong(&ok);
        if (!ok || query.targetId < 1 || query.targetKind.isEmpty())
            return done(WebReply::fromError(
                Error::usage(tr("target_id must be a positive number and comes with target_kind"))));
    }
    const QString since = queryValue(call.query, QStringLiteral("since"));
    if (!since.isEmpty()) {
        query.since = QDateTime::fromString(since, Qt::ISODateWithMs);
        if (!query.since.isValid())
            return done(WebReply::fromError(
                Error::usage(tr("since must be an ISO 8601 time, e.g. 2026-01-31T12:00:00Z"))));
    }
    PayloadMasker masker = maskerFor(call.principal);
    m_pool.submit(
        [query, masker, csv](Database& db) {
            auto entries = AuditLog(db).list(query);
            if (!entries)
                return WebReply::fromError(entries.error());
            const qint64 next =
                entries->size() == query.limit && !entries->isEmpty() ? entries->last().id : 0;
            if (csv) {
                QByteArray body = query.afterId > 0 ? QByteArray() : AuditCsv::header();
                for (const AuditEntry& e : *entries)
                    body += AuditCsv::line(masker.maskRow(e.toJson()));
                WebReply reply = WebReply::bytes(body, QByteArrayLiteral("text/csv; charset=utf-8"));
                reply.headers.append({QByteArrayLiteral("X-Next-After-Id"), QByteArray::number(next)});
                return reply;
            }
            QJsonArray rows;
            for (const AuditEntry& e : *entries)
                rows.append(masker.maskRow(e.toJson()));
            return WebReply::json(QJsonObject{{QStringLiteral("entries"), rows},
                                              {QStringLiteral("next_after_id"), nextCursor(next)}});
        },
        this, std::move(done));
}

void WebApi::listFailureGroups(const ApiCall& call, Done done)
{
    if (Status s = rejectUnknown(call.query, {QStringLiteral("status")}); !s)
        return done(WebReply::fromError(s.error()));
    const QStringList statuses = queryValues(call.query, QStringLiteral("status"));
    PayloadMasker masker = maskerFor(call.principal); // error texts may quote payloads
    m_pool.submit(
        [statuses, masker](Database& db) {
            FailureGroups groups(db);
            auto result = statuses.isEmpty() ? groups.list() : groups.list(statuses);
            if (!result)
                return WebReply::fromError(result.error());
            QJsonArray rows;
            for (const FailureGroup& g : *result)
                rows.append(masker.maskRow(
                    QJsonObject{{QStringLiteral("error_class"), g.errorClass},
                                {QStringLiteral("fingerprint"), g.fingerprint},
                                {QStringLiteral("example"), g.example},
                                {QStringLiteral("count"), g.count},
                                {QStringLiteral("first_id"), g.firstId},
                                {QStringLiteral("statuses"), QJsonArray::fromStringList(g.statuses)}}));
            return WebReply::json(QJsonObject{{QStringLiteral("groups"), rows}});
        },
        this, std::move(done));
}

void WebApi::controlRelays(const ApiCall& call, const QString& command, Done done)
{
    QJsonParseError parseError;
    const QJsonDocument doc = QJsonDocument::fromJson(call.body, &parseError);
    if (parseError.error != QJsonParseError::NoError || !doc.isObject())
        return done(WebReply::error(400, tr("the request body must be a JSON object")));
    const QJsonObject body = doc.object();
    for (auto it = body.begin(); it != body.end(); ++it)
        if (it.key() != QLatin1String("workers") && it.key() != QLatin1String("reason"))
            return done(
                WebReply::error(400, tr("unknown field \"%1\" (expected workers, reason)").arg(it.key())));
    QStringList workers;
    const QJsonValue w = body.value(QStringLiteral("workers"));
    if (!w.isArray() || w.toArray().isEmpty() || w.toArray().size() > 1000)
        return done(WebReply::error(400, tr("workers must be an array of 1 to 1000 relay worker ids")));
    for (const QJsonValue& v : w.toArray()) {
        if (!v.isString() || v.toString().isEmpty())
            return done(WebReply::error(400, tr("workers must be an array of 1 to 1000 relay worker ids")));
        workers << v.toString();
    }
    const QJsonValue reasonValue = body.value(QStringLiteral("reason"));
    const QString reason = reasonValue.toString().trimmed();
    if (!reasonValue.isString() || reason.isEmpty() || reason.size() > BulkActionEngine::MaxReasonLength)
        return done(WebReply::error(
            400, tr("reason is required (at most %1 characters)").arg(BulkActionEngine::MaxReasonLength)));
    const RelayControl::Command c = command == QLatin1String("pause")    ? RelayControl::Command::Pause
                                    : command == QLatin1String("resume") ? RelayControl::Command::Resume
                                                                         : RelayControl::Command::Drain;
    const QString actor = call.principal.name;
    m_pool.submit(
        [c, workers, reason, actor](Database& db) {
            auto result = RelayControl(db).apply(c, workers, reason, actor);
            if (!result)
                return WebReply::fromError(result.error());
            return WebReply::json(
                QJsonObject{{QStringLiteral("action"), result->action},
                            {QStringLiteral("changed"), QJsonArray::fromStringList(result->changed)},
                            {QStringLiteral("missing"), QJsonArray::fromStringList(result->missing)},
                            {QStringLiteral("audit_id"), result->auditId}});
        },
        this, std::move(done));
}

void WebApi::runAction(const ApiCall& call, ActionKind kind, Done done)
{
    const bool deadLetters = !isEventAction(kind);
    QJsonParseError parseError;
    const QJsonDocument doc = QJsonDocument::fromJson(call.body, &parseError);
    if (parseError.error != QJsonParseError::NoError || !doc.isObject())
        return done(WebReply::error(400, tr("the request body must be a JSON object (%1)")
                                             .arg(parseError.error != QJsonParseError::NoError
                                                      ? parseError.errorString()
                                                      : tr("got another JSON value"))));
    const QJsonObject body = doc.object();
    QStringList known = {QStringLiteral("ids"), QStringLiteral("filter"), QStringLiteral("reason"),
                         QStringLiteral("dry_run"), QStringLiteral("force")};
    known << (deadLetters ? QStringList{QStringLiteral("to_topic"), QStringLiteral("group")}
                          : QStringList{QStringLiteral("resend"), QStringLiteral("group")});
    for (auto it = body.begin(); it != body.end(); ++it)
        if (!known.contains(it.key()))
            return done(WebReply::error(
                400,
                tr("unknown field \"%1\" (expected %2)").arg(it.key(), known.join(QStringLiteral(", ")))));

    ActionRequest request;
    request.actor = call.principal.name;
    const QJsonValue ids = body.value(QStringLiteral("ids"));
    if (!ids.isUndefined()) {
        if (!ids.isArray())
            return done(WebReply::error(400, tr("ids must be an array of positive integers")));
        for (const QJsonValue& v : ids.toArray()) {
            const double d = v.toDouble(-1);
            if (!v.isDouble() || d < 1 || d != double(qint64(d)))
                return done(WebReply::error(400, tr("ids must be an array of positive integers")));
            request.ids << qint64(d);
        }
    }
    const QJsonValue filter = body.value(QStringLiteral("filter"));
    if (!filter.isUndefined()) {
        if (!filter.isObject())
            return done(WebReply::error(400, tr("filter must be a JSON object")));
        if (deadLetters) {
            const QJsonObject f = filter.toObject();
            static const QStringList keys = {QStringLiteral("status"), QStringLiteral("consumer"),
                                             QStringLiteral("topic"), QStringLiteral("event_id"),
                                             QStringLiteral("error")};
            DeadLetterFilter dl;
            for (auto it = f.begin(); it != f.end(); ++it) {
                if (!keys.contains(it.key()))
                    return done(WebReply::error(400, tr("unknown filter field \"%1\"").arg(it.key())));
                if (it.key() != QLatin1String("status") && !it->isString())
                    return done(
                        WebReply::error(400, tr("filter field \"%1\" must be a string").arg(it.key())));
            }
            const QJsonValue status = f.value(QStringLiteral("status"));
            QStringList names = status.isArray()
                                    ? QStringList()
                                    : status.toString().split(QLatin1Char(','), Qt::SkipEmptyParts);
            for (const QJsonValue& v : status.toArray())
                names << v.toString();
            for (const QString& s : names) {
                auto parsed = DeadLetterStatus::parse(s);
                if (!parsed)
                    return done(WebReply::fromError(parsed.error()));
                dl.statuses << *parsed;
            }
            dl.consumerName = f.value(QStringLiteral("consumer")).toString();
            dl.topic = f.value(QStringLiteral("topic")).toString();
            dl.eventId = f.value(QStringLiteral("event_id")).toString();
            dl.errorText = f.value(QStringLiteral("error")).toString();
            request.deadLetterFilter = dl;
        } else {
            auto ef = EventFilter::fromJson(filter.toObject());
            if (!ef)
                return done(WebReply::fromError(ef.error()));
            request.eventFilter = *ef;
        }
    }
    const QJsonValue group = body.value(QStringLiteral("group"));
    if (!group.isUndefined() && deadLetters) {
        auto dlGroup = deadLetterGroupFromJson(group);
        if (!dlGroup)
            return done(WebReply::fromError(dlGroup.error()));
        request.deadLetterGroup = *dlGroup;
    } else if (!group.isUndefined()) {
        const QJsonObject g = group.toObject();
        static const QStringList keys = {QStringLiteral("error_class"), QStringLiteral("fingerprint")};
        if (!group.isObject())
            return done(WebReply::error(400, tr("group must be a JSON object")));
        for (auto it = g.begin(); it != g.end(); ++it) {
            if (!keys.contains(it.key()))
                return done(WebReply::error(400, tr("unknown group field \"%1\" (expected error_class, "
                                                    "fingerprint)")
                                                     .arg(it.key())));
            if (!it->isString())
                return done(WebReply::error(400, tr("group field \"%1\" must be a string").arg(it.key())));
        }
        FailureGroup fg;
        fg.errorClass = g.value(QStringLiteral("error_class")).toString();
        fg.fingerprint = g.value(QStringLiteral("fingerprint")).toString();
        request.group = fg;
    }
    for (const char* key : {"reason", "to_topic"}) {
        const QJsonValue v = body.value(QLatin1String(key));
        if (!v.isUndefined() && !v.isString())
            return done(WebReply::error(400, tr("%1 must be a string").arg(QLatin1String(key))));
    }
    for (const char* key : {"dry_run", "force", "resend"}) {
        const QJsonValue v = body.value(QLatin1String(key));
        if (!v.isUndefined() && !v.isBool())
            return done(WebReply::error(400, tr("%1 must be true or false").arg(QLatin1String(key))));
    }
    request.reason = body.value(QStringLiteral("reason")).toString();
    request.dryRun = body.value(QStringLiteral("dry_run")).toBool();
    request.force = body.value(QStringLiteral("force")).toBool();
    request.resend = body.value(QStringLiteral("resend")).toBool();
    request.replayTopic = body.value(QStringLiteral("to_topic")).toString();

    ActionInput input = ActionInput::Targets;
    if (Status s = BulkActionEngine::validate(kind, request, &input); !s) {
        // Core names the problem; the API adds the field to change.
        const QString field = [input]() {
            switch (input) {
            case ActionInput::Targets:
                return QStringLiteral("ids, group or filter");
            case ActionInput::Ids:
                return QStringLiteral("ids");
            case ActionInput::Filter:
                return QStringLiteral("filter");
            case ActionInput::Group:
                return QStringLiteral("group");
            case ActionInput::Reason:
                return QStringLiteral("reason");
            case ActionInput::ReplayTopic:
                return QStringLiteral("to_topic");
            case ActionInput::Actor:
            case ActionInput::SampleSize:
            case ActionInput::ChunkSize:
                break;
            }
            return QString();
        }();
        return done(WebReply::fromError(Error{
            s.error().kind, field.isEmpty() ? s.message() : tr("%1 (field %2)").arg(s.message(), field)}));
    }

    // A dry run and a small id list answer at once, as one request on the pool.
    QVector<qint64> uniqueIds = request.ids;
    std::sort(uniqueIds.begin(), uniqueIds.end());
    uniqueIds.erase(std::unique(uniqueIds.begin(), uniqueIds.end()), uniqueIds.end());
    if (request.dryRun || (!uniqueIds.isEmpty() && uniqueIds.size() <= request.chunkSize)) {
        m_pool.submit(
            [request, kind](Database& db) {
                auto result = OperatorActions(db).perform(kind, request);
                if (!result)
                    return WebReply::fromError(result.error());
                return WebReply::json(result->toJson());
            },
            this, std::move(done));
        return;
    }
    // More ids than one chunk: a job, no need to count first.
    if (!uniqueIds.isEmpty())
        return startJob(kind, request, done);
    // A group or a filter: count on the pool; one chunk's worth runs there and then, more is a job.
    auto needsJob = std::make_shared<std::atomic<bool>>(false);
    m_pool.submit(
        [request, kind, needsJob](Database& db) {
            BulkActionEngine engine(db);
            ActionRequest counting = request;
            counting.sampleSize = 0;
            auto preview = engine.preview(kind, counting);
            if (!preview)
                return WebReply::fromError(preview.error());
            if (preview->matched > request.chunkSize) {
                needsJob->store(true);
                return WebReply::json(preview->toJson(), 202);
            }
            auto result = engine.run(kind, request);
            if (!result)
                return WebReply::fromError(result.error());
            return WebReply::json(result->toJson());
        },
        this,
        [this, kind, request, needsJob, done = std::move(done)](const WebReply& reply) {
            if (needsJob->load())
                return startJob(kind, request, done);
            done(reply);
        });
}

void WebApi::startJob(ActionKind kind, const ActionRequest& request, const Done& done)
{
    auto job = m_jobs.start(kind, request);
    if (!job) {
        WebReply r = WebReply::error(
            429, tr("%1 bulk actions are running already; try again when one has finished (GET /api/v1/jobs)")
                     .arg(ActionJobs::MaxRunning));
        r.headers << qMakePair(QByteArrayLiteral("Retry-After"), QByteArrayLiteral("10"));
        return done(r);
    }
    WebReply r = WebReply::json(*job, 202);
    r.headers << qMakePair(QByteArrayLiteral("Location"),
                           job->value(QStringLiteral("href")).toString().toUtf8());
    done(r);
}

void WebApi::jobs(const ApiCall& call, const QString& id, Done done)
{
    if (!call.query.isEmpty())
        return done(WebReply::error(400, tr("%1 takes no parameters").arg(call.path)));
    if (call.del) {
        auto cancelled = m_jobs.cancel(id);
        if (!cancelled)
            return done(WebReply::fromError(cancelled.error()));
        return done(WebReply::json(*cancelled, 202));
    }
    const PayloadMasker masker = maskerFor(call.principal); // reasons and filters are free text
    if (id.isEmpty()) {
        QJsonArray jobs;
        for (const QJsonValue& j : m_jobs.list())
            jobs.append(masker.maskRow(j.toObject()));
        return done(WebReply::json(QJsonObject{{QStringLiteral("jobs"), jobs}}));
    }
    auto job = m_jobs.status(id);
    if (!job)
        return done(
            WebReply::error(404, tr("there is no job %1 (finished jobs are kept for an hour)").arg(id)));
    done(WebReply::json(masker.maskRow(*job)));
}

} // namespace outbox::web
