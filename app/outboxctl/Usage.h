#pragma once

#include "app/outboxctl/Cli.h"

namespace outbox::cli {

// `outboxctl --help`: every command with its summary. Both texts come from the command table.
QString usageText(const QList<Command>& commands);
// outboxctl(1) in roff: every command with its syntax and options, the common options, exit
// codes, environment and files. Installed as the man page (`outboxctl help --man`).
QString manPage(const QList<Command>& commands);
// The configuration example: every key of the configuration table (core/config), commented out
// with its default and help. Installed as /etc/outbox/outbox.ini.example.
QString iniExample();
// The generated pages of docs/: DIR/configuration.md (the configuration table) and
// DIR/runbooks/*.md (core/diagnosis/Runbook), as committed in the repository and checked by
// tst_docs (`outboxctl help --docs docs` regenerates them). Returns an error message, or empty.
QString writeGeneratedDocs(const QString& dir);

} // namespace outbox::cli
