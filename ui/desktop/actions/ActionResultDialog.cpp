#include "ui/desktop/actions/ActionResultDialog.h"

#include "core/ops/AuditLog.h"
#include "ui/desktop/connection/DatabaseSession.h"
#include "ui/desktop/widgets/Controls.h"

#include <QDialogButtonBox>
#include <QFormLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QTableWidget>
#include <QVBoxLayout>

namespace outbox::desktop {

ActionResultDialog::ActionResultDialog(DatabaseSession* session, const QString& title,
                                       const ActionResult& result, bool cancelled, const QString& error,
                                       QWidget* parent)
    : QDialog(parent), m_session(session), m_auditIds(result.auditIds)
{
    setObjectName(QStringLiteral("actionResult"));
    setWindowTitle(tr("%1: result").arg(title));
    auto* layout = new QVBoxLayout(this);
    auto* form = new QFormLayout;
    auto addLine = [&](const QString& label, const QString& text, const char* name) {
        auto* value = controls::paragraph(this, QLatin1String(name), true);
        value->setText(text);
        form->addRow(label, value);
    };
    addLine(tr("Done:"), tr("%n row(s) changed", nullptr, int(result.affected)), "resultDone");
    addLine(tr("Conflicts:"),
            result.conflictCount > 0 ? tr("%n row(s) changed state meanwhile and were left alone", nullptr,
                                          int(result.conflictCount))
                                     : tr("none"),
            "resultConflicts");
    addLine(tr("Cancelled:"),
            cancelled ? tr("yes: every finished chunk is committed and audited, the rest is untouched")
                      : tr("no"),
            "resultCancelled");
    addLine(tr("Chunks:"), tr("%n audited transaction(s)", nullptr, result.chunks), "resultChunks");
    QStringList ids;
    for (qint64 id : result.auditIds)
        ids << QStringLiteral("#%1").arg(id);
    if (ids.size() > 20)
        ids = ids.mid(0, 10) << QStringLiteral("…") << ids.mid(ids.size() - 5);
    addLine(tr("Audit rows:"), ids.isEmpty() ? tr("none") : ids.join(QStringLiteral(", ")), "resultAuditIds");
    if (!error.isEmpty())
        addLine(tr("Error:"), error, "resultError");
    layout->addLayout(form);

    if (!result.conflicts.isEmpty()) {
        QStringList lines;
        for (const ActionConflict& c : result.conflicts) {
            if (lines.size() >= 20)
                break;
            lines << tr("#%1: %2").arg(c.id).arg(c.reason);
        }
        auto* conflicts = new QPlainTextEdit(lines.join(QLatin1Char('\n')), this);
        conflicts->setObjectName(QStringLiteral("resultConflictList"));
        conflicts->setReadOnly(true);
        conflicts->setMaximumHeight(120);
        layout->addWidget(conflicts);
    }

    m_auditStatus = controls::infoLabel(this, QStringLiteral("resultAuditStatus"));
    m_auditStatus->hide();
    layout->addWidget(m_auditStatus);
    m_audit = new QTableWidget(0, 7, this);
    m_audit->setObjectName(QStringLiteral("resultAuditTable"));
    m_audit->setHorizontalHeaderLabels(
        {tr("Audit id"), tr("At"), tr("Actor"), tr("Action"), tr("Affected"), tr("Outcome"), tr("Reason")});
    m_audit->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_audit->verticalHeader()->hide();
    m_audit->horizontalHeader()->setStretchLastSection(true);
    m_audit->hide();
    layout->addWidget(m_audit, 1);

    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    m_showAudit = buttons->addButton(tr("Show audit rows"), QDialogButtonBox::ActionRole);
    m_showAudit->setObjectName(QStringLiteral("resultShowAudit"));
    m_showAudit->setEnabled(!m_auditIds.isEmpty() && m_session);
    layout->addWidget(buttons);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_showAudit, &QPushButton::clicked, this, &ActionResultDialog::showAuditRows);
    resize(640, m_auditIds.isEmpty() ? 240 : 420);
}

void ActionResultDialog::showAuditRows()
{
    if (!m_session || m_auditIds.isEmpty()) {
        m_auditStatus->setText(tr("Not connected."));
        m_auditStatus->show();
        return;
    }
    m_showAudit->setEnabled(false);
    m_auditStatus->setText(tr("Reading the audit rows…"));
    m_auditStatus->show();
    // The run's audit ids ascend; read newest first from just above the last, in pages, until
    // below the first (other writers' rows in between are skipped), at most MaxAuditRows.
    const QVector<qint64> ids = m_auditIds;
    m_session->run<QVector<AuditEntry>>(
        this,
        [ids](Database& db) -> Result<QVector<AuditEntry>> {
            QVector<AuditEntry> found;
            const qint64 first = *std::min_element(ids.cbegin(), ids.cend());
            AuditQuery query;
            query.afterId = *std::max_element(ids.cbegin(), ids.cend()) + 1;
            query.limit = 500;
            while (found.size() < MaxAuditRows) {
                auto page = AuditLog(db).list(query);
                if (!page)
                    return page.error();
                for (const AuditEntry& e : *page) {
                    if (e.id < first || found.size() >= MaxAuditRows)
                        break;
                    if (ids.contains(e.id))
                        found << e;
                }
                if (page->size() < query.limit || page->isEmpty() || page->last().id <= first)
                    break;
                query.afterId = page->last().id;
            }
            std::reverse(found.begin(), found.end());
            return found;
        },
        [this](const Result<QVector<AuditEntry>>& r) {
            m_showAudit->setEnabled(true);
            if (!r.ok()) {
                m_auditStatus->setText(r.message());
                return;
            }
            m_auditStatus->setText(tr("%n audit row(s) of this run:", nullptr, int(r->size())));
            m_audit->setRowCount(int(r->size()));
            for (int row = 0; row < r->size(); ++row) {
                const AuditEntry& e = r->at(row);
                const QStringList cells{QString::number(e.id),
                                        QLocale().toString(e.at.toLocalTime(), QLocale::ShortFormat),
                                        e.actor,
                                        e.action,
                                        QString::number(e.affectedCount),
                                        e.outcome,
                                        e.reason};
                for (int column = 0; column < cells.size(); ++column)
                    m_audit->setItem(row, column, new QTableWidgetItem(cells.at(column)));
            }
            m_audit->resizeColumnsToContents();
            m_audit->show();
        });
}

} // namespace outbox::desktop
