// The documentation that is generated or promised: docs/configuration.md and docs/runbooks/ are what
// `outboxctl help --docs` writes (run as printed in their header), every doctor finding has its
// runbook page, every alert rule links one, and the README stays short with links that resolve.
#include "core/diagnosis/Doctor.h"
#include "core/diagnosis/Runbook.h"
#include "tests/support/OutboxctlProcess.h"
#include "tests/support/TestDatabases.h"
#include "tests/support/TestPaths.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QRegularExpression>
#include <QTcpServer>
#include <QTemporaryDir>
#include <QtTest>

using namespace outbox;
using namespace outbox::test;

namespace {

QByteArray readAll(const QString& path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

// The alerts of the shipped rules file: name and the runbook_url annotation (empty when missing).
QList<QPair<QString, QString>> alertRunbookUrls()
{
    QList<QPair<QString, QString>> alerts;
    const QString rules =
        QString::fromUtf8(readAll(sourcePath(QStringLiteral("resources/prometheus/outbox.rules.yml"))));
    static const QRegularExpression alertLine(QStringLiteral("^\\s*- alert: (\\S+)\\s*$"));
    static const QRegularExpression urlLine(QStringLiteral("^\\s*runbook_url: (.+)$"));
    for (const QString& line : rules.split(QLatin1Char('\n'))) {
        if (auto m = alertLine.match(line); m.hasMatch())
            alerts << qMakePair(m.captured(1), QString());
        else if (auto u = urlLine.match(line); u.hasMatch() && !alerts.isEmpty())
            alerts.last().second = u.captured(1);
    }
    return alerts;
}

} // namespace

class TestDocs : public QObject
{
    Q_OBJECT

private slots:
    // The committed pages are byte for byte what the command in their header writes.
    void generatedPagesMatch()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const OutboxctlRun run = runOutboxctl({QStringLiteral("help"), QStringLiteral("--docs"), dir.path()});
        QVERIFY2(run.exitCode == 0, run.err.constData());
        QStringList generated{QStringLiteral("configuration.md")};
        for (const QString& name : QDir(dir.filePath(QStringLiteral("runbooks"))).entryList(QDir::Files))
            generated << QStringLiteral("runbooks/") + name;
        QVERIFY(generated.size() > Doctor::checkIds().size());
        for (const QString& name : generated)
            QVERIFY2(
                readAll(dir.filePath(name)) == readAll(sourcePath(QStringLiteral("docs/") + name)),
                qPrintable(QStringLiteral("docs/%1 differs from what `outboxctl help --docs docs` writes: "
                                          "run build/app/outboxctl/outboxctl help --docs docs")
                               .arg(name)));
        // No page is left over from a finding that is gone.
        for (const QString& name : QDir(sourcePath(QStringLiteral("docs/runbooks")))
                                       .entryList({QStringLiteral("*.md")}, QDir::Files))
            QVERIFY2(generated.contains(QStringLiteral("runbooks/") + name),
                     qPrintable(
                         QStringLiteral("docs/runbooks/%1 is not generated any more: remove it").arg(name)));
    }

    // Every check of the doctor has its page, with its causes and steps.
    void everyFindingHasARunbook()
    {
        const QStringList ids = Doctor::checkIds();
        QVERIFY(ids.size() >= 14);
        for (const QString& id : ids) {
            const Runbook* r = Runbook::find(id);
            QVERIFY2(r && r->finding, qPrintable(id));
            QVERIFY2(QFile::exists(sourcePath(QStringLiteral("docs/runbooks/%1.md").arg(id))),
                     qPrintable(id));
            const QString page = r->markdown();
            QVERIFY2(page.contains(QStringLiteral("What to do")), qPrintable(id));
            QVERIFY2(page.contains(QStringLiteral("outboxctl doctor --check ") + id), qPrintable(id));
        }
        for (const Runbook& r : Runbook::all())
            QVERIFY2(!r.finding || ids.contains(r.id), qPrintable(r.id + QStringLiteral(": no such check")));
        // The advice by cause of failed-events is on its page.
        QVERIFY(Runbook::find(QStringLiteral("failed-events"))
                    ->markdown()
                    .contains(QStringLiteral("grant the relay's principal WRITE and DESCRIBE")));
    }

    // A placeholder of the doctor's text is named on the page, and the page says when a line applies.
    void pageNamesPlaceholders()
    {
        const QString page = Runbook::of(QStringLiteral("unconsumed")).markdown();
        QVERIFY(page.contains(QStringLiteral("Check that consumer CONSUMER runs")));
        QVERIFY(!page.contains(QStringLiteral("%1")));
        QVERIFY(Runbook::of(QStringLiteral("backlog-age"))
                    .markdown()
                    .contains(QStringLiteral(
                        "resume the paused relays (prepared below). *(when relays are paused)*")));
    }

    // Every alert of the shipped rules links the runbook page of its finding.
    void everyAlertHasRunbookUrl()
    {
        const auto alerts = alertRunbookUrls();
        QVERIFY(alerts.size() >= 16);
        static const QRegularExpression page(QStringLiteral("/([a-z-]+)(?:\\.md)?'$"));
        for (const auto& [alert, url] : alerts) {
            QVERIFY2(!url.isEmpty(), qPrintable(alert + QStringLiteral(" has no runbook_url")));
            const auto m = page.match(url);
            QVERIFY2(m.hasMatch(), qPrintable(alert + QStringLiteral(": ") + url));
            QVERIFY2(Runbook::find(m.captured(1)),
                     qPrintable(alert + QStringLiteral(": no page ") + m.captured(1)));
        }
    }

    // Every alert's runbook_url, as Prometheus fills it in for an `outboxctl serve` instance, answers
    // with the page of its finding on a running serve — without a token, as a browser following the
    // link from an alert has none. Unknown pages are 404.
    void runbookUrlsResolveOnServe()
    {
        QTemporaryDir dir;
        auto db = TestDatabases::fresh(QStringLiteral("sqlite"), QStringLiteral("docs"));
        QFile ini(dir.filePath(QStringLiteral("outbox.ini")));
        QVERIFY(ini.open(QIODevice::WriteOnly));
        ini.write("[database]\nurl = " + TestDatabases::urlText(db->url()).toUtf8() + "\n");
        ini.close();
        QTcpServer probe;
        QVERIFY(probe.listen(QHostAddress::LocalHost, 0));
        const QString instance = QStringLiteral("127.0.0.1:%1").arg(probe.serverPort());
        probe.close();
        auto server = startOutboxctl({QStringLiteral("serve"), QStringLiteral("--config"), ini.fileName(),
                                      QStringLiteral("--listen"), instance});
        QVERIFY(server->waitForStarted());
        QByteArray out;
        QTRY_VERIFY_WITH_TIMEOUT(
            (out += server->readAll()).contains("serving") || server->state() != QProcess::Running, 15000);
        QVERIFY2(server->state() == QProcess::Running, out.constData());

        QNetworkAccessManager http;
        auto get = [&http](const QString& url) {
            QNetworkReply* reply = http.get(QNetworkRequest(QUrl(url)));
            QSignalSpy done(reply, &QNetworkReply::finished);
            if (!reply->isFinished())
                done.wait(10000);
            reply->deleteLater();
            return qMakePair(reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt(),
                             reply->readAll());
        };
        int checked = 0;
        for (const auto& [alert, url] : alertRunbookUrls()) {
            // The default of the template: the instance that raised the alert, or the installed page.
            QString resolved = url;
            resolved.remove(QLatin1Char('\''));
            resolved.replace(
                QRegularExpression(QStringLiteral("\\{\\{ with .*\\{\\{ else \\}\\}(.*)\\{\\{ end \\}\\}")),
                QStringLiteral("\\1"));
            resolved.replace(QStringLiteral("{{ $labels.instance }}"), instance);
            if (resolved.startsWith(QLatin1String("file:///usr/share/doc/outboxctl/runbooks/")))
                resolved = QStringLiteral("http://%1/docs/runbooks/").arg(instance) +
                           resolved.section(QLatin1Char('/'), -1);
            QVERIFY2(resolved.startsWith(QStringLiteral("http://%1/docs/runbooks/").arg(instance)),
                     qPrintable(alert + QStringLiteral(": ") + resolved));
            const auto [status, body] = get(resolved);
            QVERIFY2(status == 200, qPrintable(alert + QStringLiteral(": ") + resolved));
            const QString id = resolved.section(QLatin1Char('/'), -1).remove(QStringLiteral(".md"));
            QCOMPARE(QString::fromUtf8(body), Runbook::of(id).servedMarkdown());
            ++checked;
        }
        QVERIFY(checked >= 16);
        const auto index = get(QStringLiteral("http://%1/docs/runbooks/").arg(instance));
        QCOMPARE(index.first, 200);
        QCOMPARE(QString::fromUtf8(index.second), Runbook::servedIndexMarkdown());
        QCOMPARE(get(QStringLiteral("http://%1/docs/runbooks/no-such-finding").arg(instance)).first, 404);
        QCOMPARE(get(QStringLiteral("http://%1/docs/runbooks/../../etc/passwd").arg(instance)).first, 404);
        QCOMPARE(terminateAndWait(*server), 0);
    }

    // Advice is code: the tour's outboxctl commands run as printed (through a shell, quotes and all)
    // against a database with the demo's two kinds of poison events, and do what the tour says.
    void readmeTourRunsAsPrinted()
    {
        const QString readme = QString::fromUtf8(readAll(sourcePath(QStringLiteral("README.md"))));
        const qsizetype from = readme.indexOf(QStringLiteral("\n## A 5-minute tour"));
        QVERIFY(from > 0);
        const QString tour = readme.mid(from, readme.indexOf(QStringLiteral("\n## "), from + 1) - from);
        QStringList commands;
        static const QRegularExpression block(QStringLiteral("```sh\\n(.*?)```"),
                                              QRegularExpression::DotMatchesEverythingOption);
        static const QRegularExpression comment(QStringLiteral("\\s{2,}#.*$"));
        for (auto it = block.globalMatch(tour); it.hasNext();)
            for (QString line : it.next().captured(1).split(QLatin1Char('\n')))
                if (line.startsWith(QLatin1String("outboxctl ")) &&
                    !line.startsWith(QLatin1String("outboxctl serve --config"))) // runs until stopped
                    commands << line.remove(comment);
        QVERIFY2(commands.size() >= 7, qPrintable(commands.join(QLatin1Char('\n'))));

        auto db = TestDatabases::fresh(QStringLiteral("sqlite"), QStringLiteral("docs_tour"));
        const QVector<qint64> ids = insertEvents(*db, 6);
        forceStatus(*db, ids.mid(0, 3), QStringLiteral("FAILED"),
                    QStringLiteral("Broker: Topic authorization failed"));
        forceStatus(*db, ids.mid(3, 3), QStringLiteral("FAILED"),
                    QStringLiteral("Broker: Message size too large"));
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("PATH"), QFileInfo(qEnvironmentVariable("OUTBOXCTL")).absolutePath() +
                                               QLatin1Char(':') + env.value(QStringLiteral("PATH")));
        env.insert(QStringLiteral("OUTBOX_DB_URL"), TestDatabases::urlText(db->url()));
        env.insert(QStringLiteral("OUTBOX_ACTOR"), QStringLiteral("alice"));
        for (const QString& command : commands) {
            QProcess shell;
            shell.setProcessEnvironment(env);
            shell.start(QStringLiteral("bash"), {QStringLiteral("-c"), command});
            QVERIFY(shell.waitForFinished(60000));
            const int expected =
                command.startsWith(QLatin1String("outboxctl doctor")) ? 3 : 0; // a critical finding
            QVERIFY2(
                shell.exitCode() == expected,
                qPrintable(command + QLatin1Char('\n') + QString::fromUtf8(shell.readAllStandardError())));
        }
        // The dry run changed nothing; the mark-DEAD took the too-large group only.
        QCOMPARE(statusOf(*db, ids.at(0)), QStringLiteral("FAILED"));
        QCOMPARE(statusOf(*db, ids.at(3)), QStringLiteral("DEAD"));
        QCOMPARE(statusOf(*db, ids.at(5)), QStringLiteral("DEAD"));
    }

    // The README is the first screen, not the manual; its links lead somewhere.
    void readmeIsShortAndLinksResolve()
    {
        const QString readme = QString::fromUtf8(readAll(sourcePath(QStringLiteral("README.md"))));
        const auto lines = readme.count(QLatin1Char('\n'));
        QVERIFY2(lines <= 250, qPrintable(QStringLiteral("README.md has %1 lines (at most 250)").arg(lines)));
        static const QRegularExpression link(QStringLiteral("\\]\\(((?:docs|resources)/[^)#]+)[)#]"));
        int links = 0;
        for (auto it = link.globalMatch(readme); it.hasNext();) {
            const QString target = it.next().captured(1);
            QVERIFY2(QFile::exists(sourcePath(target)), qPrintable(target));
            ++links;
        }
        QVERIFY(links >= 10);
        QVERIFY(readme.contains(QStringLiteral("bash installer/run-demo.sh")));
        QVERIFY(readme.contains(QStringLiteral("bash installer/run-tests.sh")));
    }
};

QTEST_GUILESS_MAIN(TestDocs)
#include "tst_docs.moc"
