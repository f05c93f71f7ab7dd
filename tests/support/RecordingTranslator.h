#pragma once

#include <QSet>
#include <QString>
#include <QTranslator>

namespace outbox::test {

// The console's and core's zh_CN catalogues as outbox-console loads them, remembering every lookup
// of the product's own contexts (outbox::…, Labels, CommandLine) that found no translation: a
// tr() text that the catalogues lack shows in English, whether or not a test reads it on screen.
class RecordingTranslator : public QTranslator
{
public:
    // Loads outbox_console_zh_CN.qm and outbox_core_zh_CN.qm from `dir`.
    bool load(const QString& dir);
    QString translate(const char* context, const char* source, const char* disambiguation,
                      int n) const override;
    bool isEmpty() const override { return false; }

    // "context | source" of each lookup without a translation.
    QStringList missed() const;

private:
    QTranslator m_console;
    QTranslator m_core;
    mutable QSet<QString> m_missed;
};

} // namespace outbox::test
