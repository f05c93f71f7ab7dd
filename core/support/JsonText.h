#pragma once

#include <QJsonValue>
#include <QString>

namespace outbox {

// A JSON value as one line of text, the same in every front end and export: strings as they are,
// null as empty, numbers with their full precision, arrays and objects as compact JSON.
class JsonText
{
public:
    static QString of(const QJsonValue& value);
};

} // namespace outbox
