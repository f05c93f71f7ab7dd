#include "core/fleet/Fleet.h"

#include "core/broker/BrokerRegistry.h"
#include "core/config/IniFile.h"
#include "core/diagnosis/MemberBroker.h"

#include <QCoreApplication>
#include <QFile>
#include <QFileInfo>
#include <QHash>
#include <QJsonArray>
#include <QRegularExpression>
#include <QUrl>

namespace outbox {

namespace {

const QString FleetSection = QStringLiteral("fleet");
const QString MemberKind = QStringLiteral("member");
const QStringList FleetKeys = {QStringLiteral("max_connections"), QStringLiteral("timeout"),
                               QStringLiteral("interval"), QStringLiteral("doctor_interval"),
                               QStringLiteral("unreachable_after")};
constexpr int MaxUnreachableAfter = 100;
const QStringList MemberKeys = {QStringLiteral("url"), QStringLiteral("table_prefix"), QStringLiteral("tags"),
                                QStringLiteral("password_file"), QStringLiteral("broker")};
constexpr int MaxConnectionsLimit = 1000;
constexpr qint64 MaxTimeoutMs = 10 * 60 * 1000;
constexpr qint64 MinIntervalMs = 100;
constexpr qint64 MaxIntervalMs = 24LL * 3600 * 1000;

Error at(const QString& path, int line, const QString& what)
{
    return Error::usage(QStringLiteral("%1:%2: %3").arg(path).arg(line).arg(what));
}

Error memberError(const QString& path, int line, const QString& member, const QString& what)
{
    return at(path, line, QCoreApplication::translate("outbox::Fleet", "member %1: %2").arg(member, what));
}

QString durationText(qint64 ms)
{
    return ms % 1000 == 0 ? QStringLiteral("%1s").arg(ms / 1000) : QStringLiteral("%1ms").arg(ms);
}

// The password of a member: its first line, from a file only its owner may read.
Result<QString> readPasswordFile(const QString& path)
{
    const QFileInfo info(path);
    if (!info.isFile())
        return Error::usage(
            QCoreApplication::translate("outbox::Fleet", "password_file %1 is not a readable file")
                .arg(path));
    const QFile::Permissions others = QFile::ReadGroup | QFile::WriteGroup | QFile::ExeGroup |
                                      QFile::ReadOther | QFile::WriteOther | QFile::ExeOther;
    if (info.permissions() & others)
        return Error::usage(
            QCoreApplication::translate("outbox::Fleet",
                                        "password_file %1 may be read or changed by other users: allow "
                                        "its owner only (chmod 600)")
                .arg(path));
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return Error::usage(QCoreApplication::translate("outbox::Fleet", "cannot read password_file %1: %2")
                                .arg(path, file.errorString()));
    const QString password = QString::fromUtf8(file.readLine(4096)).trimmed();
    if (password.isEmpty())
        return Error::usage(
            QCoreApplication::translate("outbox::Fleet", "password_file %1 is empty").arg(path));
    return password;
}

// A member's tags: name=value or a word, separated by commas.
Status readTags(FleetMember& member, const config::IniEntry& e, const QString& path)
{
    static const QRegularExpression tagWord(QStringLiteral("^[A-Za-z0-9_.:/-]{1,64}$"));
    for (const QString& item : e.value.split(QLatin1Char(','), Qt::SkipEmptyParts)) {
        const QString tag = item.trimmed();
        if (tag.isEmpty())
            continue;
        const int eq = tag.indexOf(QLatin1Char('='));
        const QString name = eq < 0 ? tag : tag.left(eq).trimmed();
        const QString value = eq < 0 ? QString() : tag.mid(eq + 1).trimmed();
        if (!tagWord.match(name).hasMatch() || (eq >= 0 && !tagWord.match(value).hasMatch()))
            return memberError(path, e.line, member.name,
                               QCoreApplication::translate(
                                   "outbox::Fleet", "invalid tag \"%1\" (tags are name=value or a word of "
                                                    "letters, digits and _ . : / -, separated by commas)")
                                   .arg(tag));
        member.tags.push_back({name, eq < 0 ? QString() : value});
    }
    return {};
}

// A member's broker, printed into prepared commands as --broker=URL: a broker the relay knows, no
// password.
Status readBroker(FleetMember& member, const config::IniEntry& e, const QString& path)
{
    const QUrl url(e.value, QUrl::StrictMode);
    if (!url.isValid() || url.host().isEmpty() || !BrokerRegistry::fromUrl(e.value))
        return memberError(path, e.line, member.name,
                           QCoreApplication::translate("outbox::Fleet",
                                                       "broker must be kafka://HOST:PORT or "
                                                       "amqp://USER@HOST:PORT/VHOST (got \"%1\")")
                               .arg(e.value));
    if (!url.password().isEmpty())
        return memberError(path, e.line, member.name,
                           QCoreApplication::translate(
                               "outbox::Fleet", "a broker password does not belong in the fleet file: the "
                                                "relay takes it from its own configuration or environment"));
    member.broker = e.value;
    return {};
}

} // namespace

QStringList FleetMember::tagTexts() const
{
    QStringList texts;
    for (const auto& [key, value] : tags)
        texts << (value.isNull() ? key : key + QLatin1Char('=') + value);
    return texts;
}

bool FleetMember::hasTag(const QString& tag) const
{
    return tagTexts().contains(tag.trimmed());
}

DiagnosisOptions FleetMember::diagnosisOptions(DiagnosisOptions base) const
{
    base.brokerArguments = MemberBroker::arguments(broker);
    base.brokerUnknown = QCoreApplication::translate(
                             "outbox::FleetMember",
                             "name it with broker = kafka://HOST:PORT or amqp://USER@HOST:PORT/VHOST in "
                             "[member %1] of the fleet file")
                             .arg(name);
    return base;
}

// English here; translated where an error shows it.
const QString Fleet::MemberNameRule = QString::fromUtf8(QT_TRANSLATE_NOOP(
    "outbox::Fleet", "a member name is a letter or digit followed by up to 62 letters, digits, _ or -"));

bool Fleet::isMemberName(const QString& name)
{
    static const QRegularExpression memberName(QStringLiteral("^[A-Za-z0-9][A-Za-z0-9_-]{0,62}$"));
    return memberName.match(name).hasMatch();
}

QString Fleet::passwordVariable(const QString& memberName)
{
    return QStringLiteral("OUTBOX_DB_PASSWORD_") +
           memberName.toUpper().replace(QLatin1Char('-'), QLatin1Char('_'));
}

Result<Fleet> Fleet::load(const QString& path, const QProcessEnvironment& environment)
{
    QFile file(path);
    if (!QFileInfo(path).isFile() || !file.open(QIODevice::ReadOnly))
        return Error::usage(
            QCoreApplication::translate("outbox::Fleet", "cannot read the fleet file %1").arg(path));
    if (file.size() > config::IniFile::MaxBytes)
        return Error::usage(
            QCoreApplication::translate("outbox::Fleet", "the fleet file %1 is larger than %2 bytes")
                .arg(path)
                .arg(config::IniFile::MaxBytes));
    return parse(file.read(config::IniFile::MaxBytes), path, environment);
}

Result<Fleet> Fleet::parse(const QByteArray& text, const QString& path,
                           const QProcessEnvironment& environment)
{
    auto document = config::IniFile::parse(text, path);
    if (!document)
        return document.error();
    const config::ConfigKey* prefixKey = config::Config::find(QStringLiteral("database.table_prefix"));
    const QRegularExpression prefixRe(QRegularExpression::anchoredPattern(prefixKey->pattern));

    Fleet fleet;
    fleet.m_file = path;
    QHash<QString, int> memberIndex;    // section -> index in m_members
    QHash<QString, QString> byVariable; // password variable -> member name (names that collide)
    for (const auto& [section, line] : std::as_const(document->sections)) {
        if (section == FleetSection)
            continue;
        const QString kind = section.section(QLatin1Char(' '), 0, 0);
        const QString name = section.section(QLatin1Char(' '), 1);
        if (kind != MemberKind)
            return at(
                path, line,
                QCoreApplication::translate(
                    "outbox::Fleet", "unknown section [%1] (a fleet file has [fleet] and [member NAME])")
                    .arg(section));
        if (name.isEmpty())
            return at(path, line,
                      QCoreApplication::translate("outbox::Fleet", "[member] needs a name: [member orders]"));
        if (!isMemberName(name))
            return at(path, line,
                      QCoreApplication::translate("outbox::Fleet", "member %1: %2")
                          .arg(name, QCoreApplication::translate("outbox::Fleet",
                                                                 MemberNameRule.toUtf8().constData())));
        const QString variable = passwordVariable(name);
        if (byVariable.contains(variable)) {
            const FleetMember& other = fleet.m_members.at(
                memberIndex.value(MemberKind + QLatin1Char(' ') + byVariable.value(variable)));
            return memberError(
                path, line, name,
                other.name == name
                    ? QCoreApplication::translate("outbox::Fleet",
                                                  "a member of that name is already on line %1")
                          .arg(other.line)
                    : QCoreApplication::translate("outbox::Fleet",
                                                  "the name is the same as member %1's on line %2 (both "
                                                  "would take their password from %3)")
                          .arg(other.name)
                          .arg(other.line)
                          .arg(variable));
        }
        byVariable.insert(variable, name);
        FleetMember member;
        member.name = name;
        member.line = line;
        memberIndex.insert(section, int(fleet.m_members.size()));
        fleet.m_members << member;
    }

    QHash<QString, QString> urlTexts; // member -> url text, checked once all its keys are read
    QHash<QString, QString> prefixes;
    QHash<QString, int> urlLines;
    QHash<QString, QString> passwordFiles;
    QHash<QString, int> passwordFileLines;
    for (const config::IniEntry& e : std::as_const(document->entries)) {
        const QString key = e.key.toLower().replace(QLatin1Char('-'), QLatin1Char('_'));
        const config::Source source{config::Source::File, path, e.line, {}};
        if (e.section == FleetSection) {
            if (!FleetKeys.contains(key))
                return at(
                    path, e.line,
                    QCoreApplication::translate("outbox::Fleet", "unknown key %1 in [fleet] (known: %2)")
                        .arg(e.key, FleetKeys.join(QStringLiteral(", "))));
            if (key == QLatin1String("max_connections")) {
                bool ok = false;
                const int n = e.value.toInt(&ok);
                if (!ok || n < 1 || n > MaxConnectionsLimit)
                    return at(path, e.line,
                              QCoreApplication::translate(
                                  "outbox::Fleet",
                                  "[fleet] max_connections must be a number between 1 and %1 (got \"%2\")")
                                  .arg(MaxConnectionsLimit)
                                  .arg(e.value));
                fleet.m_maxConnections = n;
            } else if (key == QLatin1String("unreachable_after")) {
                bool ok = false;
                const int n = e.value.toInt(&ok);
                if (!ok || n < 1 || n > MaxUnreachableAfter)
                    return at(path, e.line,
                              QCoreApplication::translate(
                                  "outbox::Fleet", "[fleet] unreachable_after must be a number of ticks "
                                                   "between 1 and %1 (got \"%2\")")
                                  .arg(MaxUnreachableAfter)
                                  .arg(e.value));
                fleet.m_unreachableAfter = n;
            } else {
                auto ms = config::parseDuration(e.value);
                const bool timeout = key == QLatin1String("timeout");
                const qint64 min = timeout ? 1 : MinIntervalMs;
                const qint64 max = timeout ? MaxTimeoutMs : MaxIntervalMs;
                if (!ms || *ms < min || *ms > max)
                    return at(path, e.line,
                              QCoreApplication::translate(
                                  "outbox::Fleet",
                                  "[fleet] %1 must be a duration between %2 and %3, such as 3s (got \"%4\")")
                                  .arg(key, durationText(min), durationText(max), e.value));
                (timeout                                   ? fleet.m_timeoutMs
                 : key == QLatin1String("doctor_interval") ? fleet.m_doctorIntervalMs
                                                           : fleet.m_intervalMs) = *ms;
            }
            fleet.m_sources.insert(key, source);
            continue;
        }
        FleetMember& member = fleet.m_members[memberIndex.value(e.section)];
        if (!MemberKeys.contains(key))
            return memberError(path, e.line, member.name,
                               QCoreApplication::translate("outbox::Fleet", "unknown key %1 (known: %2)")
                                   .arg(e.key, MemberKeys.join(QStringLiteral(", "))));
        member.sources.insert(key, source);
        if (key == QLatin1String("url")) {
            urlTexts.insert(member.name, e.value);
            urlLines.insert(member.name, e.line);
        } else if (key == QLatin1String("table_prefix")) {
            if (!e.value.isEmpty() && !prefixRe.match(e.value).hasMatch())
                return memberError(
                    path, e.line, member.name,
                    QCoreApplication::translate("outbox::Fleet", "table_prefix %1 (got \"%2\")")
                        .arg(QCoreApplication::translate("outbox::config::Config",
                                                         prefixKey->patternHelp.toUtf8().constData()),
                             e.value));
            prefixes.insert(member.name, e.value);
        } else if (key == QLatin1String("tags")) {
            if (Status tags = readTags(member, e, path); !tags)
                return tags.error();
        } else if (key == QLatin1String("broker")) {
            if (Status broker = readBroker(member, e, path); !broker)
                return broker.error();
        } else if (key == QLatin1String("password_file")) {
            if (e.value.isEmpty())
                return memberError(
                    path, e.line, member.name,
                    QCoreApplication::translate("outbox::Fleet", "password_file needs a file"));
            passwordFiles.insert(member.name, e.value);
            passwordFileLines.insert(member.name, e.line);
        }
    }

    if (fleet.m_members.isEmpty())
        return Error::usage(
            QCoreApplication::translate("outbox::Fleet", "%1: the fleet file has no [member NAME] section")
                .arg(path));
    for (FleetMember& member : fleet.m_members) {
        if (!urlTexts.contains(member.name))
            return memberError(path, member.line, member.name,
                               QCoreApplication::translate("outbox::Fleet", "has no url"));
        const int line = urlLines.value(member.name);
        auto url = DatabaseUrl::parse(urlTexts.value(member.name));
        if (!url)
            return memberError(path, line, member.name, url.message());
        if (!url->password.isEmpty())
            return memberError(
                path, line, member.name,
                QCoreApplication::translate("outbox::Fleet",
                                            "a password does not belong in the fleet file: give it in %1 "
                                            "or the member's password_file")
                    .arg(passwordVariable(member.name)));
        const QString variable = passwordVariable(member.name);
        if (!environment.value(variable).isEmpty()) {
            url->password = environment.value(variable);
            member.sources.insert(QStringLiteral("password"),
                                  config::Source{config::Source::Environment, {}, 0, variable});
        } else if (passwordFiles.contains(member.name)) {
            auto password = readPasswordFile(passwordFiles.value(member.name));
            if (!password)
                return memberError(path, passwordFileLines.value(member.name), member.name,
                                   password.message());
            url->password = *password;
            member.sources.insert(
                QStringLiteral("password"),
                config::Source{config::Source::File, passwordFiles.value(member.name), 1, {}});
        }
        member.target =
            DatabaseTarget::fleetMember(path, member.name, variable, *url, prefixes.value(member.name));
    }
    return fleet;
}

const FleetMember* Fleet::member(const QString& name) const
{
    for (const FleetMember& m : m_members)
        if (m.name == name)
            return &m;
    return nullptr;
}

Result<FleetMember> Fleet::find(const QString& name) const
{
    if (const FleetMember* m = member(name))
        return *m;
    QStringList names;
    for (const FleetMember& m : m_members)
        names << m.name;
    return Error::usage(QCoreApplication::translate("outbox::Fleet", "no member %1 in %2 (members: %3)")
                            .arg(name, m_file, names.join(QStringLiteral(", "))));
}

namespace {

struct Row
{
    QString key;
    QString value;
    config::Source source;
};

QVector<Row> fleetRows(const Fleet& fleet, const QMap<QString, config::Source>& sources)
{
    return {{QStringLiteral("max_connections"), QString::number(fleet.maxConnections()),
             sources.value(QStringLiteral("max_connections"))},
            {QStringLiteral("timeout"), durationText(fleet.timeoutMs()),
             sources.value(QStringLiteral("timeout"))},
            {QStringLiteral("interval"), durationText(fleet.intervalMs()),
             sources.value(QStringLiteral("interval"))},
            {QStringLiteral("doctor_interval"), durationText(fleet.doctorIntervalMs()),
             sources.value(QStringLiteral("doctor_interval"))},
            {QStringLiteral("unreachable_after"), QString::number(fleet.unreachableAfter()),
             sources.value(QStringLiteral("unreachable_after"))}};
}

QVector<Row> memberRows(const FleetMember& m)
{
    const auto source = [&](const char* key) { return m.sources.value(QLatin1String(key)); };
    return {{QStringLiteral("url"), m.url().redacted(), source("url")},
            {QStringLiteral("table_prefix"), m.tablePrefix(), source("table_prefix")},
            {QStringLiteral("tags"), m.tagTexts().join(QStringLiteral(", ")), source("tags")},
            {QStringLiteral("broker"), m.broker, source("broker")},
            {QStringLiteral("password"), m.url().password.isEmpty() ? QString() : QStringLiteral("***"),
             source("password")}};
}

} // namespace

QString Fleet::toText() const
{
    QString out = QStringLiteral("; fleet file: %1 (%2 members)\n").arg(m_file).arg(m_members.size());
    const auto section = [&](const QString& header, const QVector<Row>& rows) {
        int width = 0;
        for (const Row& r : rows)
            width = std::max(width, int(r.key.size() + 3 + r.value.size()));
        out += header + QLatin1Char('\n');
        for (const Row& r : rows)
            out += QString(r.key + QStringLiteral(" = ") + r.value).leftJustified(width + 2) +
                   QStringLiteral("; ") + r.source.toString() + QLatin1Char('\n');
    };
    section(QStringLiteral("[fleet]"), fleetRows(*this, m_sources));
    for (const FleetMember& m : m_members)
        section(QStringLiteral("[member %1]").arg(m.name), memberRows(m));
    return out;
}

QJsonObject Fleet::toJson() const
{
    const auto settings = [](const QVector<Row>& rows) {
        QJsonArray array;
        for (const Row& r : rows)
            array.append(QJsonObject{{QStringLiteral("name"), r.key},
                                     {QStringLiteral("value"), r.value},
                                     {QStringLiteral("source"), r.source.toString()},
                                     {QStringLiteral("secret"), r.key == QLatin1String("password")}});
        return array;
    };
    QJsonArray members;
    for (const FleetMember& m : m_members)
        members.append(QJsonObject{{QStringLiteral("name"), m.name},
                                   {QStringLiteral("line"), m.line},
                                   {QStringLiteral("tags"), QJsonArray::fromStringList(m.tagTexts())},
                                   {QStringLiteral("settings"), settings(memberRows(m))}});
    return QJsonObject{{QStringLiteral("file"), m_file},
                       {QStringLiteral("settings"), settings(fleetRows(*this, m_sources))},
                       {QStringLiteral("members"), members}};
}

} // namespace outbox
