#include "app/outboxctl/Cli.h"

#include "app/outboxctl/Systemd.h"
#include "core/db/DatabaseTarget.h"
#include "core/db/Migrator.h"
#include "core/support/TerminalText.h"

#include <QCoreApplication>
#include <QHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <algorithm>
#include <cstdio>

namespace outbox::cli {

Context::Context(QCommandLineParser& p, QStringList pos, config::Config config, DatabaseTarget member)
    : parser(p), positionals(std::move(pos)), m_stdout(stdout), out(&m_stdout), err(stderr),
      m_config(std::move(config)), m_member(std::move(member))
{
}

QList<QCommandLineOption> commonOptions()
{
    return {
        QCommandLineOption(QStringLiteral("config"),
                           QStringLiteral("INI configuration file (flags > environment > file > defaults)."),
                           QStringLiteral("file")),
        QCommandLineOption(QStringLiteral("json"), QStringLiteral("Machine-readable JSON output.")),
        QCommandLineOption(QStringLiteral("yes"), QStringLiteral("Do not ask for confirmation.")),
        QCommandLineOption(QStringLiteral("member"),
                           QStringLiteral("Work on this member of the fleet file (--fleet) instead of --db."),
                           QStringLiteral("name")),
    };
}

QStringList commonConfigKeys()
{
    return {QStringLiteral("database.url"), QStringLiteral("database.table_prefix"),
            QStringLiteral("general.actor"), QStringLiteral("general.fleet")};
}

QVector<config::ConfigKey> configKeysFor(const QStringList& patterns)
{
    QVector<config::ConfigKey> keys;
    for (const QString& pattern : patterns) {
        const bool wildcard = pattern.endsWith(QLatin1String(".*"));
        const QString section = pattern.left(pattern.size() - 2);
        for (const config::ConfigKey& k : config::Config::keys()) {
            if (k.flag.isEmpty() || k.secret)
                continue;
            if (wildcard ? k.section() == section : k.key == pattern)
                keys << k;
        }
    }
    return keys;
}

namespace {

const QString KafkaArgument = QStringLiteral("-X");

QString optionHelp(const config::ConfigKey& k)
{
    QString help = k.help;
    if (help.endsWith(QLatin1Char('.')))
        help.chop(1);
    QStringList notes;
    if (!k.flagSets.isEmpty())
        notes << QStringLiteral("sets %1 = %2").arg(k.key, k.flagSets);
    else if (!k.defaultValue.isEmpty())
        notes << QStringLiteral("default %1").arg(k.defaultValue);
    if (!k.env.isEmpty())
        notes << k.env;
    notes << QStringLiteral("[%1] %2").arg(k.section(), k.name());
    return help + QStringLiteral(" (") + notes.join(QStringLiteral("; ")) + QStringLiteral(").");
}

} // namespace

QList<QCommandLineOption> configOptions(const QStringList& patterns)
{
    QList<QCommandLineOption> options;
    for (const config::ConfigKey& k : configKeysFor(patterns)) {
        if (k.flagSets.isEmpty())
            options << QCommandLineOption(k.flag, optionHelp(k),
                                          k.valueName.isEmpty() ? QStringLiteral("value") : k.valueName);
        else
            options << QCommandLineOption(k.flag, optionHelp(k));
    }
    if (patterns.contains(KafkaArgument))
        options << QCommandLineOption(
            QStringLiteral("X"),
            QStringLiteral("librdkafka property, repeatable (like the [kafka] section; secrets only there)."),
            QStringLiteral("name=value"));
    return options;
}

Result<LoadedConfig> loadConfig(const QCommandLineParser& parser, const QStringList& patterns)
{
    config::ConfigInputs inputs;
    inputs.file = parser.value(QStringLiteral("config"));
    if (parser.isSet(QStringLiteral("config")) && inputs.file.isEmpty())
        return Error::usage(QStringLiteral("--config needs a file"));
    inputs.environment = config::Config::systemEnvironment();
    for (const config::ConfigKey& k : configKeysFor(patterns)) {
        if (!parser.isSet(k.flag))
            continue;
        const QString value = !k.flagSets.isEmpty() ? k.flagSets
                              : k.repeatable        ? parser.values(k.flag).join(QLatin1Char(','))
                                                    : parser.value(k.flag);
        inputs.flags.push_back(config::FlagValue{k.key, value});
    }
    if (patterns.contains(KafkaArgument))
        inputs.kafkaArguments = parser.values(QStringLiteral("X"));
    auto config = config::Config::load(inputs);
    if (!config)
        return config.error();
    if (!parser.isSet(QStringLiteral("member")))
        return LoadedConfig{std::move(config).value(), {}};
    return withFleetMember(*config, parser.value(QStringLiteral("member")));
}

Result<LoadedConfig> withFleetMember(const config::Config& config, const QString& memberName)
{
    const QString fleetFile = config.value(QStringLiteral("general.fleet"));
    if (fleetFile.isEmpty())
        return Error::usage(
            QStringLiteral("--member %1 needs a fleet file (--fleet FILE, OUTBOX_FLEET or [general] fleet)")
                .arg(memberName));
    for (const QString& key : {QStringLiteral("database.url"), QStringLiteral("database.table_prefix")})
        if (config.source(key).kind == config::Source::Flag)
            return Error::usage(QStringLiteral("%1 and --member both name the database: give one of them")
                                    .arg(config.source(key).name));
    auto fleet = Fleet::load(fleetFile);
    if (!fleet)
        return fleet.error();
    auto member = fleet->find(memberName);
    if (!member)
        return member.error();
    // The member's database stands for the configuration's, as if given by flags: every reader of
    // [database] (and a child started on it) reaches the member.
    const config::Source chosen{config::Source::Flag, {}, 0, QStringLiteral("--member ") + member->name};
    DatabaseUrl withoutPassword = member->url();
    withoutPassword.password.clear();
    auto result = config.withValue(QStringLiteral("database.url"), withoutPassword.redacted(), chosen);
    if (result)
        result = result->withValue(QStringLiteral("database.table_prefix"), member->tablePrefix(), chosen);
    if (result)
        result = result->withValue(QStringLiteral("database.password"), member->url().password,
                                   member->sources.value(QStringLiteral("password"), chosen));
    // The member's broker (its `broker` key) stands for the configuration's too, unless a flag names
    // one: a relay started for the member, and the doctor's prepared commands, publish where the
    // member's relays do (issue 36 H1).
    if (result && !member->broker.isEmpty() &&
        result->source(QStringLiteral("broker.url")).kind != config::Source::Flag &&
        result->source(QStringLiteral("kafka.bootstrap")).kind != config::Source::Flag) {
        const config::Source fromFleet = member->sources.value(QStringLiteral("broker"), chosen);
        result = result->withValue(QStringLiteral("broker.url"), member->broker, fromFleet);
        if (result)
            result = result->withValue(QStringLiteral("kafka.bootstrap"), QString(), fromFleet);
    }
    if (!result)
        return result.error();
    return LoadedConfig{*result, member->target.withConfigFile(config.file())};
}

bool fleetGivenWithoutMember(const QCommandLineParser& parser, const config::Config& config)
{
    return !parser.isSet(QStringLiteral("member")) &&
           config.source(QStringLiteral("general.fleet")).kind == config::Source::Flag;
}

Result<Fleet> Context::fleet() const
{
    const QString file = m_config.value(QStringLiteral("general.fleet"));
    if (file.isEmpty())
        return Error::usage(
            QStringLiteral("no fleet file given (--fleet FILE, OUTBOX_FLEET or [general] fleet)"));
    return Fleet::load(file);
}

Result<std::optional<Fleet>> Context::configuredFleet() const
{
    if (!m_config.isSet(QStringLiteral("general.fleet")))
        return std::optional<Fleet>();
    auto loaded = fleet();
    if (!loaded)
        return loaded.error();
    return std::optional<Fleet>(std::move(loaded).value());
}

bool Context::watchesFleet() const
{
    return !parser.isSet(QStringLiteral("member")) && m_config.isSet(QStringLiteral("general.fleet")) &&
           int(m_config.source(QStringLiteral("general.fleet")).kind) >=
               int(m_config.source(QStringLiteral("database.url")).kind);
}

bool Context::json() const
{
    return parser.isSet(QStringLiteral("json"));
}

bool Context::assumeYes() const
{
    return parser.isSet(QStringLiteral("yes"));
}

Result<DatabaseTarget> Context::target() const
{
    if (!m_member.isEmpty())
        return m_member;
    return DatabaseTarget::fromConfig(m_config);
}

Result<std::unique_ptr<Database>> Context::openDatabase(const QString& purpose)
{
    auto target = this->target();
    if (!target)
        return target.error();
    return target->open(purpose);
}

Result<std::unique_ptr<Database>> Context::openMigratedDatabase()
{
    auto db = openDatabase();
    if (!db)
        return db;
    Migrator migrator(**db);
    auto version = migrator.currentVersion();
    if (!version)
        return version.error();
    if (*version == 0)
        return Error::runtime(QStringLiteral("%1 has no outbox schema yet: run outboxctl migrate")
                                  .arg((*db)->url().redacted()));
    if (*version < migrator.latestVersion())
        return Error::runtime(
            QStringLiteral("the outbox schema of %1 is at version %2 of %3: run outboxctl migrate")
                .arg((*db)->url().redacted())
                .arg(*version)
                .arg(migrator.latestVersion()));
    return db;
}

QString hintFor(const QString& subject)
{
    // A configuration key: the ways the configuration table gives to set it, e.g.
    // "--kafka-bootstrap host:port, OUTBOX_KAFKA_BOOTSTRAP or [kafka] bootstrap".
    if (const config::ConfigKey* k = config::Config::find(subject)) {
        QStringList ways;
        if (!k->flag.isEmpty() && !k->secret)
            ways << (k->valueName.isEmpty() ? QStringLiteral("--") + k->flag
                                            : QStringLiteral("--%1 <%2>").arg(k->flag, k->valueName));
        if (!k->env.isEmpty())
            ways << k->env;
        ways << QStringLiteral("[%1] %2").arg(k->section(), k->name());
        const QString last = ways.takeLast();
        return ways.isEmpty() ? last
                              : ways.join(QStringLiteral(", ")) +
                                    QCoreApplication::translate("outbox::cli::Context", " or ") + last;
    }
    // An operation's input.
    static const QHash<QString, QString> inputs{
        {QStringLiteral("after_id"), QStringLiteral("--after-id")},
        {QStringLiteral("reason"), QStringLiteral("--reason")},
    };
    return inputs.value(subject);
}

QString withHint(const Error& error)
{
    const QString hint = hintFor(error.subject);
    return hint.isEmpty() ? error.message : QStringLiteral("%1 (%2)").arg(error.message, hint);
}

int Context::fail(const Error& error)
{
    // Errors may quote database text (a worker id, a topic).
    err << systemd::prefix(systemd::Priority::Err)
        << "outboxctl: " << TerminalText::escapeKeepingLines(withHint(error)) << Qt::endl;
    return error.kind == ErrorKind::Usage ? UsageError : RuntimeError;
}

int Context::printJson(const QJsonValue& value)
{
    const QJsonDocument doc =
        value.isArray() ? QJsonDocument(value.toArray()) : QJsonDocument(value.toObject());
    out.flush();
    // Around the sanitiser, which would turn a raw C1 control into "\x9b" (not JSON): the same
    // characters escaped the JSON way instead.
    m_stdout.writeRaw(
        TerminalText::escapeJson(QString::fromUtf8(doc.toJson(QJsonDocument::Indented))).toUtf8());
    return Ok;
}

void Context::printRecord(const QJsonObject& record)
{
    qsizetype keyWidth = 0;
    for (auto it = record.begin(); it != record.end(); ++it)
        keyWidth = std::max(keyWidth, it.key().size() + 2);
    for (auto it = record.begin(); it != record.end(); ++it) {
        QString value;
        if (it->isObject())
            value = QString::fromUtf8(QJsonDocument(it->toObject()).toJson(QJsonDocument::Compact));
        else if (it->isArray())
            value = QString::fromUtf8(QJsonDocument(it->toArray()).toJson(QJsonDocument::Compact));
        else if (it->isNull())
            value = QStringLiteral("-");
        else
            value = it->toVariant().toString();
        out << it.key().leftJustified(keyWidth) << TerminalText::escape(value) << "\n";
    }
}

int Context::showRecord(const QJsonObject& record)
{
    if (json())
        return printJson(record);
    printRecord(record);
    return Ok;
}

void Context::printNextPage(qint64 nextAfterId)
{
    if (nextAfterId > 0)
        out << "more: --after-id " << nextAfterId << "\n";
}

std::function<int(Context&)> withoutPositionals(const QString& what, std::function<int(Context&)> run)
{
    return [what, run = std::move(run)](Context& ctx) {
        if (!ctx.positionals.isEmpty())
            return ctx.usage(QStringLiteral("%1 takes no positional arguments").arg(what));
        return run(ctx);
    };
}

QStringList subcommandNames(const QList<Subcommand>& subcommands)
{
    QStringList names;
    for (const Subcommand& sub : subcommands)
        names << sub.name;
    return names;
}

int runSubcommand(Context& ctx, const QString& command, const QList<Subcommand>& subcommands)
{
    // "list, show or blocked"
    QStringList names = subcommandNames(subcommands);
    const QString last = names.takeLast();
    const QString expected =
        names.isEmpty() ? last : names.join(QStringLiteral(", ")) + QStringLiteral(" or ") + last;
    if (ctx.positionals.isEmpty())
        return ctx.usage(QStringLiteral("%1 needs a sub-command: %2").arg(command, expected));
    const QString name = ctx.positionals.takeFirst();
    for (const Subcommand& sub : subcommands)
        if (sub.name == name)
            return sub.run(ctx);
    return ctx.usage(
        QStringLiteral("unknown %1 sub-command \"%2\" (expected %3)").arg(command, name, expected));
}

Result<QDateTime> parseTimeArgument(const QString& text, const QString& optionName)
{
    static const QRegularExpression relative(QStringLiteral("^(\\d+)\\s*(s|m|h|d)$"));
    const auto m = relative.match(text.trimmed());
    if (m.hasMatch()) {
        const qint64 n = m.captured(1).toLongLong();
        const QChar unit = m.captured(2).at(0);
        const qint64 seconds = unit == QLatin1Char('s')   ? n
                               : unit == QLatin1Char('m') ? n * 60
                               : unit == QLatin1Char('h') ? n * 3600
                                                          : n * 86400;
        return QDateTime::currentDateTimeUtc().addSecs(-seconds);
    }
    QDateTime t = QDateTime::fromString(text.trimmed(), Qt::ISODateWithMs);
    if (!t.isValid())
        return Error::usage(
            QStringLiteral("invalid time \"%1\" for --%2 (use e.g. 15m, 2h, 7d or 2026-01-31T12:00:00Z)")
                .arg(text, optionName));
    return t.toUTC();
}

Result<QVector<qint64>> parseIds(const QStringList& words)
{
    QVector<qint64> ids;
    for (const QString& w : words) {
        for (const QString& part : w.split(QLatin1Char(','), Qt::SkipEmptyParts)) {
            bool ok = false;
            const qint64 id = part.trimmed().toLongLong(&ok);
            if (!ok || id <= 0)
                return Error::usage(
                    QStringLiteral("invalid id \"%1\" (expected a positive number)").arg(part));
            ids << id;
        }
    }
    return ids;
}

Result<qint64> oneId(const QStringList& words, const QString& what)
{
    const Error usage = Error::usage(QStringLiteral("%1 takes one ID").arg(what));
    if (words.size() != 1)
        return usage;
    auto ids = parseIds(words); // "12,13" names 12, as it always has
    if (!ids)
        return ids.error();
    if (ids->isEmpty())
        return usage;
    return ids->first();
}

Result<Paging> pagingFromOptions(const QCommandLineParser& parser)
{
    Paging paging;
    bool ok = true;
    if (parser.isSet(QStringLiteral("limit"))) {
        paging.limit = parser.value(QStringLiteral("limit")).toInt(&ok);
        if (!ok || paging.limit <= 0 || paging.limit > 10000)
            return Error::usage(QStringLiteral("--limit must be a number between 1 and 10000"));
    }
    if (parser.isSet(QStringLiteral("after-id"))) {
        paging.afterId = parser.value(QStringLiteral("after-id")).toLongLong(&ok);
        if (!ok || paging.afterId < 0)
            return Error::usage(QStringLiteral("--after-id must be a non-negative number"));
    }
    return paging;
}

QList<QCommandLineOption> pagingOptions()
{
    return {QCommandLineOption(QStringLiteral("limit"), QStringLiteral("Rows per page (default 50)."),
                               QStringLiteral("n")),
            QCommandLineOption(QStringLiteral("after-id"),
                               QStringLiteral("Continue after this id (keyset paging)."),
                               QStringLiteral("id"))};
}

Result<qint64> ageOption(const QCommandLineParser& parser, const QString& name, const QString& fallback)
{
    auto since = parseTimeArgument(parser.isSet(name) ? parser.value(name) : fallback, name);
    if (!since)
        return since.error();
    return std::max<qint64>(0, since->msecsTo(QDateTime::currentDateTimeUtc()));
}

QString table(const QStringList& header, const QVector<QStringList>& databaseRows)
{
    // Cells come from the database: control characters are shown, never sent to the terminal.
    QVector<QStringList> rows;
    rows.reserve(databaseRows.size());
    for (const QStringList& r : databaseRows) {
        QStringList cells;
        for (const QString& cell : r)
            cells << TerminalText::escape(cell);
        rows << cells;
    }
    int columns = int(header.size());
    for (const QStringList& r : rows)
        columns = std::max(columns, int(r.size()));
    QVector<int> widths(columns, 0);
    auto measure = [&](const QStringList& row) {
        for (int i = 0; i < row.size(); ++i)
            widths[i] = std::max(widths[i], int(row.at(i).size()));
    };
    measure(header);
    for (const QStringList& r : rows)
        measure(r);
    QString out;
    auto line = [&](const QStringList& row) {
        QString l;
        for (int i = 0; i < row.size(); ++i)
            l += (i + 1 < row.size() ? row.at(i).leftJustified(widths[i] + 2) : row.at(i));
        out += l.trimmed().isEmpty() ? QString() : l + QLatin1Char('\n');
    };
    line(header);
    for (const QStringList& r : rows)
        line(r);
    return out;
}

QString formatAge(qint64 ms)
{
    if (ms < 0)
        return QStringLiteral("-");
    if (ms < 1000)
        return QStringLiteral("%1ms").arg(ms);
    const qint64 s = ms / 1000;
    if (s < 120)
        return QStringLiteral("%1s").arg(s);
    if (s < 7200)
        return QStringLiteral("%1m%2s").arg(s / 60).arg(s % 60);
    if (s < 172800)
        return QStringLiteral("%1h%2m").arg(s / 3600).arg((s % 3600) / 60);
    return QStringLiteral("%1d%2h").arg(s / 86400).arg((s % 86400) / 3600);
}

QString oneLine(QString text, int max)
{
    text.replace(QLatin1Char('\n'), QLatin1Char(' '));
    return text.size() > max ? text.left(max - 1) + QChar(0x2026) : text;
}

QString timeText(const QDateTime& t)
{
    return t.isValid() ? t.toUTC().toString(QStringLiteral("yyyy-MM-dd HH:mm:ss")) : QStringLiteral("-");
}

} // namespace outbox::cli
