#include "core/support/JsonText.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

namespace outbox {

QString JsonText::of(const QJsonValue& value)
{
    switch (value.type()) {
    case QJsonValue::Null:
    case QJsonValue::Undefined:
        return {};
    case QJsonValue::Bool:
        return value.toBool() ? QStringLiteral("true") : QStringLiteral("false");
    case QJsonValue::Double:
        return QString::number(value.toDouble(), 'g', 17);
    case QJsonValue::String:
        return value.toString();
    case QJsonValue::Array:
        return QString::fromUtf8(QJsonDocument(value.toArray()).toJson(QJsonDocument::Compact));
    case QJsonValue::Object:
        return QString::fromUtf8(QJsonDocument(value.toObject()).toJson(QJsonDocument::Compact));
    }
    return {};
}

QString JsonText::parseError(QJsonParseError::ParseError error)
{
    switch (error) {
    case QJsonParseError::NoError:
        return tr("no error");
    case QJsonParseError::UnterminatedObject:
        return tr("unterminated object");
    case QJsonParseError::MissingNameSeparator:
        return tr("missing name separator (:)");
    case QJsonParseError::UnterminatedArray:
        return tr("unterminated array");
    case QJsonParseError::MissingValueSeparator:
        return tr("missing value separator (,)");
    case QJsonParseError::IllegalValue:
        return tr("illegal value");
    case QJsonParseError::TerminationByNumber:
        return tr("the text ends inside a number");
    case QJsonParseError::IllegalNumber:
        return tr("illegal number");
    case QJsonParseError::IllegalEscapeSequence:
        return tr("illegal escape sequence");
    case QJsonParseError::IllegalUTF8String:
        return tr("illegal UTF-8 string");
    case QJsonParseError::UnterminatedString:
        return tr("unterminated string");
    case QJsonParseError::MissingObject:
        return tr("an object is missing after a comma");
    case QJsonParseError::DeepNesting:
        return tr("nested too deeply");
    case QJsonParseError::DocumentTooLarge:
        return tr("the document is too large");
    case QJsonParseError::GarbageAtEnd:
        return tr("unexpected text after the end of the document");
    }
    return tr("invalid JSON");
}

} // namespace outbox
