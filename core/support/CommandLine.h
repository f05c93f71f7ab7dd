#pragma once

#include "core/support/Result.h"

#include <QString>
#include <QStringList>

namespace outbox {

// A command line printed for an operator to paste (doctor's prepared commands, in the CLI, the
// desktop console, the web console and JSON `actions[].command`). Its words may come from the
// database (worker ids, consumer names, error texts), so it is rendered defensively, in one place:
// - options are written `--name=value` (a value that starts with `-` stays the option's value),
// - positionals come after `--` (a word like `--yes` or `--db=…` cannot become an option),
// - every word is quoted for a POSIX shell when it is not plainly safe,
// - a word that cannot be made safe (control or invisible formatting characters: a newline would
//   end the command, ESC would drive the terminal it is shown in) refuses the whole command.
class CommandLine
{
public:
    explicit CommandLine(QString program, QStringList words = {});

    // Sub-command words the program defines ("relays", "forget"); never database-derived.
    CommandLine& word(const QString& word);
    // `--name=value`.
    CommandLine& option(const QString& name, const QString& value);
    // `--name`.
    CommandLine& flag(const QString& name);
    // Options already in argv form, from the configuration (a database target's `--db URL`).
    CommandLine& options(const QStringList& argv);
    CommandLine& positional(const QString& word);
    CommandLine& positionals(const QStringList& words);

    // The argv the shell passes to the program (without the program).
    QStringList arguments() const;
    // The command for a POSIX shell, or an error naming the word that cannot be made safe.
    Result<QString> render() const;

    // One word quoted for a POSIX shell ('…' when it holds anything but [A-Za-z0-9_@%+=:,./-]).
    static QString shellQuote(const QString& word);
    // False when `word` holds a character no quoting makes safe to show and paste.
    static bool isPrintable(const QString& word);

private:
    QString m_program;
    QStringList m_words;
    QStringList m_options;
    QStringList m_positionals;
};

} // namespace outbox
