#pragma once

#include <QDateTime>
#include <QString>

class QCheckBox;
class QComboBox;
class QDateTimeEdit;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QPushButton;
class QScrollArea;
class QWidget;

namespace outbox::desktop::controls {

// The pieces the console's list pages build their filter and action bars from, made one way:
// object names for tests and accessibility, plain text wherever database text may show.

// A filter box: placeholder, clear button; Enter applies the filter (connect returnPressed).
QLineEdit* filterEdit(QWidget* parent, const QString& objectName, const QString& placeholder);
// A push button with its object name and, when given, a tooltip.
QPushButton* button(QWidget* parent, const QString& text, const QString& objectName,
                    const QString& toolTip = QString());
// A status line (counts, "as of", errors): plain text, never markup.
QLabel* infoLabel(QWidget* parent, const QString& objectName);
// A status filter: `any` (the caller's words for no filter, an empty value) first, then each of
// `statuses` in the user's language (Labels::status) with the status as its value.
QComboBox* statusBox(QWidget* parent, const QString& objectName, const QString& any,
                     const QStringList& statuses);
// A read-only text pane (a whole record, a log, diffs).
QPlainTextEdit* readOnlyText(QWidget* parent, const QString& objectName);
// A paragraph (evidence, a summary, a consequence): plain text, word-wrapped; `selectable`: the
// mouse selects (and copies) its text.
QLabel* paragraph(QWidget* parent, const QString& objectName, bool selectable = false);
// `label` in a frameless box that scrolls it up and down, at least two of its lines high: a long
// text scrolls there instead of making the window taller than a laptop's screen.
QScrollArea* scrollBox(QLabel* label, QWidget* parent, const QString& objectName);
// "N new — show": bold, hidden until rows arrived that the list does not show yet.
QPushButton* newRowsButton(QWidget* parent, const QString& objectName);

// A time bound of a filter ("from", "until", "since"): a check box that switches a date-time
// editor on; off, the editor is disabled (Tab skips it) and the bound is not used.
struct TimeBound
{
    QCheckBox* enabled;
    QDateTimeEdit* at;
};
TimeBound timeBound(QWidget* parent, const QString& text, const QString& objectName,
                    const QDateTime& initial);

} // namespace outbox::desktop::controls
