#pragma once

#include <QLabel>
#include <QPointer>

class QAbstractItemModel;
class QAbstractItemView;

namespace outbox::desktop {

// A line of text over an empty table that says why it is empty ("No FAILED events — good",
// "Not connected"). The page sets the text when a load finished; it shows only while the view's
// model has no rows.
class EmptyHint : public QLabel
{
    Q_OBJECT

public:
    explicit EmptyHint(QAbstractItemView* view);

    // The text for an empty table; call after the rows were (re)loaded.
    void setReason(const QString& text);
    void refresh();

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    QAbstractItemView* m_view;
    QString m_reason;
    QPointer<QAbstractItemModel> m_watched;
};

} // namespace outbox::desktop
