#pragma once

#include <QStringList>
#include <QVariantMap>

namespace outbox {

// A WHERE clause assembled from fixed SQL fragments and bound values; user text only ever
// travels in binds.
struct SqlCondition
{
    QStringList clauses;
    QVariantMap binds;

    void add(const QString& clause) { clauses << clause; }
    void add(const QString& clause, const QString& name, const QVariant& value)
    {
        clauses << clause;
        binds.insert(name, value);
    }
    // Adds "column IN (:p0, :p1, …)" with one bound value per item.
    void addIn(const QString& column, const QString& prefix, const QVariantList& values)
    {
        QStringList names;
        for (int i = 0; i < values.size(); ++i) {
            const QString name = QStringLiteral(":%1%2").arg(prefix).arg(i);
            names << name;
            binds.insert(name, values.at(i));
        }
        clauses << (values.isEmpty()
                        ? QStringLiteral("1 = 0")
                        : QStringLiteral("%1 IN (%2)").arg(column, names.join(QStringLiteral(", "))));
    }
    void merge(const SqlCondition& other)
    {
        clauses << other.clauses;
        for (auto it = other.binds.cbegin(); it != other.binds.cend(); ++it)
            binds.insert(it.key(), it.value());
    }
    QString where() const
    {
        return clauses.isEmpty()
                   ? QStringLiteral("1 = 1")
                   : QStringLiteral("(") + clauses.join(QStringLiteral(") AND (")) + QStringLiteral(")");
    }
};

} // namespace outbox
