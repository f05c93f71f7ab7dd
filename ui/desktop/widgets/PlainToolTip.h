#pragma once

#include <QString>

namespace outbox::desktop {

// A tooltip shows rich text whenever its text looks like HTML (Qt::mightBeRichText), and there is
// no plain-text flag for it as there is for a label. Database text (error texts, finding titles,
// cell values) goes into a tooltip through here: escaped, so "<b>" or "<img src=…>" stored in a
// row shows as those characters and is never rendered or fetched.
class PlainToolTip
{
public:
    static QString of(const QString& text);
};

} // namespace outbox::desktop
