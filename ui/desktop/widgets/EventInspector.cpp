#include "ui/desktop/widgets/EventInspector.h"

#include "core/db/EventStore.h"
#include "core/ops/AuditLog.h"
#include "core/ops/EventTrail.h"
#include "core/support/JsonText.h"
#include "ui/desktop/connection/DatabaseSession.h"
#include "ui/desktop/widgets/Controls.h"
#include "ui/desktop/widgets/JsonTreeModel.h"
#include "ui/desktop/widgets/Labels.h"
#include "ui/desktop/widgets/PlainToolTip.h"
#include "ui/desktop/widgets/RecordTableModel.h"

#include <QApplication>
#include <QClipboard>
#include <QHeaderView>
#include <QJsonDocument>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QTabWidget>
#include <QTableWidget>
#include <QTreeView>
#include <QVBoxLayout>

namespace outbox::desktop {
namespace {
struct Inspection
{
    OutboxEvent event;
    QVector<AuditEntry> history;
    QVector<TrailStep> trail;
};

QString stepLabel(const QString& kind)
{
    static const struct
    {
        const char* kind;
        const char* label;
    } labels[] = {
        {"created", QT_TRANSLATE_NOOP("outbox::desktop::EventInspector", "Created")},
        {"attempts", QT_TRANSLATE_NOOP("outbox::desktop::EventInspector", "Claims")},
        {"held", QT_TRANSLATE_NOOP("outbox::desktop::EventInspector", "Held")},
        {"last_error", QT_TRANSLATE_NOOP("outbox::desktop::EventInspector", "Last error")},
        {"sent", QT_TRANSLATE_NOOP("outbox::desktop::EventInspector", "Sent")},
        {"audit", QT_TRANSLATE_NOOP("outbox::desktop::EventInspector", "Operator action")},
        {"inbox", QT_TRANSLATE_NOOP("outbox::desktop::EventInspector", "Consumer inbox")},
        {"dead_letter", QT_TRANSLATE_NOOP("outbox::desktop::EventInspector", "Dead letter")},
        {"replayed", QT_TRANSLATE_NOOP("outbox::desktop::EventInspector", "Replayed")},
    };
    for (const auto& l : labels)
        if (kind == QLatin1String(l.kind))
            return EventInspector::tr(l.label);
    return kind;
}
} // namespace

EventInspector::EventInspector(QWidget* parent) : QWidget(parent)
{
    setObjectName(QStringLiteral("eventInspector"));
    auto* layout = new QVBoxLayout(this);
    auto* top = new QHBoxLayout;
    m_title = controls::infoLabel(this, QStringLiteral("inspectorTitle"));
    m_title->setText(tr("Select an event to inspect it."));
    top->addWidget(m_title, 1);
    m_summary = controls::infoLabel(this, QStringLiteral("inspectorSummary"));
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto* copy = controls::button(this, tr("Copy as JSON"), QStringLiteral("copyJson"));
    top->addWidget(copy);
    layout->addLayout(top);
    // What the runbooks ask about first, without opening the Columns tab: where it goes, whose
    // it is and how big it is.
    layout->addWidget(m_summary);
    connect(copy, &QPushButton::clicked, this, [this]() {
        if (m_event.id > 0)
            QApplication::clipboard()->setText(json());
    });

    auto* tabs = new QTabWidget(this);
    tabs->setObjectName(QStringLiteral("inspectorTabs"));
    m_payloadModel = new JsonTreeModel(this);
    m_headersModel = new JsonTreeModel(this);
    auto makeTree = [this](JsonTreeModel* model, const QString& name) {
        auto* tree = new QTreeView(this);
        tree->setObjectName(name);
        tree->setModel(model);
        tree->setAlternatingRowColors(true);
        connect(model, &QAbstractItemModel::modelReset, tree, [tree]() {
            tree->expandToDepth(1);
            tree->resizeColumnToContents(0);
        });
        return tree;
    };
    tabs->addTab(makeTree(m_payloadModel, QStringLiteral("payloadTree")), tr("Payload"));
    tabs->addTab(makeTree(m_headersModel, QStringLiteral("headersTree")), tr("Headers"));
    m_raw = new QPlainTextEdit(this);
    m_raw->setObjectName(QStringLiteral("rawJson"));
    m_raw->setReadOnly(true);
    tabs->addTab(m_raw, tr("Raw"));
    m_columns = new QTableWidget(0, 2, this);
    m_columns->setObjectName(QStringLiteral("eventColumns"));
    m_columns->setHorizontalHeaderLabels({tr("Column"), tr("Value")});
    tabs->addTab(m_columns, tr("Columns"));
    m_history = new QTableWidget(0, 5, this);
    m_history->setObjectName(QStringLiteral("eventHistory"));
    m_history->setHorizontalHeaderLabels(
        {tr("When"), tr("Actor"), tr("Action"), tr("Outcome"), tr("Reason")});
    tabs->addTab(m_history, tr("Audit history"));
    m_trail = new QTableWidget(0, 3, this);
    m_trail->setObjectName(QStringLiteral("eventTrail"));
    m_trail->setHorizontalHeaderLabels({tr("When"), tr("Step"), tr("What")});
    tabs->addTab(m_trail, tr("Trail"));
    for (QTableWidget* t : {m_columns, m_history, m_trail}) {
        t->setEditTriggers(QAbstractItemView::NoEditTriggers);
        t->horizontalHeader()->setStretchLastSection(true);
        t->verticalHeader()->hide();
        t->setTextElideMode(Qt::ElideMiddle);
        t->setWordWrap(false);
    }
    layout->addWidget(tabs, 1);
}

void EventInspector::clear()
{
    m_event = OutboxEvent{};
    m_title->setText(tr("Select an event to inspect it."));
    m_summary->clear();
    m_payloadModel->clear();
    m_headersModel->clear();
    m_raw->clear();
    m_columns->setRowCount(0);
    m_history->setRowCount(0);
    m_trail->setRowCount(0);
}

QString EventInspector::json() const
{
    return QString::fromUtf8(QJsonDocument(m_event.toJson()).toJson(QJsonDocument::Indented));
}

int EventInspector::historyCount() const
{
    return m_history->rowCount();
}

void EventInspector::inspect(qint64 id)
{
    if (!m_session)
        return;
    const quint64 request = ++m_request;
    m_title->setText(tr("Loading event %1…").arg(id));
    m_session->run<Inspection>(
        this,
        [id](Database& db) -> Result<Inspection> {
            auto event = EventStore(db).find(QString::number(id));
            if (!event)
                return event.error();
            AuditQuery q;
            q.targetKind = QStringLiteral("event");
            q.targetId = id;
            q.limit = 200;
            auto history = AuditLog(db).list(q);
            if (!history)
                return history.error();
            auto trail = EventTrail::build(db, QString::number(id));
            if (!trail)
                return trail.error();
            return Inspection{*event, *history, trail->steps};
        },
        [this, request](const Result<Inspection>& r) {
            if (request != m_request)
                return;
            if (!r.ok()) {
                m_title->setText(r.message());
                return;
            }
            m_event = r->event;
            m_title->setText(tr("Event %1 · %2 · %3").arg(m_event.id).arg(m_event.eventType, m_event.status));
            const QString topic = m_event.sentTopic.isEmpty() ? m_event.topic : m_event.sentTopic;
            m_summary->setText(
                tr("Topic: %1 · Aggregate: %2/%3 · Payload size: %4")
                    .arg(topic.isEmpty() ? tr("(routed by the relay's topic template)") : topic,
                         m_event.aggregateType, m_event.aggregateId,
                         Labels::bytes(m_event.payloadSize >= 0 ? m_event.payloadSize
                                                                : m_event.payload.size())));
            m_payloadModel->setJson(m_event.payload);
            m_headersModel->setJson(m_event.headers);
            m_raw->setPlainText(json());
            const QJsonObject o = m_event.toJson();
            m_columns->setRowCount(o.size());
            int row = 0;
            for (auto it = o.begin(); it != o.end(); ++it, ++row) {
                const QString value = JsonText::of(it.value());
                auto* valueItem = new QTableWidgetItem(value.left(300));
                valueItem->setToolTip(PlainToolTip::of(value.left(4000)));
                m_columns->setItem(row, 0, new QTableWidgetItem(it.key()));
                m_columns->setItem(row, 1, valueItem);
            }
            m_columns->resizeColumnToContents(0); // every column name whole
            m_history->setRowCount(r->history.size());
            for (int i = 0; i < r->history.size(); ++i) {
                const AuditEntry& e = r->history.at(i);
                const QStringList cells{Labels::dateTime(e.at), e.actor, e.action, e.outcome, e.reason};
                for (int c = 0; c < cells.size(); ++c) {
                    auto* item = new QTableWidgetItem(cells.at(c));
                    item->setToolTip(PlainToolTip::of(cells.at(c)));
                    m_history->setItem(i, c, item);
                }
            }
            // When, who and what whole; the reason gets the rest (its tooltip has all of it).
            for (int c : {0, 1, 2, 3})
                m_history->resizeColumnToContents(c);
            m_trail->setRowCount(r->trail.size());
            for (int i = 0; i < r->trail.size(); ++i) {
                const TrailStep& step = r->trail.at(i);
                const QStringList cells{Labels::dateTime(step.at), stepLabel(step.kind), step.text()};
                for (int c = 0; c < cells.size(); ++c) {
                    auto* item = new QTableWidgetItem(cells.at(c));
                    item->setToolTip(PlainToolTip::of(cells.at(c)));
                    if (c == 1)
                        item->setData(Qt::UserRole, step.kind);
                    m_trail->setItem(i, c, item);
                }
            }
            for (int c : {0, 1})
                m_trail->resizeColumnToContents(c);
            emit loaded(m_event.id);
        });
}

} // namespace outbox::desktop
