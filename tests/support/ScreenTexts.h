#pragma once

#include <QString>
#include <QStringList>
#include <QVector>

class QMenu;
class QWidget;

namespace outbox::test {

// Every text an operator reads on a window, as the zh_CN tests collect them (issue 40: "a zh_CN
// test walks every page and dialog, Qt's own included, and finds no English string outside user
// data"), and the Latin words left in them once the data and the allowed words are taken out.
class ScreenTexts
{
public:
    struct Text
    {
        QString where; // class#objectName of the widget (and of its window), to find it in the code
        QString text;
    };

    // The texts of `root` and its visible children: window titles, labels, buttons, group titles,
    // placeholders, line and text edits, combo box items, tabs, header and cell texts (display and
    // tool tip) of item views, chart titles, axis titles and series names, menus and the status
    // bar's message, every widget's tool tip. Rich text is read as the plain text it shows. The
    // file names in a file dialog's lists are the file system's and left out (their headers not).
    static QVector<Text> of(QWidget* root);
    // A menu's entries (and their submenus'), as they drop down.
    static QVector<Text> ofMenu(QMenu* menu, const QString& where);

    // The Latin words (two letters or more) of `text` that are not the database's own words
    // (`data`, taken out first) and not in the allow-list: product and protocol names, the
    // database's status values, environment variable names, commands (a line from "outboxctl"),
    // URLs, --flags, file patterns (*.ini), paths, file names and shortcuts (Ctrl+Z, F11). In a
    // Chinese text, none.
    static QStringList latinWords(QString text, const QStringList& data);
    // The allow-list: names that are not translated (Kafka, PostgreSQL, JSON, …) and the statuses
    // the database stores (PENDING, FAILED, …), shown as they are in every language.
    static const QStringList& allowedWords();

    // "where: text [words]" for each text with Latin words, for a failure message.
    static QStringList english(const QVector<Text>& texts, const QStringList& data);
};

} // namespace outbox::test
