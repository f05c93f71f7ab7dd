#include "core/support/CommandLine.h"

#include <QCoreApplication>
#include <QRegularExpression>

namespace outbox {

CommandLine::CommandLine(QString program, QStringList words)
    : m_program(std::move(program)), m_words(std::move(words))
{
}

CommandLine& CommandLine::word(const QString& word)
{
    m_words << word;
    return *this;
}

CommandLine& CommandLine::option(const QString& name, const QString& value)
{
    m_options << QStringLiteral("--") + name + QLatin1Char('=') + value;
    return *this;
}

CommandLine& CommandLine::flag(const QString& name)
{
    m_options << QStringLiteral("--") + name;
    return *this;
}

CommandLine& CommandLine::options(const QStringList& argv)
{
    m_options << argv;
    return *this;
}

CommandLine& CommandLine::positional(const QString& word)
{
    m_positionals << word;
    return *this;
}

CommandLine& CommandLine::positionals(const QStringList& words)
{
    m_positionals << words;
    return *this;
}

QStringList CommandLine::arguments() const
{
    QStringList argv = m_words + m_options;
    if (!m_positionals.isEmpty())
        argv << QStringLiteral("--") << m_positionals;
    return argv;
}

bool CommandLine::isPrintable(const QString& word)
{
    for (const QChar c : word) {
        switch (c.category()) {
        case QChar::Other_Control:       // C0, DEL, C1: newline, ESC, CSI
        case QChar::Other_Format:        // bidirectional overrides, zero-width characters
        case QChar::Separator_Line:      // U+2028
        case QChar::Separator_Paragraph: // U+2029
        case QChar::Other_Surrogate:     // a lone half of a pair
        case QChar::Other_NotAssigned:
            return false;
        default:
            break;
        }
    }
    return true;
}

QString CommandLine::shellQuote(const QString& word)
{
    static const QRegularExpression plain(QStringLiteral("^[A-Za-z0-9_@%+=:,./-]+$"));
    if (plain.match(word).hasMatch())
        return word;
    QString quoted = word;
    quoted.replace(QLatin1Char('\''), QStringLiteral("'\\''"));
    return QLatin1Char('\'') + quoted + QLatin1Char('\'');
}

Result<QString> CommandLine::render() const
{
    QStringList words{shellQuote(m_program)};
    const QStringList argv = arguments();
    const qsizetype firstPositional = argv.size() - m_positionals.size();
    for (qsizetype i = 0; i < argv.size(); ++i) {
        const QString& a = argv.at(i);
        if (!isPrintable(a))
            return Error::usage(QCoreApplication::translate(
                "CommandLine", "an argument holds control characters and cannot be printed safely"));
        // A positional that looks like an option is quoted too, so that a reader sees a value.
        const bool optionShaped = i >= firstPositional && a.startsWith(QLatin1Char('-'));
        const QString quoted = shellQuote(a);
        words << (optionShaped && quoted == a ? QString(QLatin1Char('\'') + a + QLatin1Char('\'')) : quoted);
    }
    return words.join(QLatin1Char(' '));
}

} // namespace outbox
