#pragma once

#include <QString>
#include <QStringList>
#include <QVector>

namespace outbox::config {

enum class ValueType {
    Text,
    Integer,  // within [min, max]
    Boolean,  // true/false, yes/no, on/off, 1/0
    Duration, // 30s, 15m, 2h, 7d, 500ms, 0 (a plain number is seconds)
    List,     // comma-separated; a repeatable flag adds one item per use
    Choice,   // one of `choices`
};

// One configuration key: where it may come from and what it may hold. The table of keys
// (Config::keys()) is the one description of the configuration; the command line's options, the
// environment variables, `outboxctl config show` and docs/configuration.md all follow from it.
struct ConfigKey
{
    QString key;  // "relay.batch_size": section and name
    QString flag; // "batch-size" (without dashes); empty: no command-line flag
    QString env;  // "OUTBOX_RELAY_BATCH_SIZE"; empty: no environment variable
    ValueType type = ValueType::Text;
    QString defaultValue;
    QString help;
    QString valueName;   // shown in --help: "n", "ms", "url"
    qint64 min = 0;      // Integer
    qint64 max = 0;      // Integer
    QStringList choices; // Choice
    QString pattern;     // Text: a regular expression the whole value must match (when not empty)
    QString patternHelp; // what the pattern asks for, for the error message
    QString flagSets;    // a flag without a value that sets this value ("--no-notify" sets false)
    bool secret = false; // never printed, never taken from the command line
    bool repeatable = false;

    QString section() const { return key.section(QLatin1Char('.'), 0, 0); }
    QString name() const { return key.section(QLatin1Char('.'), 1); }
};

} // namespace outbox::config
