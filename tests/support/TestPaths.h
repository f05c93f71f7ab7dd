#pragma once

#include <QDir>
#include <QString>

namespace outbox::test {

// The checkout's and the build's paths come from the environment CTest gives every test
// (OUTBOX_TEST_ENV in tests/CMakeLists.txt), not from compile definitions: a path compiled in makes
// each checkout (CI's clean clone, a worktree) compile the test anew, as ccache's base directory does
// not rewrite paths inside -D values.
inline QString sourcePath(const QString& relative)
{
    return QDir(qEnvironmentVariable("OUTBOX_SOURCE_DIR")).filePath(relative);
}

// The console's compiled catalogues (outbox_console_zh_CN.qm, outbox_core_zh_CN.qm, ...).
inline QString qmPath(const QString& file = QString())
{
    const QString dir = qEnvironmentVariable("OUTBOX_QM_DIR");
    return file.isEmpty() ? dir : QDir(dir).filePath(file);
}

} // namespace outbox::test
