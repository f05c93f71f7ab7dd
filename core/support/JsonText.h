#pragma once

#include <QCoreApplication>
#include <QJsonParseError>
#include <QJsonValue>
#include <QString>

namespace outbox {

// A JSON value as one line of text, the same in every front end and export: strings as they are,
// null as empty, numbers with their full precision, arrays and objects as compact JSON.
class JsonText
{
    Q_DECLARE_TR_FUNCTIONS(outbox::JsonText)

public:
    static QString of(const QJsonValue& value);
    // What is wrong with a JSON text, in the user's language ("unterminated object"): Qt's
    // QJsonParseError::errorString() is English in every language (qtbase's catalogues lack it).
    static QString parseError(QJsonParseError::ParseError error);
};

} // namespace outbox
