#pragma once

#include <QString>

namespace outbox {

// A text shortened for a title: at most `maxChars` characters, cut after the last whole word that
// fits and ended with "…"; the text itself when it fits. A single word longer than the limit is cut
// inside it (there is no other place), also with "…". Never splits a surrogate pair.
QString clipAtWord(const QString& text, int maxChars);

} // namespace outbox
