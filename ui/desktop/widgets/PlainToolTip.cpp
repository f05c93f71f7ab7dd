#include "ui/desktop/widgets/PlainToolTip.h"

#include <QTextDocument>

namespace outbox::desktop {

QString PlainToolTip::of(const QString& text)
{
    if (text.isEmpty())
        return {};
    return Qt::convertFromPlainText(text, Qt::WhiteSpaceNormal);
}

} // namespace outbox::desktop
