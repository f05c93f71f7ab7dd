#pragma once

#include "core/db/DatabaseUrl.h"
#include "core/metrics/MetricsSnapshot.h"
#include "core/ops/RelayControl.h"
#include "ui/desktop/ConsoleContext.h"

#include <QHash>
#include <QWidget>

class QLineEdit;
class QPlainTextEdit;
class QLabel;
class QTableWidget;

namespace outbox::desktop {

class ManagedRelay;
class RelayControlDialog;
class RecordTable;
class RecordTableModel;

// Every registered relay (from the sampler's snapshots) with pause / resume / drain through
// desired_state (audited, core RelayControl), and a managed `outboxctl relay` child process.
class RelaysPage : public QWidget
{
    Q_OBJECT

public:
    explicit RelaysPage(QWidget* parent = nullptr);
    void setContext(const ConsoleContext& context);
    void showSnapshot(const MetricsSnapshot& snapshot);
    // The database stopped answering: the rows shown are the last sample's, greyed and said so.
    void markNotCurrent(const QString& why);
    RecordTableModel* model() const { return m_model; }
    // The managed relay of this page's connection (a new one after a switch; the one kept in the
    // background for a database comes back when the console connects to it again).
    ManagedRelay* managedRelay() const { return m_relay; }
    // Starts the managed relay with these `outboxctl relay` options (a finding's prepared relay
    // start); without brokerKnown it only fills them in and asks for the broker's address.
    void startManagedRelay(const QStringList& arguments, bool brokerKnown);
    // Managed relays kept running for other databases than the open one.
    const QList<ManagedRelay*>& backgroundRelays() const { return m_background; }
    // Switching connection: the running managed relay goes on for its own database, listed with it,
    // while this page gets a fresh one for the next database.
    void keepManagedRelayInBackground();

signals:
    void statusMessage(const QString& message);
    // An audited relay command went through: the Audit page and the numbers may have moved.
    void relaysChanged();

private:
    void control(RelayControl::Command command);
    void apply(RelayControl::Command command, const QStringList& workers, const QString& reason,
               RelayControlDialog* dialog);
    void startRelay();
    void attach(ManagedRelay* relay);
    void showBackgroundRelays();

    ConsoleContext m_context;
    RecordTableModel* m_model = nullptr;
    RecordTable* m_table = nullptr;
    QLineEdit* m_reason = nullptr;
    QLineEdit* m_arguments = nullptr;
    QPlainTextEdit* m_log = nullptr;
    QLabel* m_relayBroker = nullptr; // where the managed relay publishes, from its heartbeat row
    QLabel* m_relayState = nullptr;
    QLabel* m_relayDatabase = nullptr; // which database the managed relay serves
    QTableWidget* m_backgroundTable = nullptr;
    ManagedRelay* m_relay = nullptr;
    QList<ManagedRelay*> m_background;
    QSet<const QObject*> m_wired;          // managed relays whose signals this page receives
    QString m_database;                    // the label of the connection shown (ManagedRelay::databaseLabel)
    QHash<QString, QString> m_argumentsOf; // relay arguments per database label
    QLabel* m_notCurrent = nullptr;
};

} // namespace outbox::desktop
