#include "core/db/DatabaseTarget.h"

#include "core/config/Config.h"
#include "core/db/SnapshotRead.h"

namespace outbox {
namespace {

const QString UrlKey = QStringLiteral("database.url");
const QString PrefixKey = QStringLiteral("database.table_prefix");
const QString PasswordKey = QStringLiteral("database.password");

} // namespace

DatabaseTarget::DatabaseTarget(DatabaseUrl url, QString tablePrefix)
    : m_url(std::move(url)), m_tablePrefix(std::move(tablePrefix))
{
}

Result<DatabaseTarget> DatabaseTarget::fromConfig(const config::Config& config)
{
    auto target = fromConfig(config, config.value(UrlKey), config.tablePrefix());
    if (!target)
        return config.located(UrlKey, target.error());
    target->m_configFile = config.file();
    target->m_urlInArguments = config.source(UrlKey).kind == config::Source::Flag;
    target->m_prefixInArguments = config.source(PrefixKey).kind == config::Source::Flag;
    return target;
}

Result<DatabaseTarget> DatabaseTarget::fromConfig(const config::Config& config, const QString& urlText,
                                                  const QString& tablePrefix)
{
    auto url = DatabaseUrl::parse(urlText);
    if (!url)
        return url.error();
    return fromConfig(config, std::move(url).value(), tablePrefix);
}

DatabaseTarget DatabaseTarget::fromConfig(const config::Config& config, DatabaseUrl url,
                                          const QString& tablePrefix)
{
    if (url.password.isEmpty()) // SQLite ignores it
        url.password = config.value(PasswordKey);
    return DatabaseTarget(std::move(url), tablePrefix);
}

DatabaseTarget DatabaseTarget::fleetMember(const QString& fleetFile, const QString& memberName,
                                           const QString& passwordVariable, DatabaseUrl url,
                                           QString tablePrefix)
{
    DatabaseTarget t(std::move(url), std::move(tablePrefix));
    t.m_fleetFile = fleetFile;
    t.m_memberName = memberName;
    t.m_passwordVariable = passwordVariable;
    return t;
}

DatabaseTarget DatabaseTarget::withPassword(const QString& password) const
{
    DatabaseTarget t = *this;
    t.m_url.password = password;
    return t;
}

DatabaseTarget DatabaseTarget::withConfigFile(const QString& configFile) const
{
    DatabaseTarget t = *this;
    t.m_configFile = configFile;
    return t;
}

Database::Options DatabaseTarget::options(const QString& purpose, int connectTimeoutSeconds) const
{
    Database::Options o;
    o.purpose = purpose;
    o.tablePrefix = m_tablePrefix;
    o.connectTimeoutSeconds = connectTimeoutSeconds;
    return o;
}

Result<std::unique_ptr<Database>> DatabaseTarget::open(const QString& purpose,
                                                       int connectTimeoutSeconds) const
{
    return Database::open(m_url, options(purpose, connectTimeoutSeconds));
}

Result<std::unique_ptr<Database>> DatabaseTarget::openForReading(const QString& purpose,
                                                                 int connectTimeoutSeconds) const
{
    return outbox::openForReading(m_url, options(purpose, connectTimeoutSeconds));
}

QStringList DatabaseTarget::outboxctlArguments() const
{
    QStringList args;
    if (!m_configFile.isEmpty())
        args << QStringLiteral("--config") << m_configFile;
    if (!m_memberName.isEmpty())
        return args << QStringLiteral("--fleet") << m_fleetFile << QStringLiteral("--member") << m_memberName;
    if (m_urlInArguments)
        args << QStringLiteral("--db") << m_url.redacted();
    // One word, also when empty: an empty prefix given here overrides one from the environment.
    if (m_prefixInArguments)
        args << QStringLiteral("--table-prefix=") + m_tablePrefix;
    return args;
}

QStringList DatabaseTarget::outboxctlCommand(const QString& command, const QStringList& arguments) const
{
    return QStringList{command} + outboxctlArguments() + arguments;
}

QProcessEnvironment DatabaseTarget::childEnvironment(const QProcessEnvironment& base) const
{
    QProcessEnvironment env = base;
    if (!m_url.password.isEmpty())
        env.insert(m_memberName.isEmpty() ? QStringLiteral("OUTBOX_DB_PASSWORD") : m_passwordVariable,
                   m_url.password);
    return env;
}

} // namespace outbox
