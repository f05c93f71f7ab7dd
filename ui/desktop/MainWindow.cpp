#include "ui/desktop/MainWindow.h"

#include "core/config/Config.h"
#include "core/metrics/MetricsSampler.h"
#include "ui/desktop/ConsoleContext.h"
#include "ui/desktop/audit/AuditPage.h"
#include "ui/desktop/connection/ConnectDialog.h"
#include "ui/desktop/connection/DatabaseSession.h"
#include "ui/desktop/connection/FleetProfiles.h"
#include "ui/desktop/consumers/ConsumersPage.h"
#include "ui/desktop/deadletters/DeadLettersPage.h"
#include "ui/desktop/events/BlockedAggregatesPage.h"
#include "ui/desktop/events/EventsPage.h"
#include "ui/desktop/fleet/FleetPage.h"
#include "ui/desktop/overview/OverviewPage.h"
#include "ui/desktop/recovery/RecoveryFlow.h"
#include "ui/desktop/recovery/RecoveryPage.h"
#include "ui/desktop/relays/RelaysPage.h"
#include "ui/desktop/widgets/Controls.h"
#include "ui/desktop/widgets/Labels.h"

#include <QApplication>
#include <QCloseEvent>
#include <QFileDialog>
#include <QGuiApplication>
#include <QInputDialog>
#include <QKeyEvent>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QPushButton>
#include <QScreen>
#include <QSettings>
#include <QShowEvent>
#include <QStatusBar>
#include <QTabBar>
#include <QTabWidget>
#include <QTimer>
#include <QVBoxLayout>

namespace outbox::desktop {

namespace {

config::Config environmentConfiguration()
{
    config::ConfigInputs inputs;
    inputs.environment = config::Config::systemEnvironment();
    auto loaded = config::Config::load(inputs);
    return loaded ? *loaded : config::Config{};
}

} // namespace

MainWindow::MainWindow(QWidget* parent) : QMainWindow(parent)
{
    setConfiguration(environmentConfiguration());
    setObjectName(QStringLiteral("mainWindow"));
    setWindowTitle(tr("Outbox Console"));
    auto* central = new QWidget(this);
    auto* layout = new QVBoxLayout(central);
    layout->setContentsMargins(4, 4, 4, 4);
    m_profileTag = controls::infoLabel(central, QStringLiteral("profileTag"));
    m_profileTag->setText(tr("Not connected"));
    m_profileTag->setMargin(4);
    layout->addWidget(m_profileTag);
    m_banner = controls::infoLabel(central, QStringLiteral("connectionBanner"));
    m_banner->setStyleSheet(
        QStringLiteral("background: #c62828; color: white; font-weight: bold; padding: 6px;"));
    m_banner->setWordWrap(true);
    m_banner->hide();
    layout->addWidget(m_banner);

    m_pages = new QTabWidget(central);
    m_pages->setObjectName(QStringLiteral("pages"));
    m_overview = new OverviewPage(false, m_pages);
    m_events = new EventsPage(m_pages);
    m_deadLetters = new DeadLettersPage(m_pages);
    m_audit = new AuditPage(m_pages);
    m_relays = new RelaysPage(m_pages);
    m_pages->addTab(m_overview, tr("Overview"));
    m_pages->addTab(m_events, tr("Events"));
    m_pages->addTab(m_deadLetters, tr("Dead letters"));
    m_pages->addTab(m_audit, tr("Audit"));
    m_pages->addTab(m_relays, tr("Relays"));
    m_recovery = new RecoveryPage(m_pages);
    m_pages->addTab(m_recovery, tr("Recovery"));
    m_consumers = new ConsumersPage(m_pages);
    m_pages->addTab(m_consumers, tr("Consumers"));
    connect(m_consumers, &ConsumersPage::statusMessage, this, &MainWindow::showStatus);
    m_blocked = new BlockedAggregatesPage(m_pages);
    m_pages->addTab(m_blocked, tr("Blocked"));
    connect(m_blocked, &BlockedAggregatesPage::statusMessage, this, &MainWindow::showStatus);
    layout->addWidget(m_pages, 1);
    setCentralWidget(central);

    connect(m_events, &EventsPage::statusMessage, this, &MainWindow::showStatus);
    connect(m_deadLetters, &DeadLettersPage::statusMessage, this, &MainWindow::showStatus);
    connect(m_audit, &AuditPage::statusMessage, this, &MainWindow::showStatus);
    connect(m_relays, &RelaysPage::statusMessage, this, &MainWindow::showStatus);
    connect(m_recovery, &RecoveryPage::statusMessage, this, &MainWindow::showStatus);
    // A finding's prepared repair of a dead-letter group: the Dead letters page's group editor, and
    // the doctor again once it edited.
    connect(m_recovery->flow(), &RecoveryFlow::editDeadLetterGroup, m_deadLetters,
            &DeadLettersPage::editGroup);
    connect(m_deadLetters, &DeadLettersPage::groupEdited, m_recovery, &RecoveryPage::runDoctor);
    // A finding's "Start a managed relay": the Relays page starts it and shows its log.
    connect(m_recovery, &RecoveryPage::startManagedRelay, this,
            [this](const QStringList& arguments, bool brokerKnown) {
                m_pages->setCurrentWidget(m_relays);
                m_relays->startManagedRelay(arguments, brokerKnown);
            });
    connect(m_recovery, &RecoveryPage::countsChanged, this, [this](int critical, int warning) {
        const int tab = m_pages->indexOf(m_recovery);
        m_pages->setTabText(tab, critical + warning == 0
                                     ? tr("Recovery")
                                     : tr("Recovery (%1 critical, %2 warning)").arg(critical).arg(warning));
        m_pages->tabBar()->setTabTextColor(tab, critical > 0  ? QColor(0xc6, 0x28, 0x28)
                                                : warning > 0 ? QColor(0xb2, 0x6a, 0x00)
                                                              : QColor());
    });

    auto* file = menuBar()->addMenu(tr("&File"));
    QAction* openFleet = file->addAction(tr("Open &fleet file…"), this, &MainWindow::showOpenFleetDialog);
    openFleet->setObjectName(QStringLiteral("openFleetAction"));
    file->addSeparator();
    file->addAction(tr("&Import connection profiles from fleet file…"), this,
                    &MainWindow::showImportProfilesDialog)
        ->setObjectName(QStringLiteral("importProfilesAction"));
    file->addAction(tr("&Export connection profiles to fleet file…"), this,
                    &MainWindow::showExportProfilesDialog)
        ->setObjectName(QStringLiteral("exportProfilesAction"));
    file->addSeparator();
    QAction* quit = file->addAction(tr("&Quit"), qApp, &QApplication::quit);
    quit->setObjectName(QStringLiteral("quitAction"));
    quit->setShortcut(QKeySequence::Quit);
    auto* connection = menuBar()->addMenu(tr("&Connection"));
    QAction* connectAction = connection->addAction(tr("&Connect…"), this, &MainWindow::showConnectDialog);
    connectAction->setShortcut(QKeySequence::Open);
    connection->addAction(tr("&Disconnect"), this, &MainWindow::requestDisconnect);
    auto* view = menuBar()->addMenu(tr("&View"));
    view->addAction(tr("&Wallboard"), this, &MainWindow::showWallboard)->setShortcut(Qt::Key_F11);
    m_nocServer = new ManagedRelay(this);
    m_serveAction = view->addAction(tr("Serve &NOC dashboard"));
    m_serveAction->setObjectName(QStringLiteral("serveDashboardAction"));
    m_serveAction->setCheckable(true);
    m_serveAction->setEnabled(false);
    connect(m_serveAction, &QAction::toggled, this, &MainWindow::setNocServing);
    connect(m_nocServer, &ManagedRelay::stateChanged, this, &MainWindow::showStatus);

    connect(m_overview, &OverviewPage::wallboardRequested, this, &MainWindow::showWallboard);
    connect(m_overview, &OverviewPage::intervalChanged, this, [this](int ms) {
        m_intervalMs = ms;
        if (auto* board = qobject_cast<OverviewPage*>(m_wallboard.data()))
            board->setSamplingInterval(ms);
        if (m_sampler)
            m_sampler->setInterval(ms);
    });
    connect(m_overview, &OverviewPage::pausedChanged, this, [this](bool paused) {
        if (m_sampler)
            m_sampler->setPaused(paused);
    });
    connect(this, &MainWindow::snapshotReady, m_overview, &OverviewPage::showSnapshot);
    connect(this, &MainWindow::snapshotReady, m_relays, &RelaysPage::showSnapshot);
    // Every page follows the data from the same samples (no polling loop of its own).
    connect(this, &MainWindow::snapshotReady, m_events, &EventsPage::noteSnapshot);
    connect(this, &MainWindow::snapshotReady, m_deadLetters, &DeadLettersPage::noteSnapshot);
    connect(this, &MainWindow::snapshotReady, m_blocked, &BlockedAggregatesPage::noteSnapshot);
    connect(this, &MainWindow::snapshotReady, m_audit, [this]() { m_audit->noteSnapshot(); });
    connect(m_relays, &RelaysPage::relaysChanged, m_audit, &AuditPage::noteSnapshot);
    connect(m_overview, &OverviewPage::drillDown, this, &MainWindow::drillDown);
    statusBar()->setObjectName(QStringLiteral("statusBar"));
    m_retry = new QTimer(this);
    m_retry->setSingleShot(true);
    restoreWindowGeometry();
}

void MainWindow::restoreWindowGeometry()
{
    const QByteArray saved = QSettings().value(QStringLiteral("window/geometry")).toByteArray();
    if (!saved.isEmpty() && restoreGeometry(saved)) {
        // Saved on a bigger screen, or by a version whose window grew past this one: it comes back
        // inside the screen it is on, title bar included.
        keepOnScreen(AssumedFrame);
        m_placedSize = size();
        return;
    }
    const QScreen* where = screen() ? screen() : QGuiApplication::primaryScreen();
    if (!where) {
        resize(1280, 800);
        m_placedSize = size();
        return;
    }
    // The frame (title bar, borders) comes on top of the window's own size. No move: the window
    // manager places a new window with its title bar on the screen (a move to the screen's corner
    // put the client area there and the title bar above the screen's edge).
    const QRect available = where->availableGeometry();
    resize(std::max(640, available.width() - AssumedFrame.left() - AssumedFrame.right()),
           std::max(480, available.height() - AssumedFrame.top() - AssumedFrame.bottom()));
    m_placedSize = size();
}

void MainWindow::keepOnScreen(const QMargins& frame)
{
    const QScreen* where = QGuiApplication::screenAt(geometry().center());
    if (!where)
        where = screen() ? screen() : QGuiApplication::primaryScreen();
    if (!where)
        return;
    const QRect available = where->availableGeometry();
    const QSize room(available.width() - frame.left() - frame.right(),
                     available.height() - frame.top() - frame.bottom());
    const QSize fitting = size().boundedTo(room).expandedTo(minimumSizeHint().boundedTo(room));
    if (fitting != size())
        resize(fitting);
    // The frame's top left corner, so that the whole frame is inside the available area.
    const QRect outer(pos(), fitting.grownBy(frame)); // pos(): where the frame's corner is
    const int x = std::clamp(outer.left(), available.left(),
                             std::max(available.left(), available.right() + 1 - outer.width()));
    const int y = std::clamp(outer.top(), available.top(),
                             std::max(available.top(), available.bottom() + 1 - outer.height()));
    if (QPoint(x, y) != outer.topLeft())
        move(x, y); // QWidget::move places the frame
}

void MainWindow::showEvent(QShowEvent* event)
{
    QMainWindow::showEvent(event);
    if (m_placed)
        return;
    m_placed = true;
    // Once shown, the window system knows the real frame: check again with it (unless the
    // geometry was set on purpose after the console placed the window, e.g. by a test).
    if (size() != m_placedSize)
        return;
    QTimer::singleShot(0, this, [this]() {
        const QRect frame = frameGeometry();
        const QRect inner = geometry();
        keepOnScreen(QMargins(inner.left() - frame.left(), inner.top() - frame.top(),
                              frame.right() - inner.right(), frame.bottom() - inner.bottom()));
    });
}

void MainWindow::closeEvent(QCloseEvent* event)
{
    QSettings().setValue(QStringLiteral("window/geometry"), saveGeometry());
    QMainWindow::closeEvent(event);
}

MainWindow::~MainWindow()
{
    // Sessions first: their threads finish every queued job before the pages go away.
    delete m_wallboard;
    disconnectFromDatabase();
}

void MainWindow::showStatus(const QString& message)
{
    m_statusAt = QDateTime::currentDateTimeUtc();
    statusBar()->showMessage(message);
}

void MainWindow::sampleFailed(const QString& message)
{
    if (!m_outageSince.isValid())
        m_outageSince = QDateTime::currentDateTimeUtc();
    m_overview->markNotCurrent(message);
    if (auto* board = qobject_cast<OverviewPage*>(m_wallboard.data()))
        board->markNotCurrent(message);
    m_relays->markNotCurrent(tr("Not current: the database has not answered since %1 (%2)")
                                 .arg(Labels::time(m_outageSince.toLocalTime()), message));
    showStatus(tr("The database does not answer: %1").arg(message));
}

void MainWindow::connectionHealed()
{
    if (!m_outageSince.isValid())
        return;
    // Errors shown during the outage are not true any more; an operator's own later message stays.
    if (m_statusAt >= m_outageSince)
        statusBar()->showMessage(
            tr("The database answers again (it did not from %1 to %2)")
                .arg(Labels::time(m_outageSince.toLocalTime()), Labels::time(QDateTime::currentDateTime())),
            15000);
    m_outageSince = QDateTime();
}

void MainWindow::showBanner(const QString& message)
{
    if (!m_browse)
        return; // only an open connection (it answered its check) can be lost
    m_banner->setText(tr("Connection lost: %1 — reconnecting…").arg(Labels::databaseError(message)));
    m_banner->show();
}

void MainWindow::hideBanner()
{
    m_banner->hide();
}

void MainWindow::setConfiguration(const config::Config& configuration)
{
    m_config = configuration;
    m_diagnosisOptions = DiagnosisOptions::fromConfig(m_config);
}

bool MainWindow::connectToText(const QString& urlText, const ConnectionProfile& profile)
{
    auto target = DatabaseTarget::fromConfig(m_config, urlText, profile.tablePrefix);
    if (!target) {
        // The console's hint: where a URL is entered here, not which flag would have given one.
        showStatus(target.error().subject == QLatin1String("database.url")
                       ? tr("No database given: enter a URL (postgresql://…, mysql://… or sqlite:///…) in "
                            "Connection › Connect…")
                       : target.message());
        return false;
    }
    ConnectionProfile p = profile;
    if (p.url.isEmpty())
        p.url = target->url().redacted();
    checkThenSwitch(*target, p, nullptr);
    return true;
}

void MainWindow::setNocServing(bool on)
{
    if (!on || m_target.isEmpty()) {
        m_nocServer->stop();
        return;
    }
    // Read-only and on loopback: the wall screen needs no token, nobody else can reach it.
    m_nocServer->startOutboxctl(m_target, QStringLiteral("serve"),
                                {QStringLiteral("--listen"), QStringLiteral("127.0.0.1:%1").arg(NocPort),
                                 QStringLiteral("--public-dashboard")});
    showStatus(tr("NOC dashboard at http://127.0.0.1:%1/").arg(NocPort));
}

void MainWindow::checkThenSwitch(const DatabaseTarget& target, const ConnectionProfile& profile,
                                 ConnectDialog* dialog)
{
    const DatabaseUrl& url = target.url();
    // The connection is checked on a thread of its own first; the window (title, header, pages)
    // switches only once it answered, so an unreachable URL never replaces a working connection.
    m_retry->stop();
    const quint64 attempt = ++m_attempt;
    // Each check has its own session, deleted once its job is done (never while it waits on a
    // server, which would block this thread).
    auto* check = new DatabaseSession(DatabaseTarget(url, QString()), QStringLiteral("check"), this);
    showStatus(tr("Connecting to %1…").arg(url.redacted()));
    QPointer<ConnectDialog> guard(dialog);
    check->run<bool>(
        this,
        [](Database& db) -> Result<bool> {
            auto one = db.scalar(QStringLiteral("SELECT 1"));
            if (!one)
                return one.error();
            return true;
        },
        [this, check, attempt, target, url, profile, guard, dialog](const Result<bool>& r) {
            check->deleteLater();
            if (attempt != m_attempt)
                return; // a newer connect (or a cancelled dialog) superseded this one
            if (r.ok()) {
                if (guard)
                    guard->connectionSucceeded();
                settleManagedRelay(target, [this, target, profile]() { switchTo(target, profile); });
                return;
            }
            const QString message = ConnectDialog::failureText(url.redacted(), r.message());
            showStatus(message);
            if (dialog) {
                if (guard)
                    guard->connectionFailed(r.message());
            } else if (!m_browse) {
                // Started with a URL (command line, demo) and nothing else open: say so and try
                // again until the database is there.
                m_banner->setText(tr("%1 — retrying…").arg(message));
                m_banner->show();
                m_retry->disconnect();
                connect(m_retry, &QTimer::timeout, this,
                        [this, target, profile]() { checkThenSwitch(target, profile, nullptr); });
                m_retry->start(RetryMs);
            }
            // The Connect dialog (if it is still open) follows the attempt with the password:
            // it closes once that one connects.
            askPasswordIfNeeded(target, profile, r.message(), guard.data());
        });
}

void MainWindow::switchTo(const DatabaseTarget& target, const ConnectionProfile& profile)
{
    const DatabaseUrl& url = target.url();
    disconnectFromDatabase();
    ProfileStore::addRecent(url);
    m_snapshots = 0;
    m_outageSince = QDateTime();
    m_target = target;
    m_serveAction->setEnabled(true);
    m_profile = profile;
    m_browse = new DatabaseSession(target, QStringLiteral("browse"), this);
    m_actions = new DatabaseSession(target, QStringLiteral("actions"), this);
    m_analysis = new DatabaseSession(target, QStringLiteral("analysis"), this);
    for (DatabaseSession* s : {m_browse, m_actions, m_analysis}) {
        connect(s, &DatabaseSession::connectionLost, this, &MainWindow::showBanner);
        connect(s, &DatabaseSession::connectionRestored, this, &MainWindow::hideBanner);
        connect(s, &DatabaseSession::connectionLost, this, [this]() {
            if (!m_outageSince.isValid())
                m_outageSince = QDateTime::currentDateTimeUtc();
        });
    }
    m_sampler = new MetricsSampler(target, this);
    connect(m_sampler, &MetricsSampler::snapshotReady, this, [this](const MetricsSnapshot& s) {
        ++m_snapshots;
        hideBanner();
        connectionHealed();
        m_history << s;
        if (m_history.size() > OverviewPage::HistoryPoints)
            m_history.removeFirst();
        emit snapshotReady(s);
    });
    connect(m_sampler, &MetricsSampler::failed, this, &MainWindow::showBanner);
    connect(m_sampler, &MetricsSampler::failed, this, &MainWindow::sampleFailed);
    connect(m_sampler, &MetricsSampler::failed, this,
            [this, target](const QString& message) { askPasswordIfNeeded(target, m_profile, message); });

    ConsoleContext context;
    context.browse = m_browse;
    context.actions = m_actions;
    context.analysis = m_analysis;
    context.actor = m_config.actor();
    context.production = profile.isProduction();
    context.target = target;
    m_overview->clearHistory();
    m_history.clear();
    m_events->setContext(context);
    m_deadLetters->setContext(context);
    m_audit->setContext(context);
    m_relays->setContext(context);
    // A fleet member's prepared relays name its own broker, not the console configuration's.
    const FleetMember* member = m_fleetPage && !profile.fleetMember.isEmpty()
                                    ? m_fleetPage->fleet().member(profile.fleetMember)
                                    : nullptr;
    m_recovery->setContext(context,
                           member ? member->diagnosisOptions(m_diagnosisOptions) : m_diagnosisOptions);
    m_consumers->setContext(context);
    m_blocked->setContext(context);
    m_sampler->start(m_intervalMs);

    QString name = profile.name.isEmpty() ? url.redacted() : profile.name;
    if (!profile.tablePrefix.isEmpty())
        name = tr("%1 · tables %2*").arg(name, profile.tablePrefix);
    if (!profile.fleetMember.isEmpty()) {
        // A member of the fleet: which one, on every line that an operator reads before acting.
        QString where = url.redacted();
        if (!profile.tablePrefix.isEmpty())
            where = tr("%1 · tables %2*").arg(where, profile.tablePrefix);
        setWindowTitle(tr("Outbox Console — fleet member %1 (%2)").arg(profile.fleetMember, where));
        m_profileTag->setText(
            (profile.isProduction()
                 ? tr("Fleet member %1 · PRODUCTION · %2 — every action here changes this "
                      "database only")
                 : tr("Fleet member %1 · %2 — every action here changes this database only"))
                .arg(profile.fleetMember, where));
    } else {
        setWindowTitle(tr("Outbox Console — %1").arg(name));
        m_profileTag->setText(profile.isProduction() ? tr("%1 · PRODUCTION").arg(name) : name);
    }
    const QString colour = !profile.fleetMember.isEmpty() && profile.colour.isEmpty()
                               ? QStringLiteral("#6a1b9a")
                           : profile.colour.isEmpty()                  ? QStringLiteral("#455a64")
                           : profile.colour == QLatin1String("red")    ? QStringLiteral("#c62828")
                           : profile.colour == QLatin1String("yellow") ? QStringLiteral("#f9a825")
                                                                       : QStringLiteral("#2e7d32");
    m_profileTag->setStyleSheet(
        QStringLiteral("background: %1; color: white; font-weight: bold;").arg(colour));
    showStatus(tr("Connected to %1").arg(url.redacted()));
    // Opened from the Fleet page: show the member's own pages.
    if (!profile.fleetMember.isEmpty() && m_pages->currentWidget() == m_fleetPage)
        m_pages->setCurrentWidget(m_overview);
}

void MainWindow::settleManagedRelay(const DatabaseTarget& next, const std::function<void()>& then)
{
    ManagedRelay* relay = m_relays->managedRelay();
    const QString database = relay->database();
    if (!relay->isActive() || database.isEmpty() || database == ManagedRelay::databaseLabel(next)) {
        then();
        return;
    }
    auto* question = new QMessageBox(this);
    question->setObjectName(QStringLiteral("managedRelayQuestion"));
    question->setAttribute(Qt::WA_DeleteOnClose);
    question->setIcon(QMessageBox::Question);
    question->setTextFormat(Qt::PlainText);
    question->setWindowTitle(tr("Managed relay"));
    question->setText(next.isEmpty()
                          ? tr("The relay this console started sends the events of %1. Disconnect and stop "
                               "it, or keep it running in the background?")
                                .arg(database)
                          : tr("The relay this console started sends the events of %1, not of %2. Stop "
                               "it, or keep it running in the background for %1?")
                                .arg(database, ManagedRelay::databaseLabel(next)));
    QPushButton* stop = question->addButton(tr("Stop the relay"), QMessageBox::DestructiveRole);
    stop->setObjectName(QStringLiteral("stopManagedRelay"));
    QPushButton* keep = question->addButton(tr("Keep it running in the background"), QMessageBox::AcceptRole);
    keep->setObjectName(QStringLiteral("keepManagedRelay"));
    QPushButton* cancel = question->addButton(QMessageBox::Cancel);
    cancel->setObjectName(QStringLiteral("cancelSwitch"));
    question->setDefaultButton(cancel);
    QPointer<ManagedRelay> asked(relay);
    connect(question, &QMessageBox::finished, this, [this, question, stop, keep, asked, then]() {
        QAbstractButton* clicked = question->clickedButton();
        if (clicked != stop && clicked != keep) {
            showStatus(tr("Stayed on %1; its managed relay keeps running.").arg(m_target.url().redacted()));
            return;
        }
        if (asked && asked == m_relays->managedRelay()) {
            if (clicked == stop)
                asked->stop();
            else
                m_relays->keepManagedRelayInBackground();
        }
        then();
    });
    question->open();
}

void MainWindow::requestDisconnect()
{
    settleManagedRelay(DatabaseTarget{}, [this]() { disconnectFromDatabase(); });
}

void MainWindow::askPasswordIfNeeded(const DatabaseTarget& target, const ConnectionProfile& profile,
                                     const QString& message, ConnectDialog* dialog)
{
    const DatabaseUrl& url = target.url();
    // Servers without password authentication need none; ask only when the server wants one.
    // The password is kept in memory for this connection only, never stored.
    if (!url.hasServer() || !url.password.isEmpty() || m_passwordPrompt)
        return;
    if (!message.contains(QLatin1String("password"), Qt::CaseInsensitive) &&
        !message.contains(QLatin1String("authentication"), Qt::CaseInsensitive) &&
        !message.contains(QLatin1String("access denied"), Qt::CaseInsensitive))
        return;
    auto* prompt = new QInputDialog(this);
    prompt->setObjectName(QStringLiteral("passwordPrompt"));
    prompt->setWindowTitle(tr("Password"));
    prompt->setLabelText(tr("Password for %1:").arg(url.redacted()));
    for (QLabel* label : prompt->findChildren<QLabel*>())
        label->setTextFormat(Qt::PlainText);
    prompt->setTextEchoMode(QLineEdit::Password);
    prompt->setAttribute(Qt::WA_DeleteOnClose);
    m_passwordPrompt = prompt;
    // The profile of the connection being tried (a fleet member's names the member), not the open one's.
    QPointer<ConnectDialog> from(dialog);
    connect(prompt, &QInputDialog::textValueSelected, this,
            [this, target, profile, from](const QString& password) {
                checkThenSwitch(target.withPassword(password), profile, from.data());
            });
    prompt->open();
}

void MainWindow::disconnectFromDatabase()
{
    if (m_serveAction) {
        m_serveAction->setChecked(false);
        m_serveAction->setEnabled(false);
    }
    m_target = DatabaseTarget{};
    ConsoleContext none;
    if (m_events) {
        m_events->setContext(none);
        m_deadLetters->setContext(none);
        m_audit->setContext(none);
        m_relays->setContext(none);
        m_recovery->setContext(none);
        m_consumers->setContext(none);
        m_blocked->setContext(none);
    }
    delete m_sampler;
    m_sampler = nullptr;
    delete m_browse;
    m_browse = nullptr;
    delete m_actions;
    m_actions = nullptr;
    delete m_analysis;
    m_analysis = nullptr;
    hideBanner();
    // Nothing of the previous database stays on screen: numbers, charts, relays, groups, the
    // production tag and the title all go back to "not connected".
    m_history.clear();
    if (m_overview)
        m_overview->clearAll();
    if (auto* board = qobject_cast<OverviewPage*>(m_wallboard.data()))
        board->clearAll();
    if (m_profileTag) {
        m_profileTag->setText(tr("Not connected"));
        m_profileTag->setStyleSheet(QString());
        setWindowTitle(tr("Outbox Console"));
    }
    m_profile = ConnectionProfile{};
}

void MainWindow::showConnectDialog()
{
    auto* dialog = new ConnectDialog(this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    // The dialog checks the URL's syntax itself; the connection is tried with the dialog still
    // open, so a failure is reported where the URL can be corrected.
    connect(dialog, &ConnectDialog::connectRequested, this,
            [this, dialog](const DatabaseUrl& url, const ConnectionProfile& profile) {
                checkThenSwitch(DatabaseTarget::fromConfig(m_config, url, profile.tablePrefix), profile,
                                dialog);
            });
    connect(dialog, &QDialog::rejected, this, [this]() { ++m_attempt; });
    dialog->open();
}

Status MainWindow::openFleet(const QString& path)
{
    auto fleet = Fleet::load(path);
    if (!fleet) {
        showStatus(tr("Cannot open the fleet file: %1").arg(fleet.message()));
        return fleet.error();
    }
    if (m_fleetPage) {
        m_pages->removeTab(m_pages->indexOf(m_fleetPage));
        delete m_fleetPage;
    }
    m_fleetPage = new FleetPage(*fleet, m_diagnosisOptions, m_pages);
    m_pages->insertTab(0, m_fleetPage, tr("Fleet"));
    m_pages->setCurrentWidget(m_fleetPage);
    connect(m_fleetPage, &FleetPage::memberOpened, this, [this](const QString& name) {
        if (auto opened = openFleetMember(name); !opened)
            showStatus(opened.message());
    });
    showStatus(tr("Fleet file %1: %n member(s)", nullptr, int(fleet->members().size())).arg(path));
    return {};
}

Status MainWindow::openFleetMember(const QString& name)
{
    if (!m_fleetPage)
        return Error::usage(tr("No fleet file is open"));
    auto member = m_fleetPage->fleet().find(name);
    if (!member)
        return member.error();
    ConnectionProfile profile;
    profile.name = member->name;
    profile.url = member->url().redacted();
    profile.tablePrefix = member->tablePrefix();
    profile.fleetMember = member->name;
    // A member tagged as production gets the production profile's red header and confirmations.
    if (member->hasTag(QStringLiteral("env=prod")) || member->hasTag(QStringLiteral("env=production")))
        profile.colour = QStringLiteral("red");
    checkThenSwitch(member->target, profile, nullptr);
    return {};
}

QFileDialog* MainWindow::fleetFileDialog(const QString& title, const QString& objectName, bool save)
{
    auto* dialog = new QFileDialog(this, title, QString(), tr("Fleet files (*.ini *.conf);;All files (*)"));
    dialog->setObjectName(objectName);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    if (save) {
        dialog->setAcceptMode(QFileDialog::AcceptSave);
        dialog->setFileMode(QFileDialog::AnyFile);
        dialog->setDefaultSuffix(QStringLiteral("ini"));
    } else {
        dialog->setFileMode(QFileDialog::ExistingFile);
    }
    dialog->setOption(QFileDialog::DontUseNativeDialog);
    return dialog;
}

void MainWindow::showOpenFleetDialog()
{
    auto* dialog = fleetFileDialog(tr("Open fleet file"), QStringLiteral("openFleetDialog"), false);
    connect(dialog, &QFileDialog::fileSelected, this, [this](const QString& path) {
        if (auto opened = openFleet(path); !opened)
            QMessageBox::warning(this, tr("Fleet file"), opened.message());
    });
    dialog->open();
}

void MainWindow::showImportProfilesDialog()
{
    auto* dialog = fleetFileDialog(tr("Import connection profiles from a fleet file"),
                                   QStringLiteral("importProfilesDialog"), false);
    connect(dialog, &QFileDialog::fileSelected, this, [this](const QString& path) {
        auto imported = FleetProfiles::import(path);
        showStatus(imported ? tr("Imported %n connection profile(s) from %1 (no passwords: a member's comes "
                                 "from OUTBOX_DB_PASSWORD_<MEMBER> or a prompt)",
                                 nullptr, *imported)
                                  .arg(path)
                            : tr("Cannot import connection profiles: %1").arg(imported.message()));
    });
    dialog->open();
}

void MainWindow::showExportProfilesDialog()
{
    auto* dialog = fleetFileDialog(tr("Export connection profiles to a fleet file"),
                                   QStringLiteral("exportProfilesDialog"), true);
    connect(dialog, &QFileDialog::fileSelected, this, [this](const QString& path) {
        const QVector<ConnectionProfile> profiles = ProfileStore::load();
        const Status written = FleetProfiles::write(path, profiles);
        showStatus(written ? tr("Exported %n connection profile(s) to the fleet file %1 (without passwords)",
                                nullptr, int(profiles.size()))
                                 .arg(path)
                           : tr("Cannot export connection profiles: %1").arg(written.message()));
    });
    dialog->open();
}

void MainWindow::drillDown(const QString& tile)
{
    if (!m_browse)
        return;
    if (tile == QLatin1String("dlq")) {
        m_deadLetters->showStatus(QStringLiteral("NEW"));
        m_pages->setCurrentWidget(m_deadLetters);
    } else if (tile == QLatin1String("relays")) {
        m_pages->setCurrentWidget(m_relays);
    } else {
        // "oldest": the PENDING events, oldest first; the status tiles: their events.
        const bool oldest = tile == QLatin1String("oldest");
        m_events->showStatus(oldest ? QStringLiteral("PENDING") : tile, oldest);
        m_pages->setCurrentWidget(m_events);
    }
}

void MainWindow::showWallboard()
{
    if (m_wallboard) {
        m_wallboard->raise();
        return;
    }
    auto* board = new OverviewPage(true);
    board->setAttribute(Qt::WA_DeleteOnClose);
    board->setWindowTitle(tr("Outbox wallboard — press Esc to leave"));
    board->setSamplingInterval(m_intervalMs);
    for (const MetricsSnapshot& s : std::as_const(m_history))
        board->showSnapshot(s);
    connect(this, &MainWindow::snapshotReady, board, &OverviewPage::showSnapshot);
    m_wallboard = board;
    // On the console's screen, at that screen's size (a laptop's 800 px are not a wall's 1080).
    QScreen* where = screen() ? screen() : QGuiApplication::primaryScreen();
    board->fitScreen(where->geometry().size());
    board->setScreen(where);
    board->showFullScreen();
}

} // namespace outbox::desktop
