#include "core/db/FailureGroups.h"

#include "core/db/Database.h"
#include "core/db/EventStatus.h"
#include "core/db/JsonFields.h"

#include <QHash>
#include <QJsonArray>
#include <QRegularExpression>
#include <QSqlQuery>
#include <algorithm>

namespace outbox {
namespace {
const QString UnsentWithError =
    QStringLiteral("status IN ('PENDING', 'SENDING', 'FAILED', 'DEAD') AND last_error IS NOT NULL");

// The WHERE clause for a group's statuses, from the fixed status names only (never caller text).
Result<QString> statusClause(const QStringList& statuses)
{
    if (statuses.isEmpty())
        return UnsentWithError;
    QStringList quoted;
    for (const QString& s : statuses) {
        auto status = EventStatus::parse(s);
        if (!status)
            return status.error();
        quoted << QLatin1Char('\'') + *status + QLatin1Char('\'');
    }
    return QStringLiteral("status IN (%1) AND last_error IS NOT NULL").arg(quoted.join(QStringLiteral(", ")));
}
} // namespace

QJsonObject FailureGroup::toJson() const
{
    return QJsonObject{{QStringLiteral("error_class"), errorClass},
                       {QStringLiteral("fingerprint"), fingerprint},
                       {QStringLiteral("example"), example},
                       {QStringLiteral("count"), count},
                       {QStringLiteral("first_id"), firstId},
                       {QStringLiteral("statuses"), QJsonArray::fromStringList(statuses)}};
}

Result<FailureGroup> FailureGroup::fromJson(const QJsonObject& json)
{
    if (Status s = JsonFields::check(
            json, QStringLiteral("group"),
            {QStringLiteral("error_class"), QStringLiteral("fingerprint"), QStringLiteral("statuses")},
            {QStringLiteral("statuses")});
        !s)
        return s.error();
    auto statuses = JsonFields::statuses(json.value(QStringLiteral("statuses")), QStringLiteral("statuses"),
                                         [](const QString& name) { return EventStatus::parse(name); });
    if (!statuses)
        return statuses.error();
    FailureGroup group;
    group.statuses = *statuses;
    group.errorClass = json.value(QStringLiteral("error_class")).toString();
    group.fingerprint = json.value(QStringLiteral("fingerprint")).toString();
    return group;
}

QString FailureGroups::fingerprint(const QString& errorText)
{
    static const QRegularExpression uuid(
        QStringLiteral("[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}"));
    static const QRegularExpression hex(QStringLiteral("\\b0x[0-9a-fA-F]+\\b|\\b[0-9a-fA-F]{16,}\\b"));
    static const QRegularExpression digits(QStringLiteral("\\d+"));
    static const QRegularExpression spaces(QStringLiteral("\\s+"));
    QString s = errorText;
    s.replace(uuid, QStringLiteral("<uuid>"));
    s.replace(hex, QStringLiteral("<hex>"));
    s.replace(digits, QStringLiteral("<n>"));
    s.replace(spaces, QStringLiteral(" "));
    return s.trimmed().left(500);
}

Result<QVector<FailureGroup>> FailureGroups::list()
{
    return list(QStringList{});
}

Result<QVector<FailureGroup>> FailureGroups::list(const QStringList& statuses)
{
    auto where = statusClause(statuses);
    if (!where)
        return where.error();
    // Distinct texts are grouped in the database; the fingerprint (a regex) merges them here.
    auto q = m_db.exec(
        QStringLiteral("SELECT last_error_class, last_error, COUNT(*), MIN(id) FROM {events} WHERE %1 "
                       "GROUP BY last_error_class, last_error ORDER BY COUNT(*) DESC LIMIT :cap")
            .arg(*where),
        {{QStringLiteral(":cap"), MaxDistinctErrors}});
    if (!q)
        return q.error();
    QHash<QString, int> index;
    QVector<FailureGroup> groups;
    while (q->next()) {
        const QString errorClass = q->value(0).toString();
        const QString text = q->value(1).toString();
        const QString print = fingerprint(text);
        const QString key = errorClass + QChar(0x1f) + print;
        auto it = index.find(key);
        if (it == index.end()) {
            index.insert(key, groups.size());
            groups << FailureGroup{
                errorClass, print, text, q->value(2).toLongLong(), q->value(3).toLongLong(), statuses, {}};
        } else {
            FailureGroup& g = groups[*it];
            g.count += q->value(2).toLongLong();
            g.firstId = std::min(g.firstId, q->value(3).toLongLong());
        }
    }
    std::stable_sort(groups.begin(), groups.end(),
                     [](const FailureGroup& a, const FailureGroup& b) { return a.count > b.count; });
    return groups;
}

Result<QVector<qint64>> FailureGroups::ids(const FailureGroup& group, qint64 afterId, int limit)
{
    if (limit <= 0 || limit > 10000)
        return Error::usage(QStringLiteral("page size must be between 1 and 10000"));
    auto where = statusClause(group.statuses);
    if (!where)
        return where.error();
    QVector<qint64> out;
    qint64 cursor = afterId;
    // Scan the group's error class in keyset pages and keep the rows whose text has the fingerprint.
    while (out.size() < limit) {
        const QString classClause = group.errorClass.isEmpty() ? QStringLiteral("last_error_class IS NULL")
                                                               : QStringLiteral("last_error_class = :cls");
        QVariantMap binds{{QStringLiteral(":after"), cursor}, {QStringLiteral(":limit"), 2000}};
        if (!group.errorClass.isEmpty())
            binds.insert(QStringLiteral(":cls"), group.errorClass);
        auto q = m_db.exec(QStringLiteral("SELECT id, last_error FROM {events} WHERE %1 AND %2 AND id > "
                                          ":after ORDER BY id LIMIT :limit")
                               .arg(*where, classClause),
                           binds);
        if (!q)
            return q.error();
        int rows = 0;
        while (q->next()) {
            ++rows;
            cursor = q->value(0).toLongLong();
            const QString seen = group.fingerprintSeenAs
                                     ? group.fingerprintSeenAs(fingerprint(q->value(1).toString()))
                                     : fingerprint(q->value(1).toString());
            if (seen == group.fingerprint && out.size() < limit)
                out << cursor;
        }
        if (rows < 2000)
            break;
    }
    return out;
}

} // namespace outbox
