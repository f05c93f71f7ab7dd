#include "tests/support/ScreenTexts.h"

#include <QAbstractButton>
#include <QAbstractItemView>
#include <QAbstractSpinBox>
#include <QAction>
#include <QBarCategoryAxis>
#include <QCategoryAxis>
#include <QChart>
#include <QChartView>
#include <QComboBox>
#include <QGroupBox>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMainWindow>
#include <QMenu>
#include <QMenuBar>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QRegularExpression>
#include <QSpinBox>
#include <QStatusBar>
#include <QTabBar>
#include <QTextDocument>
#include <QTextEdit>
#include <QTreeView>

namespace outbox::test {

namespace {

QString plain(const QString& text)
{
    if (!Qt::mightBeRichText(text))
        return text;
    QTextDocument doc;
    doc.setHtml(text);
    return doc.toPlainText();
}

QString whereOf(const QWidget* w)
{
    QString where = QString::fromLatin1(w->metaObject()->className());
    if (!w->objectName().isEmpty())
        where += QLatin1Char('#') + w->objectName();
    const QWidget* window = w->window();
    if (window != w)
        where = QString::fromLatin1(window->metaObject()->className()) + QLatin1Char('#') +
                window->objectName() + QStringLiteral(" > ") + where;
    return where;
}

void addModel(QVector<ScreenTexts::Text>& out, const QString& where, const QAbstractItemModel* model,
              const QModelIndex& parent, int depth)
{
    const int rows = std::min(model->rowCount(parent), 200);
    for (int r = 0; r < rows; ++r)
        for (int c = 0; c < model->columnCount(parent); ++c) {
            const QModelIndex index = model->index(r, c, parent);
            for (int role : {int(Qt::DisplayRole), int(Qt::ToolTipRole)}) {
                const QVariant v = index.data(role);
                if (v.metaType().id() == QMetaType::QString)
                    out.push_back({where + QStringLiteral(" [%1,%2]").arg(r).arg(c), plain(v.toString())});
            }
            if (depth < 3 && model->hasChildren(index))
                addModel(out, where, model, index, depth + 1);
        }
}

void addChart(QVector<ScreenTexts::Text>& out, const QString& where, QChart* chart)
{
    if (!chart)
        return;
    out.push_back({where + QStringLiteral(" title"), chart->title()});
    for (QAbstractAxis* axis : chart->axes()) {
        out.push_back({where + QStringLiteral(" axis"), axis->titleText()});
        if (auto* categories = qobject_cast<QBarCategoryAxis*>(axis))
            for (const QString& c : categories->categories())
                out.push_back({where + QStringLiteral(" category"), c});
        if (auto* labels = qobject_cast<QCategoryAxis*>(axis))
            for (const QString& c : labels->categoriesLabels())
                out.push_back({where + QStringLiteral(" axis label"), c});
    }
    if (chart->legend() && chart->legend()->isVisible())
        for (QAbstractSeries* series : chart->series())
            out.push_back({where + QStringLiteral(" series"), series->name()});
}

} // namespace

QVector<ScreenTexts::Text> ScreenTexts::ofMenu(QMenu* menu, const QString& where)
{
    QVector<Text> out;
    const QString here = where + QStringLiteral(" > ") + menu->title();
    out.push_back({where, menu->title()});
    for (QAction* a : menu->actions()) {
        if (a->isSeparator() || !a->isVisible())
            continue;
        out.push_back({here, a->text()});
        if (a->toolTip() != a->text() && a->toolTip() != QString(a->text()).remove(QLatin1Char('&')))
            out.push_back({here + QStringLiteral(" tooltip"), a->toolTip()});
        if (a->menu())
            out += ofMenu(a->menu(), here);
    }
    return out;
}

QVector<ScreenTexts::Text> ScreenTexts::of(QWidget* root)
{
    QVector<Text> out;
    QList<QWidget*> widgets = root->findChildren<QWidget*>();
    widgets.prepend(root);
    for (QWidget* w : std::as_const(widgets)) {
        if (w != root && !w->isVisibleTo(root))
            continue;
        const QString where = whereOf(w);
        if (w->isWindow())
            out.push_back({where + QStringLiteral(" title"), w->windowTitle()});
        if (!w->toolTip().isEmpty())
            out.push_back({where + QStringLiteral(" tooltip"), plain(w->toolTip())});
        if (auto* label = qobject_cast<QLabel*>(w))
            out.push_back(
                {where, label->textFormat() == Qt::PlainText ? label->text() : plain(label->text())});
        else if (auto* button = qobject_cast<QAbstractButton*>(w))
            out.push_back({where, button->text()});
        else if (auto* group = qobject_cast<QGroupBox*>(w))
            out.push_back({where, group->title()});
        else if (auto* line = qobject_cast<QLineEdit*>(w))
            out << Text{where + QStringLiteral(" placeholder"), line->placeholderText()}
                << Text{where, line->echoMode() == QLineEdit::Normal ? line->text() : QString()};
        else if (auto* plainEdit = qobject_cast<QPlainTextEdit*>(w))
            out << Text{where + QStringLiteral(" placeholder"), plainEdit->placeholderText()}
                << Text{where, plainEdit->toPlainText()};
        else if (auto* edit = qobject_cast<QTextEdit*>(w))
            out << Text{where + QStringLiteral(" placeholder"), edit->placeholderText()}
                << Text{where, edit->toPlainText()};
        else if (auto* combo = qobject_cast<QComboBox*>(w))
            for (int i = 0; i < combo->count(); ++i)
                out.push_back({where + QStringLiteral(" item"), combo->itemText(i)});
        else if (auto* tabs = qobject_cast<QTabBar*>(w))
            for (int i = 0; i < tabs->count(); ++i)
                out << Text{where + QStringLiteral(" tab"), tabs->tabText(i)}
                    << Text{where + QStringLiteral(" tab tooltip"), plain(tabs->tabToolTip(i))};
        else if (auto* spin = qobject_cast<QSpinBox*>(w))
            out << Text{where + QStringLiteral(" prefix"), spin->prefix()}
                << Text{where + QStringLiteral(" suffix"), spin->suffix()}
                << Text{where + QStringLiteral(" special"), spin->specialValueText()};
        else if (auto* bar = qobject_cast<QProgressBar*>(w)) {
            if (bar->isTextVisible())
                out.push_back({where, bar->text()});
        } else if (auto* chart = qobject_cast<QChartView*>(w))
            addChart(out, where, chart->chart());
        else if (auto* menus = qobject_cast<QMenuBar*>(w)) {
            for (QAction* a : menus->actions())
                if (a->menu())
                    out += ofMenu(a->menu(), where);
        } else if (auto* status = qobject_cast<QStatusBar*>(w))
            out.push_back({where + QStringLiteral(" message"), status->currentMessage()});
        if (auto* view = qobject_cast<QAbstractItemView*>(w); view && view->model()) {
            const QAbstractItemModel* model = view->model();
            QHeaderView* header = nullptr;
            if (auto* tree = qobject_cast<QTreeView*>(view))
                header = tree->isHeaderHidden() ? nullptr : tree->header();
            else
                header = view->findChild<QHeaderView*>();
            if (header && header->isVisibleTo(root))
                for (int c = 0; c < model->columnCount(); ++c)
                    if (!header->isSectionHidden(c))
                        out << Text{where + QStringLiteral(" header"),
                                    model->headerData(c, Qt::Horizontal).toString()}
                            << Text{where + QStringLiteral(" header tooltip"),
                                    plain(model->headerData(c, Qt::Horizontal, Qt::ToolTipRole).toString())};
            // The names in a file dialog's lists are the file system's.
            if (!model->inherits("QFileSystemModel") && !model->inherits("QUrlModel"))
                addModel(out, where, model, view->rootIndex(), 0);
        }
    }
    out.erase(
        std::remove_if(out.begin(), out.end(), [](const Text& t) { return t.text.trimmed().isEmpty(); }),
        out.end());
    return out;
}

const QStringList& ScreenTexts::allowedWords()
{
    // Names: products, protocols and formats that Chinese texts write as they are.
    static const QStringList words{
        // Products, protocols, formats, units and terms that Chinese texts write as they are.
        QStringLiteral("Kafka"), QStringLiteral("RabbitMQ"), QStringLiteral("PostgreSQL"),
        QStringLiteral("MySQL"), QStringLiteral("MariaDB"), QStringLiteral("SQLite"),
        QStringLiteral("Broker"), QStringLiteral("AMQP"), QStringLiteral("JSON"), QStringLiteral("CSV"),
        QStringLiteral("SQL"), QStringLiteral("URL"), QStringLiteral("NOC"), QStringLiteral("UTC"),
        QStringLiteral("HTTP"), QStringLiteral("HTTPS"), QStringLiteral("TCP"), QStringLiteral("TLS"),
        QStringLiteral("W3C"), QStringLiteral("ID"), QStringLiteral("PID"), QStringLiteral("UTF"),
        QStringLiteral("ACL"), QStringLiteral("traceparent"), QStringLiteral("Outbox"),
        QStringLiteral("outboxctl"), QStringLiteral("KB"), QStringLiteral("MB"), QStringLiteral("GB"),
        QStringLiteral("Esc"),
        // The words typed to confirm an action ("requeue 2", "pause 1"): core's verbs
        // (core/ops/ActionConfirmation), the same in every language and every front end.
        QStringLiteral("requeue"), QStringLiteral("dead"), QStringLiteral("replay"),
        QStringLiteral("discard"), QStringLiteral("pause"), QStringLiteral("resume"), QStringLiteral("drain"),
        QStringLiteral("forget"),
        // Keys of the configuration and fleet files that messages name ("缺少 url 键").
        QStringLiteral("url"),
        // Kafka's ACL operations, as kafka-acls names them.
        QStringLiteral("WRITE"), QStringLiteral("DESCRIBE"),
        // The statuses and desired states the database stores, shown (and typed in commands) as
        // they are.
        QStringLiteral("PENDING"), QStringLiteral("SENDING"), QStringLiteral("SENT"),
        QStringLiteral("FAILED"), QStringLiteral("DEAD"), QStringLiteral("NEW"), QStringLiteral("REPLAYING"),
        QStringLiteral("REPLAYED"), QStringLiteral("DISCARDED"), QStringLiteral("PROCESSED"),
        QStringLiteral("RUNNING"), QStringLiteral("PAUSED"), QStringLiteral("DRAINING"),
        QStringLiteral("STOPPED"), QStringLiteral("STALE"), QStringLiteral("RUN"), QStringLiteral("PAUSE"),
        QStringLiteral("DRAIN")};
    return words;
}

namespace {

// The Latin words (two letters or more) of `text` that the allow-list does not name.
QStringList words(const QString& text)
{
    static const QRegularExpression word(QStringLiteral("(?<![A-Za-z0-9])[A-Za-z][A-Za-z0-9_]*[A-Za-z0-9]"));
    QStringList found;
    for (auto it = word.globalMatch(text); it.hasNext();) {
        const QString w = it.next().captured();
        if (!ScreenTexts::allowedWords().contains(w))
            found << w;
    }
    return found;
}

} // namespace

QStringList ScreenTexts::latinWords(QString text, const QStringList& data)
{
    static const QRegularExpression verbatim(
        QStringLiteral("(\\S*/)?(outboxctl|systemctl|journalctl|kafka-[a-z-]+|rabbitmqctl|rabbitmq-[a-z]+)\\s"
                       "[^\\n。；，）]*"                              // a command, to the end of its clause
                       "|[a-z][a-z0-9+.-]*://[^\\s：，。；（）]*"     // a URL
                       "|(?<![\\w-])--?[a-z][a-z0-9-]*(=\\S*)?"       // a flag
                       "|\\*\\.[a-z]+"                                // a file pattern
                       "|\\b[A-Z][A-Z0-9]*(_[A-Z0-9<>]+)+\\b"         // an environment variable
                       "|(?<![\\w:/.])/[\\w.<>*@+-][\\w./<>*@+-]*"    // an absolute path
                       "|\\b[\\w-]+\\.(csv|json|ini|conf|db)\\b"      // a file name
                       "|\\b(Ctrl|Shift|Alt|Meta)\\+\\S+|\\bF\\d+\\b" // a shortcut
                       "|\\b[a-z][a-z0-9]*(-[a-z0-9]+)+\\b"           // a code: a finding's id, a unit's name
                       "|\\b[A-Za-z_]\\w*(\\.\\w+)+\\b"               // a dotted name: a setting, a JSON path
                       "|\\b[a-z_][\\w.]* ?= ?\\S+"                   // an example assignment (trace_id=abc)
                       "|\\b[\\w.-]+:\\d+\\b"                         // host:port
                       "|\\[[a-z]+\\]\\s*[a-z_]+" // a configuration key ([kafka] bootstrap)
                       "|\"[^\"\\n]*\"(?=\\s*:)|(?<=:|: )(null|true|false)\\b" // JSON: member names, literals
                       "|\\bSIG[A-Z]+\\b"                                      // a signal
                       ));
    // The data, the longest first ("unknown SKU SKU-1" before "SKU-1"), as whole words ("ok" is
    // not taken out of "Broker").
    QStringList sorted = data;
    std::sort(sorted.begin(), sorted.end(),
              [](const QString& a, const QString& b) { return a.size() > b.size(); });
    const auto withoutData = [&sorted](QString t) {
        const auto alnum = [](QChar c) { return c.isLetterOrNumber(); };
        for (const QString& d : std::as_const(sorted)) {
            if (d.isEmpty())
                continue;
            for (qsizetype at = t.indexOf(d); at >= 0; at = t.indexOf(d, at)) {
                const bool before = at > 0 && alnum(d.front()) && alnum(t.at(at - 1));
                const bool after = at + d.size() < t.size() && alnum(d.back()) && alnum(t.at(at + d.size()));
                if (before || after)
                    at += d.size();
                else
                    t.remove(at, d.size());
            }
        }
        return t;
    };
    // A word is English only when neither order explains it: data first (a URL inside an error
    // text), or what is verbatim first (a key of "trace_id=abc" that is data too).
    const QStringList dataFirst = words(QString(withoutData(text)).remove(verbatim));
    QStringList verbatimFirst = words(withoutData(QString(text).remove(verbatim)));
    QStringList found;
    for (const QString& w : dataFirst)
        if (verbatimFirst.removeOne(w))
            found << w;
    return found;
}

QStringList ScreenTexts::english(const QVector<Text>& texts, const QStringList& data)
{
    QStringList english;
    for (const Text& t : texts)
        if (const QStringList words = latinWords(t.text, data); !words.isEmpty())
            english << QStringLiteral("%1: %2   [%3]")
                           .arg(t.where, t.text.left(300), words.join(QLatin1Char(' ')));
    english.removeDuplicates();
    return english;
}

} // namespace outbox::test
