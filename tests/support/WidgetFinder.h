#pragma once

#include <QObject>
#include <QtGlobal>

namespace outbox::test {

// The child of `parent` with this objectName, as the console's GUI tests find the real buttons,
// fields and tables an operator uses; warns (and returns null, failing the caller's QVERIFY) when
// the console has no such widget.
template <typename T> T* child(QObject* parent, const char* name)
{
    T* w = parent->findChild<T*>(QLatin1String(name));
    if (!w)
        qWarning("no child %s", name);
    return w;
}

} // namespace outbox::test
