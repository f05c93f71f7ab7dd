#include "ui/desktop/relays/RelaysPage.h"

#include "core/broker/BrokerRegistry.h"
#include "ui/desktop/connection/DatabaseSession.h"
#include "ui/desktop/relays/ManagedRelay.h"
#include "ui/desktop/relays/RelayControlDialog.h"
#include "ui/desktop/widgets/Controls.h"
#include "ui/desktop/widgets/EmptyHint.h"
#include "ui/desktop/widgets/Labels.h"
#include "ui/desktop/widgets/RecordTable.h"
#include "ui/desktop/widgets/RecordTableModel.h"

#include <QBrush>
#include <QColor>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QJsonArray>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPointer>
#include <QPushButton>
#include <QSysInfo>
#include <QTableView>
#include <QTableWidget>

namespace outbox::desktop {

RelaysPage::RelaysPage(QWidget* parent) : QWidget(parent)
{
    setObjectName(QStringLiteral("relaysPage"));
    auto* layout = new QVBoxLayout(this);
    m_model = new RecordTableModel({{QStringLiteral("worker_id"), tr("Worker")},
                                    {QStringLiteral("host"), tr("Host")},
                                    {QStringLiteral("pid"), tr("PID")},
                                    {QStringLiteral("state"), tr("State")},
                                    {QStringLiteral("desired_state"), tr("Desired")},
                                    {QStringLiteral("broker"), tr("Broker")},
                                    {QStringLiteral("wakeup"), tr("Wake-up")},
                                    {QStringLiteral("heartbeat_age"), tr("Heartbeat age")},
                                    {QStringLiteral("leases_held"), tr("Leases")},
                                    {QStringLiteral("sent_total"), tr("Sent")},
                                    {QStringLiteral("failed_total"), tr("Failed")},
                                    {QStringLiteral("fenced_total"), tr("Fenced")},
                                    {QStringLiteral("last_error"), tr("Last error")}},
                                   this);
    m_model->setRowBrush([this](const QJsonObject& row) -> QVariant {
        if (!m_notCurrent->isHidden())
            return QBrush(QColor(0xe0, 0xe0, 0xe0));
        if (row.value(QStringLiteral("heartbeat_age_ms")).toInteger() > ConsoleContext::StaleHeartbeatMs)
            return QBrush(QColor(0xff, 0xcd, 0xd2));
        return {};
    });
    m_notCurrent = controls::infoLabel(this, QStringLiteral("relaysNotCurrent"));
    m_notCurrent->setWordWrap(true);
    m_notCurrent->setStyleSheet(QStringLiteral("color: #616161; font-weight: bold;"));
    m_notCurrent->hide();
    layout->addWidget(m_notCurrent);
    // Last error: its start and its end, all of it in the tooltip.
    auto* table =
        new RecordTable(QStringLiteral("relaysTable"), m_model, QAbstractItemView::ExtendedSelection, this);
    table->setWidths({{0, {}, 200},
                      {3, {}, 90},
                      {4, {}, 80},
                      {2, {}, 70},
                      {6, {}, 70},
                      {7, {}, 70},
                      {8, {}, 70},
                      {9, {}, 70}});
    m_table = table;
    table->hint()->setReason(tr("Not connected."));
    layout->addWidget(m_table, 1);

    auto* controlBar = new QHBoxLayout;
    m_reason = new QLineEdit(this);
    m_reason->setObjectName(QStringLiteral("relayReason"));
    m_reason->setPlaceholderText(tr("reason (required, asked for again before anything changes)"));
    controlBar->addWidget(m_reason, 1);
    const QList<QPair<RelayControl::Command, QString>> buttons{
        {RelayControl::Command::Pause, QStringLiteral("pauseRelay")},
        {RelayControl::Command::Resume, QStringLiteral("resumeRelay")},
        {RelayControl::Command::Drain, QStringLiteral("drainRelay")}};
    for (const auto& b : buttons) {
        auto* button = controls::button(this,
                                        b.first == RelayControl::Command::Pause    ? tr("Pause")
                                        : b.first == RelayControl::Command::Resume ? tr("Resume")
                                                                                   : tr("Drain"),
                                        b.second);
        const RelayControl::Command command = b.first;
        connect(button, &QPushButton::clicked, this, [this, command]() { control(command); });
        controlBar->addWidget(button);
    }
    layout->addLayout(controlBar);

    auto* managed = new QGroupBox(tr("Managed relay (outboxctl relay as a child process)"), this);
    auto* managedLayout = new QVBoxLayout(managed);
    auto* managedBar = new QHBoxLayout;
    m_arguments = new QLineEdit(managed);
    m_arguments->setObjectName(QStringLiteral("relayArguments"));
    m_arguments->setPlaceholderText(tr("extra arguments, e.g. --kafka-bootstrap 127.0.0.1:9092"));
    auto* start = controls::button(managed, tr("Start"), QStringLiteral("startRelay"));
    auto* stop = controls::button(managed, tr("Stop"), QStringLiteral("stopRelay"));
    m_relayState = controls::infoLabel(managed, QStringLiteral("managedRelayState"));
    m_relayState->setText(tr("not running"));
    managedBar->addWidget(m_arguments, 1);
    managedBar->addWidget(start);
    managedBar->addWidget(stop);
    managedBar->addWidget(m_relayState);
    m_relayBroker = controls::infoLabel(managed, QStringLiteral("managedRelayBroker"));
    managedBar->addWidget(m_relayBroker);
    managedLayout->addLayout(managedBar);
    m_relayDatabase = controls::infoLabel(managed, QStringLiteral("managedRelayDatabase"));
    managedLayout->addWidget(m_relayDatabase);
    // Relays the console started for other databases and kept running when it switched away.
    m_backgroundTable = new QTableWidget(0, 3, managed);
    m_backgroundTable->setObjectName(QStringLiteral("backgroundRelays"));
    m_backgroundTable->setHorizontalHeaderLabels({tr("Managed relay of database"), tr("State"), QString()});
    m_backgroundTable->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_backgroundTable->verticalHeader()->hide();
    m_backgroundTable->horizontalHeader()->setSectionResizeMode(0, QHeaderView::Stretch);
    m_backgroundTable->setMaximumHeight(110);
    m_backgroundTable->hide();
    managedLayout->addWidget(m_backgroundTable);
    m_log = controls::readOnlyText(managed, QStringLiteral("relayLog"));
    m_log->setMaximumBlockCount(5000);
    managedLayout->addWidget(m_log);
    layout->addWidget(managed, 1);

    attach(new ManagedRelay(this));
    connect(start, &QPushButton::clicked, this, &RelaysPage::startRelay);
    connect(stop, &QPushButton::clicked, this, [this]() { m_relay->stop(); });
}

void RelaysPage::attach(ManagedRelay* relay)
{
    // Every managed relay reports here for its whole life, connected once (a relay that comes back
    // from the background is not connected again, or its lines would show twice); only the page's
    // own one writes to the log and the state, the others to the list of background relays.
    static constexpr char Wired[] = "outboxRelaysPageWired";
    if (!relay->property(Wired).toBool()) {
        relay->setProperty(Wired, true);
        connect(relay, &ManagedRelay::line, this, [this, relay](const QString& text) {
            if (relay == m_relay)
                m_log->appendPlainText(text);
        });
        connect(relay, &ManagedRelay::stateChanged, this, [this, relay](const QString& state) {
            if (relay == m_relay) {
                m_relayState->setText(state);
                if (!relay->isActive())
                    m_relayBroker->clear();
                // What the status bar asked for (a broker's address) is answered: say what runs.
                if (relay->isRunning())
                    emit statusMessage(tr("Managed relay running for %1").arg(relay->database()));
                return;
            }
            if (!relay->isActive() && m_background.removeAll(relay) > 0)
                relay->deleteLater(); // stopped: nothing left to answer for
            showBackgroundRelays();
        });
    }
    m_relay = relay;
    m_log->clear();
    m_relayBroker->clear();
    m_relayState->setText(relay->isActive() ? relay->description() : tr("not running"));
    if (relay->isActive())
        m_log->appendPlainText(tr("(managed relay kept running in the background; its earlier output "
                                  "is not shown)"));
}

void RelaysPage::keepManagedRelayInBackground()
{
    if (!m_relay->isActive())
        return;
    m_background << m_relay;
    attach(new ManagedRelay(this));
    showBackgroundRelays();
}

void RelaysPage::showBackgroundRelays()
{
    m_backgroundTable->setRowCount(int(m_background.size()));
    for (int i = 0; i < m_background.size(); ++i) {
        ManagedRelay* relay = m_background.at(i);
        m_backgroundTable->setItem(i, 0, new QTableWidgetItem(relay->database()));
        m_backgroundTable->setItem(i, 1, new QTableWidgetItem(relay->description()));
        auto* stop = controls::button(m_backgroundTable, tr("Stop"), QStringLiteral("stopBackgroundRelay"));
        connect(stop, &QPushButton::clicked, relay, &ManagedRelay::stop);
        m_backgroundTable->setCellWidget(i, 2, stop);
    }
    m_backgroundTable->setVisible(!m_background.isEmpty());
}

void RelaysPage::setContext(const ConsoleContext& context)
{
    m_context = context;
    m_model->setRows({});
    m_notCurrent->hide();
    m_reason->clear();
    m_table->hint()->setReason(context.browse ? QString() : tr("Not connected."));
    // The managed relay belongs to its connection: the page of another database never shows its
    // state or log. One kept in the background for this database is this page's again.
    const QString database = ManagedRelay::databaseLabel(context.target);
    if (!database.isEmpty() && m_relay->database() != database) {
        ManagedRelay* own = nullptr;
        for (ManagedRelay* relay : std::as_const(m_background))
            if (relay->database() == database && relay->isActive())
                own = relay;
        ManagedRelay* previous = m_relay;
        if (previous->isActive())
            m_background << previous; // never dropped silently: MainWindow asked before switching
        if (own) {
            m_background.removeAll(own);
            attach(own);
            if (!previous->isActive())
                previous->deleteLater();
        } else {
            attach(previous->isActive() ? new ManagedRelay(this) : previous);
        }
        showBackgroundRelays();
    }
    m_relayDatabase->setText(database.isEmpty() ? QString() : tr("Serves %1").arg(database));
    // Each database its own relay arguments (its broker, its ordering), kept for this session only
    // (they may hold a broker's password): another database's page never offers them.
    if (database != m_database) {
        if (!m_database.isEmpty())
            m_argumentsOf.insert(m_database, m_arguments->text());
        if (!database.isEmpty())
            m_arguments->setText(m_argumentsOf.value(database));
        else
            m_arguments->clear();
        m_database = database;
    }
}

void RelaysPage::showSnapshot(const MetricsSnapshot& snapshot)
{
    QStringList selected;
    for (const QModelIndex& index : m_table->selectionModel()->selectedRows())
        selected << m_model->record(index.row()).value(QStringLiteral("worker_id")).toString();
    m_notCurrent->hide();
    // Leases as the events hold them (what the Overview counts), not as the relay last reported:
    // a killed relay reported none, yet its SENDING events stay leased until they expire.
    QHash<QString, qint64> held;
    for (const LeaseHolder& h : snapshot.leaseHolders)
        held.insert(h.workerId, h.sending);
    QVector<QJsonObject> rows;
    for (const RelayRecord& r : snapshot.relays) {
        QJsonObject o = r.toJson();
        o[QStringLiteral("heartbeat_age")] = Labels::age(r.heartbeatAgeMs);
        o[QStringLiteral("leases_held")] = held.value(r.workerId);
        if (r.heartbeatAgeMs > ConsoleContext::StaleHeartbeatMs)
            o[QStringLiteral("state")] = tr("STALE, presumed dead (last reported %1)").arg(r.state);
        const QString broker = BrokerRegistry::describe(r.brokerKind, r.brokerAddress);
        o[QStringLiteral("broker")] = broker;
        rows << o;
        // The managed relay (our child process) says where it publishes.
        if (m_relay->isRunning() && r.pid == m_relay->processId() && r.host == QSysInfo::machineHostName())
            m_relayBroker->setText(broker.isEmpty() ? QString() : tr("publishes to %1").arg(broker));
    }
    m_model->setRows(rows);
    m_table->hint()->setReason(
        tr("No relay has registered with this database: nothing sends the outbox's events. "
           "Start one below or with outboxctl relay."));
    for (int i = 0; i < rows.size(); ++i)
        if (selected.contains(rows.at(i).value(QStringLiteral("worker_id")).toString()))
            m_table->selectionModel()->select(m_model->index(i, 0),
                                              QItemSelectionModel::Select | QItemSelectionModel::Rows);
}

void RelaysPage::markNotCurrent(const QString& why)
{
    if (m_model->rowCount() == 0 && !m_context.browse)
        return;
    m_notCurrent->setText(why);
    m_notCurrent->show();
    const QVector<QJsonObject> rows = m_model->records();
    m_model->setRows(rows); // repainted greyed
}

void RelaysPage::control(RelayControl::Command command)
{
    if (!m_context.actions) {
        emit statusMessage(tr("Not connected."));
        return;
    }
    QVector<QJsonObject> relays;
    QStringList workers;
    for (const QModelIndex& index : m_table->selectionModel()->selectedRows()) {
        relays << m_model->record(index.row());
        workers << relays.constLast().value(QStringLiteral("worker_id")).toString();
    }
    if (workers.isEmpty()) {
        emit statusMessage(tr("Select one or more relays first."));
        return;
    }
    // Always a preview of which relays, a reason given for this action, and on production a
    // typed confirmation; a failure stays in the dialog.
    auto* dialog =
        new RelayControlDialog(command, relays, m_reason->text().trimmed(), m_context.production, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    m_reason->clear(); // never silently reused by the next click
    connect(
        dialog, &RelayControlDialog::runRequested, this,
        [this, dialog, command, workers](const QString& reason) { apply(command, workers, reason, dialog); });
    dialog->open();
}

void RelaysPage::apply(RelayControl::Command command, const QStringList& workers, const QString& reason,
                       RelayControlDialog* dialog)
{
    if (!m_context.actions) {
        dialog->failed(tr("Not connected."));
        return;
    }
    const QString actor = m_context.actor;
    QPointer<RelayControlDialog> guard(dialog);
    m_context.actions->run<RelayControlResult>(
        this,
        [command, workers, reason, actor](Database& db) {
            return RelayControl(db).apply(command, workers, reason, actor);
        },
        [this, guard](const Result<RelayControlResult>& r) {
            if (!r.ok()) {
                if (guard)
                    guard->failed(r.message());
                emit statusMessage(r.message());
                return;
            }
            if (guard)
                guard->accept();
            emit statusMessage(tr("%1: %n relay(s) changed (audit #%2)", nullptr, int(r->changed.size()))
                                   .arg(r->action)
                                   .arg(r->auditId));
            emit relaysChanged();
        });
}

void RelaysPage::startRelay()
{
    if (!m_context.browse) {
        emit statusMessage(tr("Not connected."));
        return;
    }
    m_relay->startOutboxctl(m_context.target, QStringLiteral("relay"),
                            m_arguments->text().split(QLatin1Char(' '), Qt::SkipEmptyParts));
}

void RelaysPage::startManagedRelay(const QStringList& arguments, bool brokerKnown)
{
    m_arguments->setText(arguments.join(QLatin1Char(' ')));
    if (!brokerKnown) {
        m_arguments->setFocus();
        emit statusMessage(tr("The broker is not configured: add --kafka-bootstrap=HOST:PORT (or "
                              "--broker=URL) to the arguments and press Start."));
        return;
    }
    startRelay();
}

} // namespace outbox::desktop
