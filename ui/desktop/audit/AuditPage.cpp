#include "ui/desktop/audit/AuditPage.h"

#include "core/ops/AuditCsv.h"
#include "core/ops/AuditLog.h"
#include "core/support/JsonText.h"
#include "ui/desktop/connection/DatabaseSession.h"
#include "ui/desktop/widgets/Controls.h"
#include "ui/desktop/widgets/EmptyHint.h"
#include "ui/desktop/widgets/Labels.h"
#include "ui/desktop/widgets/RecordTable.h"
#include "ui/desktop/widgets/RecordTableModel.h"

#include <QCheckBox>
#include <QDateTimeEdit>
#include <QFile>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QJsonArray>
#include <QJsonDocument>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSaveFile>
#include <QSplitter>
#include <QTableView>

namespace outbox::desktop {

AuditPage::AuditPage(QWidget* parent) : QWidget(parent)
{
    setObjectName(QStringLiteral("auditPage"));
    auto* layout = new QVBoxLayout(this);
    auto* bar = new QHBoxLayout;
    m_action = controls::filterEdit(this, QStringLiteral("auditAction"), tr("action, e.g. events.requeue"));
    m_actor = controls::filterEdit(this, QStringLiteral("auditActor"), tr("actor"));
    const auto since = controls::timeBound(this, tr("since"), QStringLiteral("auditSince"),
                                           QDateTime::currentDateTime().addDays(-7));
    m_sinceEnabled = since.enabled;
    m_since = since.at;
    auto* apply = controls::button(this, tr("Apply"), QStringLiteral("auditApply"));
    auto* more = controls::button(this, tr("Load more"), QStringLiteral("auditMore"));
    auto* csv = controls::button(this, tr("Export CSV…"), QStringLiteral("exportCsv"));
    auto* json = controls::button(this, tr("Export JSON…"), QStringLiteral("exportJson"));
    for (QWidget* w :
         std::initializer_list<QWidget*>{m_action, m_actor, m_sinceEnabled, m_since, apply, more, csv, json})
        bar->addWidget(w);
    m_info = controls::infoLabel(this, QStringLiteral("auditInfo"));
    bar->addStretch();
    bar->addWidget(m_info);
    layout->addLayout(bar);
    // What an operator reads first (when, who, what, why) is wide enough to read; the list of
    // target ids comes last and is elided in the middle. The pane below shows the whole entry.
    m_model = new RecordTableModel({{QStringLiteral("id"), tr("Id")},
                                    {QStringLiteral("at"), tr("When"), true},
                                    {QStringLiteral("actor"), tr("Actor")},
                                    {QStringLiteral("action"), tr("Action")},
                                    {QStringLiteral("reason"), tr("Reason")},
                                    {QStringLiteral("affected_count"), tr("Affected")},
                                    {QStringLiteral("outcome"), tr("Outcome")},
                                    {QStringLiteral("target_kind"), tr("Target")},
                                    {QStringLiteral("target_ids"), tr("Target ids")}},
                                   this);
    auto* split = new QSplitter(Qt::Vertical, this);
    auto* table =
        new RecordTable(QStringLiteral("auditTable"), m_model, QAbstractItemView::ExtendedSelection, split);
    table->setWidths({{0, QStringLiteral("000000")},
                      {1, QStringLiteral("2026-12-31 23:59:59")},
                      {2, {}, 170},
                      {3, QStringLiteral("deadletters.discard")},
                      {4, {}, 320},
                      {5, tr("Affected")},
                      {6, QStringLiteral("cancelled")},
                      {7, QStringLiteral("dead_letter")}});
    m_table = table;
    table->hint()->setReason(tr("Not connected."));
    m_detail = controls::readOnlyText(split, QStringLiteral("auditDetail"));
    m_detail->setPlaceholderText(tr("Select an entry to read all of it."));
    split->setStretchFactor(0, 4);
    split->setStretchFactor(1, 1);
    layout->addWidget(split, 1);
    connect(table, &RecordTable::currentRowChanged, this, [this](int row) {
        if (row < 0 || row >= m_model->rowCount()) {
            m_detail->clear();
            return;
        }
        QStringList lines;
        for (int c = 0; c < m_model->columnCount(); ++c)
            lines << QStringLiteral("%1: %2").arg(m_model->columns().at(c).title, m_model->cellText(row, c));
        const QJsonObject o = m_model->record(row);
        for (const QString& key : {QStringLiteral("host"), QStringLiteral("filter"), QStringLiteral("before"),
                                   QStringLiteral("after")})
            if (!o.value(key).isNull() && !o.value(key).isUndefined())
                lines << QStringLiteral("%1: %2").arg(key, JsonText::of(o.value(key)));
        m_detail->setPlainText(lines.join(QLatin1Char('\n')));
    });
    connect(apply, &QPushButton::clicked, this, &AuditPage::reload);
    for (QLineEdit* e : {m_action, m_actor})
        connect(e, &QLineEdit::returnPressed, this,
                &AuditPage::reload); // Enter applies, as on the other pages
    connect(more, &QPushButton::clicked, this, &AuditPage::loadMore);
    connect(csv, &QPushButton::clicked, this, [this]() {
        const QString path = QFileDialog::getSaveFileName(this, tr("Export audit log"),
                                                          QStringLiteral("audit.csv"), tr("CSV (*.csv)"));
        if (!path.isEmpty())
            exportTo(path, Format::Csv);
    });
    connect(json, &QPushButton::clicked, this, [this]() {
        const QString path = QFileDialog::getSaveFileName(this, tr("Export audit log"),
                                                          QStringLiteral("audit.json"), tr("JSON (*.json)"));
        if (!path.isEmpty())
            exportTo(path, Format::Json);
    });
}

void AuditPage::setContext(const ConsoleContext& context)
{
    m_context = context;
    reload();
}

void AuditPage::reload()
{
    ++m_generation;
    m_cursor = 0;
    m_model->setRows({});
    m_detail->clear();
    m_info->clear();
    if (!m_context.browse)
        m_table->hint()->setReason(tr("Not connected."));
    loadMore();
}

AuditQuery AuditPage::query() const
{
    AuditQuery q;
    q.action = m_action->text().trimmed();
    q.actor = m_actor->text().trimmed();
    if (m_sinceEnabled->isChecked())
        q.since = m_since->dateTime().toUTC();
    return q;
}

void AuditPage::noteSnapshot()
{
    // The log only grows: entries newer than the newest shown are added on top as they appear,
    // so an audited action shows up without pressing Apply.
    if (!m_context.browse || m_following || m_cursor == 0)
        return;
    AuditQuery q = m_loaded;
    q.limit = PageSize;
    const qint64 newest =
        m_model->rowCount() > 0 ? qint64(m_model->record(0).value(QStringLiteral("id")).toInteger()) : 0;
    const quint64 generation = m_generation;
    m_following = true;
    m_context.browse->run<QVector<AuditEntry>>(
        this, [q](Database& db) { return AuditLog(db).list(q); },
        [this, generation, newest](const Result<QVector<AuditEntry>>& r) {
            m_following = false;
            if (generation != m_generation || !r.ok())
                return;
            QVector<QJsonObject> rows;
            for (const AuditEntry& e : *r)
                if (e.id > newest)
                    rows << e.toJson();
            if (rows.size() == r->size() && newest > 0 && !rows.isEmpty()) {
                reload(); // more new entries than one page: start again from the newest
                return;
            }
            m_model->prependRows(rows);
            m_info->setText(tr("%n entrie(s), as of %1", nullptr, m_model->rowCount())
                                .arg(Labels::time(QDateTime::currentDateTime())));
        });
}

void AuditPage::loadMore()
{
    if (!m_context.browse || m_cursor < 0)
        return;
    AuditQuery q = query();
    if (m_cursor == 0)
        m_loaded = q;
    else
        q = m_loaded; // further pages of the list on screen, whatever the boxes say now
    q.afterId = m_cursor;
    q.limit = PageSize;
    const quint64 generation = m_generation;
    m_context.browse->run<QVector<AuditEntry>>(
        this, [q](Database& db) { return AuditLog(db).list(q); },
        latestRead<QVector<AuditEntry>>(
            &m_generation, generation, [this](const QString& error) { emit statusMessage(error); },
            [this](const QVector<AuditEntry>& entries) {
                m_model->appendRecords(entries);
                m_cursor = entries.size() < PageSize ? -1 : entries.constLast().id;
                m_info->setText(tr("%n entrie(s), as of %1", nullptr, m_model->rowCount())
                                    .arg(Labels::time(QDateTime::currentDateTime())));
                m_table->hint()->setReason(
                    tr("No audit entries match: nothing was done through the console or "
                       "outboxctl yet, or the filter excludes it."));
            }));
}

void AuditPage::exportTo(const QString& path, Format format)
{
    if (!m_context.browse)
        return;
    AuditQuery base;
    base.action = m_action->text().trimmed();
    base.actor = m_actor->text().trimmed();
    if (m_sinceEnabled->isChecked())
        base.since = m_since->dateTime().toUTC();
    base.limit = 1000;
    m_context.browse->run<int>(
        this,
        [base, path, format](Database& db) -> Result<int> {
            QSaveFile file(path);
            if (!file.open(QIODevice::WriteOnly))
                return Error::runtime(QStringLiteral("cannot write %1: %2").arg(path, file.errorString()));
            AuditQuery q = base;
            int rows = 0;
            if (format == Format::Csv)
                file.write(AuditCsv::header());
            else
                file.write("[\n");
            for (;;) {
                auto page = AuditLog(db).list(q);
                if (!page)
                    return page.error();
                for (const AuditEntry& e : *page) {
                    const QJsonObject o = e.toJson();
                    if (format == Format::Csv) {
                        file.write(AuditCsv::line(o));
                    } else {
                        file.write(rows > 0 ? ",\n" : "");
                        file.write(QJsonDocument(o).toJson(QJsonDocument::Compact));
                    }
                    ++rows;
                }
                if (page->size() < q.limit)
                    break;
                q.afterId = page->constLast().id;
            }
            if (format == Format::Json)
                file.write("\n]\n");
            if (!file.commit())
                return Error::runtime(QStringLiteral("cannot write %1: %2").arg(path, file.errorString()));
            return rows;
        },
        [this, path](const Result<int>& r) {
            if (!r.ok()) {
                emit statusMessage(r.message());
                return;
            }
            emit statusMessage(tr("Exported %n audit entrie(s) to %1", nullptr, *r).arg(path));
            emit exported(path, *r);
        });
}

} // namespace outbox::desktop
