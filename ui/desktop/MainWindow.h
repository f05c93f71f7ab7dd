#pragma once

#include "core/config/Config.h"
#include "core/db/DatabaseTarget.h"
#include "core/diagnosis/DiagnosisOptions.h"
#include "core/metrics/MetricsSnapshot.h"
#include "ui/desktop/connection/ConnectionProfile.h"
#include "ui/desktop/relays/ManagedRelay.h"

#include <QMainWindow>
#include <QMargins>
#include <QPointer>
#include <functional>

class QFileDialog;
class QLabel;
class QTabWidget;
class QTimer;

namespace outbox {
class MetricsSampler;
}

namespace outbox::desktop {

class AuditPage;
class ConsumersPage;
class BlockedAggregatesPage;
class ConnectDialog;
class DatabaseSession;
class DeadLettersPage;
class EventsPage;
class FleetPage;
class OverviewPage;
class RecoveryPage;
class RelaysPage;

// The console: a connection (profile or --db URL), a sampler feeding the Overview, and the
// Events, Dead letters, Audit and Relays pages. All database work runs on session threads.
class MainWindow : public QMainWindow
{
    Q_OBJECT

public:
    explicit MainWindow(QWidget* parent = nullptr);
    ~MainWindow() override;

    // The configuration, as every front end reads it (flags > environment > file > defaults): the
    // password for URLs without one ([database] password, OUTBOX_DB_PASSWORD; never stored), the
    // actor of the audit rows ([general] actor, OUTBOX_ACTOR) and the doctor's thresholds
    // ([doctor]). By default, the process environment's.
    void setConfiguration(const config::Config& configuration);
    const config::Config& configuration() const { return m_config; }
    // Connects to `urlText` with the profile's table prefix once a check on a worker thread shows
    // it answers; until then the current connection stays. When the server asks for a password
    // that was not given, a prompt asks for it (kept in memory only).
    bool connectToText(const QString& urlText, const ConnectionProfile& profile = {});
    void disconnectFromDatabase();
    // Shows the fleet file's members on the Fleet page (first tab), sampled by core's FleetSampler
    // on its own threads; replaces a fleet opened before. An unreadable or invalid file is one
    // error (returned and shown in the status bar) and leaves the page as it was.
    Status openFleet(const QString& path);
    // Switches the console's connection to that member of the open fleet (its URL with the
    // password from OUTBOX_DB_PASSWORD_<MEMBER> or its password_file, its table prefix), as a
    // profile switch does; title and header then name the member.
    Status openFleetMember(const QString& name);
    FleetPage* fleetPage() const { return m_fleetPage; }

    OverviewPage* overview() const { return m_overview; }
    EventsPage* events() const { return m_events; }
    DeadLettersPage* deadLetters() const { return m_deadLetters; }
    AuditPage* audit() const { return m_audit; }
    RelaysPage* relays() const { return m_relays; }
    RecoveryPage* recovery() const { return m_recovery; }
    ConsumersPage* consumers() const { return m_consumers; }
    BlockedAggregatesPage* blocked() const { return m_blocked; }
    QTabWidget* pages() const { return m_pages; }
    int snapshotsSeen() const { return m_snapshots; }

public slots:
    void showConnectDialog();
    void showOpenFleetDialog();
    // Connection profiles from / to a fleet file (one profile per member, never a password).
    void showImportProfilesDialog();
    void showExportProfilesDialog();
    void showWallboard();
    // An Overview tile was clicked: show the events (or dead letters, relays) it counts.
    void drillDown(const QString& tile);

protected:
    // Remembers the window's geometry (only that: no URL, no password) for the next start.
    void closeEvent(QCloseEvent* event) override;
    void showEvent(QShowEvent* event) override;

signals:
    void snapshotReady(const outbox::MetricsSnapshot& snapshot);

private:
    // A fleet file dialog (Qt's own, deleted on close): an existing file to read, or with `save`
    // one to write (".ini" added when no suffix is typed).
    QFileDialog* fleetFileDialog(const QString& title, const QString& objectName, bool save);
    // Where the operator left the window, else the screen's available size (a 1280×800 laptop
    // gets 1280×800, not a fixed 1400×900 that hangs off its edges).
    void restoreWindowGeometry();
    // Smaller than the available area of the window's screen (with `frame` around it) and inside it.
    void keepOnScreen(const QMargins& frame);
    // A title bar and borders, until the window system says what they are.
    static constexpr QMargins AssumedFrame{8, 32, 8, 8};
    bool m_placed = false;
    QSize m_placedSize; // the size restoreWindowGeometry chose
    void showBanner(const QString& message);
    void hideBanner();
    void showStatus(const QString& message);
    // The sampler could not read the database: what is shown is marked as not current.
    void sampleFailed(const QString& message);
    // The database answers again: messages of the outage leave the status bar.
    void connectionHealed();
    // `dialog`: the Connect dialog the failed attempt came from, if any (it closes once the
    // password works).
    void askPasswordIfNeeded(const DatabaseTarget& target, const ConnectionProfile& profile,
                             const QString& message, ConnectDialog* dialog = nullptr);
    void checkThenSwitch(const DatabaseTarget& target, const ConnectionProfile& profile,
                         ConnectDialog* dialog);
    void switchTo(const DatabaseTarget& target, const ConnectionProfile& profile);
    // The console's managed relay belongs to its connection: before leaving it (another database,
    // or none), ask whether to stop it or keep it running in the background; `then` runs unless
    // the operator cancels.
    void settleManagedRelay(const DatabaseTarget& next, const std::function<void()>& then);
    void requestDisconnect();

    static constexpr int RetryMs = 2000;
    quint64 m_attempt = 0; // the newest connection check; older answers are ignored
    QTimer* m_retry = nullptr;

    QTabWidget* m_pages = nullptr;
    OverviewPage* m_overview = nullptr;
    EventsPage* m_events = nullptr;
    DeadLettersPage* m_deadLetters = nullptr;
    AuditPage* m_audit = nullptr;
    RelaysPage* m_relays = nullptr;
    RecoveryPage* m_recovery = nullptr;
    ConsumersPage* m_consumers = nullptr;
    BlockedAggregatesPage* m_blocked = nullptr;
    FleetPage* m_fleetPage = nullptr;
    DiagnosisOptions m_diagnosisOptions;
    QLabel* m_banner = nullptr;
    QLabel* m_profileTag = nullptr;
    QPointer<QWidget> m_wallboard;
    QPointer<QWidget> m_passwordPrompt;
    DatabaseSession* m_browse = nullptr;
    DatabaseSession* m_actions = nullptr;
    DatabaseSession* m_analysis = nullptr;
    MetricsSampler* m_sampler = nullptr;
    ConnectionProfile m_profile;
    int m_snapshots = 0;
    QDateTime m_outageSince;            // the first failed sample of an outage (invalid: none)
    QDateTime m_statusAt;               // when the status bar's message was shown
    QVector<MetricsSnapshot> m_history; // recent snapshots, so a wallboard opens with full charts
    int m_intervalMs = 2000;
    // "Serve NOC dashboard": a supervised `outboxctl serve` child on the current database.
    ManagedRelay* m_nocServer = nullptr;
    QAction* m_serveAction = nullptr;
    DatabaseTarget m_target; // the open connection's
    config::Config m_config;
    void setNocServing(bool on);

public:
    static constexpr quint16 NocPort = 8080;
    QAction* serveDashboardAction() const { return m_serveAction; }
    ManagedRelay* nocServer() const { return m_nocServer; }
};

} // namespace outbox::desktop
