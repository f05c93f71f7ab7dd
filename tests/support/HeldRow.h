#pragma once

#include "core/db/Database.h"

namespace outbox::test {

// Holds one row locked (SELECT … FOR UPDATE in an open transaction on the test's connection), so
// work that needs it — a bulk action's later chunk — waits until release() or the end of the scope,
// also when a check fails on the way.
class HeldRow
{
public:
    HeldRow(Database& db, const QString& table, qint64 id) : m_db(db)
    {
        m_ok =
            m_db.beginWrite().ok() &&
            m_db.exec(QStringLiteral("SELECT id FROM %1 WHERE id = %2 FOR UPDATE").arg(table).arg(id)).ok();
    }
    ~HeldRow() { release(); }
    HeldRow(const HeldRow&) = delete;
    HeldRow& operator=(const HeldRow&) = delete;

    bool ok() const { return m_ok; }
    void release()
    {
        if (m_db.inTransaction())
            m_db.rollback();
    }

private:
    Database& m_db;
    bool m_ok = false;
};

} // namespace outbox::test
