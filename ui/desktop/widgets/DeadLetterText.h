#pragma once

#include <QCoreApplication>
#include <QJsonObject>
#include <QString>

namespace outbox::desktop {

// A dead letter as the console shows it whole (the Dead letters page's detail, a Recovery
// finding's sample): its error first (lists elide it), then what an operator's edit changed
// from the message as it came, then every field as indented JSON.
class DeadLetterText
{
    Q_DECLARE_TR_FUNCTIONS(outbox::desktop::DeadLetterText)

public:
    static QString detail(const QJsonObject& letter);
};

} // namespace outbox::desktop
