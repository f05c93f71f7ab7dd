#pragma once

#include <QString>

namespace outbox {

// A URL as an operator typed it (a database or broker URL, valid or not) on its way into an error
// message: never with its password, whatever its shape. The secrets are the password of its user
// information, found by text alone (everything between the first ':' after "scheme://" and the
// last '@', so "pw@@host" and a password holding '/' or '?' are found whole: at worst more is
// hidden), and every query value (a password given as an option, or hidden inside another option's
// value: application_name=x%20password%3Dy).
class TypedUrl
{
public:
    // The text without its secrets: "postgresql://app@host:1/db?password=***".
    static QString shown(const QString& text);
    // `message` (a parser's sentence about the URL, which may quote parts of it) with each secret
    // of `text` replaced by ***, as typed and percent-decoded, and QUrl's "; source was …" cut.
    static QString scrubbed(const QString& message, const QString& text);
};

} // namespace outbox
