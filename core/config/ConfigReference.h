#pragma once

#include <QString>

namespace outbox::config {

// docs/configuration.md: the configuration's rules and one row per key of Config::keys(), written
// from the table itself so that the page cannot drift from what the commands accept
// (`outboxctl help --docs DIR` writes it; tst_docs fails when the committed page differs).
QString configurationMarkdown();

} // namespace outbox::config
