#include "core/db/DeadLetterGroups.h"

#include "core/db/Database.h"
#include "core/db/EventStatus.h"
#include "core/db/FailureGroups.h"
#include "core/db/JsonFields.h"

#include <QCoreApplication>
#include <QHash>
#include <QJsonArray>
#include <QSqlQuery>
#include <algorithm>

namespace outbox {

namespace {

// The WHERE clause for the statuses, from the fixed status names only (never caller text).
Result<QString> statusClause(const QStringList& statuses)
{
    QStringList quoted;
    for (const QString& s : statuses.isEmpty() ? QStringList{DeadLetterStatus::New} : statuses) {
        auto status = DeadLetterStatus::parse(s);
        if (!status)
            return status.error();
        quoted << QLatin1Char('\'') + *status + QLatin1Char('\'');
    }
    return QStringLiteral("status IN (%1)").arg(quoted.join(QStringLiteral(", ")));
}

} // namespace

QJsonObject DeadLetterGroup::toJson() const
{
    return QJsonObject{
        {QStringLiteral("consumer"), consumerName},
        {QStringLiteral("error_class"), errorClass},
        {QStringLiteral("fingerprint"), fingerprint},
        {QStringLiteral("example"), example},
        {QStringLiteral("count"), count},
        {QStringLiteral("first_id"), firstId},
        {QStringLiteral("statuses"),
         QJsonArray::fromStringList(statuses.isEmpty() ? QStringList{DeadLetterStatus::New} : statuses)}};
}

Result<DeadLetterGroup> DeadLetterGroup::fromJson(const QJsonObject& json)
{
    if (Status s = JsonFields::check(json, QStringLiteral("group"),
                                     {QStringLiteral("consumer"), QStringLiteral("error_class"),
                                      QStringLiteral("fingerprint"), QStringLiteral("statuses")},
                                     {QStringLiteral("statuses")});
        !s)
        return s.error();
    auto statuses = JsonFields::statuses(json.value(QStringLiteral("statuses")), QStringLiteral("statuses"),
                                         [](const QString& name) { return DeadLetterStatus::parse(name); });
    if (!statuses)
        return statuses.error();
    DeadLetterGroup group;
    group.statuses = *statuses;
    group.consumerName = json.value(QStringLiteral("consumer")).toString();
    group.errorClass = json.value(QStringLiteral("error_class")).toString();
    group.fingerprint = json.value(QStringLiteral("fingerprint")).toString();
    return group;
}

QString DeadLetterGroups::errorClass(const QString& error)
{
    return error.startsWith(QLatin1String("retries exhausted")) ? QStringLiteral("retries_exhausted")
                                                                : QStringLiteral("permanent");
}

QVector<FilterField> DeadLetterGroups::fields()
{
    // The dead-letter filter's labels, one text each in the catalogue.
    const auto label = [](const char* text) {
        return QCoreApplication::translate("outbox::DeadLetterFilter", text);
    };
    return {
        {QStringLiteral("status"),
         label("Status"),
         {},
         {DeadLetterStatus::New, DeadLetterStatus::Replayed, DeadLetterStatus::Discarded}},
        {QStringLiteral("consumer"), label("Consumer"), {}, {}},
    };
}

Result<QVector<DeadLetterGroup>> DeadLetterGroups::list(const QStringList& statuses)
{
    auto where = statusClause(statuses);
    if (!where)
        return where.error();
    // Distinct (consumer, text) pairs are counted in the database; the class and the fingerprint
    // (a regex) merge them here.
    auto q = m_db.exec(QStringLiteral("SELECT consumer_name, error, COUNT(*), MIN(id) FROM {dead_letters} "
                                      "WHERE %1 GROUP BY consumer_name, error ORDER BY COUNT(*) DESC "
                                      "LIMIT :cap")
                           .arg(*where),
                       {{QStringLiteral(":cap"), MaxDistinctErrors}});
    if (!q)
        return q.error();
    QHash<QString, int> index;
    QVector<DeadLetterGroup> groups;
    while (q->next()) {
        const QString consumer = q->value(0).toString();
        const QString text = q->value(1).toString();
        const QString cls = errorClass(text);
        const QString print = FailureGroups::fingerprint(text);
        const QString key = consumer + QChar(0x1f) + cls + QChar(0x1f) + print;
        auto it = index.find(key);
        if (it == index.end()) {
            index.insert(key, int(groups.size()));
            groups << DeadLetterGroup{
                consumer, cls, print, text, q->value(2).toLongLong(), q->value(3).toLongLong(), statuses, {}};
        } else {
            DeadLetterGroup& g = groups[*it];
            g.count += q->value(2).toLongLong();
            g.firstId = std::min(g.firstId, q->value(3).toLongLong());
        }
    }
    std::stable_sort(groups.begin(), groups.end(), [](const DeadLetterGroup& a, const DeadLetterGroup& b) {
        return a.count != b.count ? a.count > b.count : a.firstId < b.firstId;
    });
    return groups;
}

bool DeadLetterGroups::isMember(const DeadLetterGroup& group, const QString& error)
{
    const QString fingerprint = group.fingerprintSeenAs
                                    ? group.fingerprintSeenAs(FailureGroups::fingerprint(error))
                                    : FailureGroups::fingerprint(error);
    return errorClass(error) == group.errorClass && fingerprint == group.fingerprint;
}

Result<QVector<qint64>> DeadLetterGroups::ids(const DeadLetterGroup& group, qint64 afterId, int limit)
{
    if (limit <= 0 || limit > 10000)
        return Error::usage(QStringLiteral("page size must be between 1 and 10000"));
    auto where = statusClause(group.statuses);
    if (!where)
        return where.error();
    constexpr int Scan = 2000;
    QVector<qint64> out;
    qint64 cursor = afterId;
    // Scan the consumer's dead letters in keyset pages and keep those of the group.
    while (out.size() < limit) {
        auto q = m_db.exec(QStringLiteral("SELECT id, error FROM {dead_letters} WHERE %1 AND consumer_name = "
                                          ":consumer AND id > :after ORDER BY id LIMIT :limit")
                               .arg(*where),
                           {{QStringLiteral(":consumer"), group.consumerName},
                            {QStringLiteral(":after"), cursor},
                            {QStringLiteral(":limit"), Scan}});
        if (!q)
            return q.error();
        int rows = 0;
        while (q->next() && out.size() < limit) {
            ++rows;
            cursor = q->value(0).toLongLong();
            if (isMember(group, q->value(1).toString()))
                out << cursor;
        }
        if (rows < Scan)
            break;
    }
    return out;
}

} // namespace outbox
