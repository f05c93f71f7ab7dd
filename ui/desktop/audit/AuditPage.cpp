#include "ui/desktop/audit/AuditPage.h"

#include "core/ops/AuditLog.h"
#include "ui/desktop/connection/DatabaseSession.h"
#include "ui/desktop/widgets/RecordTableModel.h"

#include <QCheckBox>
#include <QDateTimeEdit>
#include <QFile>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QJsonArray>
#include <QJsonDocument>
#include <QLineEdit>
#include <QPushButton>
#include <QSaveFile>
#include <QTableView>

namespace outbox::desktop {
namespace {

QString csvField(const QString& text)
{
    if (!text.contains(QLatin1Char(',')) && !text.contains(QLatin1Char('"')) &&
        !text.contains(QLatin1Char('\n')))
        return text;
    QString quoted = text;
    quoted.replace(QStringLiteral("\""), QStringLiteral("\"\""));
    return QLatin1Char('"') + quoted + QLatin1Char('"');
}

const QStringList ExportKeys{QStringLiteral("id"),         QStringLiteral("at"),
                             QStringLiteral("actor"),      QStringLiteral("host"),
                             QStringLiteral("action"),     QStringLiteral("target_kind"),
                             QStringLiteral("target_ids"), QStringLiteral("filter"),
                             QStringLiteral("reason"),     QStringLiteral("affected_count"),
                             QStringLiteral("before"),     QStringLiteral("after"),
                             QStringLiteral("outcome")};

} // namespace

AuditPage::AuditPage(QWidget* parent) : QWidget(parent)
{
    setObjectName(QStringLiteral("auditPage"));
    auto* layout = new QVBoxLayout(this);
    auto* bar = new QHBoxLayout;
    m_action = new QLineEdit(this);
    m_action->setObjectName(QStringLiteral("auditAction"));
    m_action->setPlaceholderText(tr("action, e.g. events.requeue"));
    m_actor = new QLineEdit(this);
    m_actor->setObjectName(QStringLiteral("auditActor"));
    m_actor->setPlaceholderText(tr("actor"));
    m_sinceEnabled = new QCheckBox(tr("since"), this);
    m_since = new QDateTimeEdit(QDateTime::currentDateTime().addDays(-7), this);
    m_since->setCalendarPopup(true);
    auto* apply = new QPushButton(tr("Apply"), this);
    apply->setObjectName(QStringLiteral("auditApply"));
    auto* more = new QPushButton(tr("Load more"), this);
    auto* csv = new QPushButton(tr("Export CSV…"), this);
    csv->setObjectName(QStringLiteral("exportCsv"));
    auto* json = new QPushButton(tr("Export JSON…"), this);
    json->setObjectName(QStringLiteral("exportJson"));
    for (QWidget* w :
         std::initializer_list<QWidget*>{m_action, m_actor, m_sinceEnabled, m_since, apply, more, csv, json})
        bar->addWidget(w);
    layout->addLayout(bar);
    m_model = new RecordTableModel({{QStringLiteral("id"), tr("Id")},
                                    {QStringLiteral("at"), tr("When")},
                                    {QStringLiteral("actor"), tr("Actor")},
                                    {QStringLiteral("action"), tr("Action")},
                                    {QStringLiteral("target_kind"), tr("Target")},
                                    {QStringLiteral("affected_count"), tr("Affected")},
                                    {QStringLiteral("outcome"), tr("Outcome")},
                                    {QStringLiteral("reason"), tr("Reason")},
                                    {QStringLiteral("target_ids"), tr("Target ids")}},
                                   this);
    m_table = new QTableView(this);
    m_table->setObjectName(QStringLiteral("auditTable"));
    m_table->setModel(m_model);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->verticalHeader()->hide();
    m_table->horizontalHeader()->setStretchLastSection(true);
    layout->addWidget(m_table, 1);
    connect(apply, &QPushButton::clicked, this, &AuditPage::reload);
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
    loadMore();
}

void AuditPage::loadMore()
{
    if (!m_context.browse || m_cursor < 0)
        return;
    AuditQuery q;
    q.action = m_action->text().trimmed();
    q.actor = m_actor->text().trimmed();
    if (m_sinceEnabled->isChecked())
        q.since = m_since->dateTime().toUTC();
    q.afterId = m_cursor;
    q.limit = PageSize;
    const quint64 generation = m_generation;
    m_context.browse->run<QVector<AuditEntry>>(
        this, [q](Database& db) { return AuditLog(db).list(q); },
        [this, generation](const Result<QVector<AuditEntry>>& r) {
            if (generation != m_generation)
                return;
            if (!r.ok()) {
                emit statusMessage(r.message());
                return;
            }
            QVector<QJsonObject> rows;
            for (const AuditEntry& e : *r)
                rows << e.toJson();
            m_model->appendRows(rows);
            m_cursor = r->size() < PageSize ? -1 : r->constLast().id;
        });
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
            if (!file.open(QIODevice::WriteOnly | QIODevice::Text))
                return Error::runtime(QStringLiteral("cannot write %1: %2").arg(path, file.errorString()));
            AuditQuery q = base;
            int rows = 0;
            if (format == Format::Csv)
                file.write(ExportKeys.join(QLatin1Char(',')).toUtf8() + '\n');
            else
                file.write("[\n");
            for (;;) {
                auto page = AuditLog(db).list(q);
                if (!page)
                    return page.error();
                for (const AuditEntry& e : *page) {
                    const QJsonObject o = e.toJson();
                    if (format == Format::Csv) {
                        QStringList fields;
                        for (const QString& key : ExportKeys)
                            fields << csvField(RecordTableModel::display(o.value(key)));
                        file.write(fields.join(QLatin1Char(',')).toUtf8() + '\n');
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
