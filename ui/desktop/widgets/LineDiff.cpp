#include "ui/desktop/widgets/LineDiff.h"

#include <QStringList>
#include <QVector>

namespace outbox::desktop {

QString LineDiff::unified(const QString& before, const QString& after)
{
    const QStringList a = before.split(QLatin1Char('\n'));
    const QStringList b = after.split(QLatin1Char('\n'));
    QStringList out;
    if (a.size() > MaxLines || b.size() > MaxLines) {
        for (const QString& line : a)
            out << QStringLiteral("- ") + line;
        for (const QString& line : b)
            out << QStringLiteral("+ ") + line;
        return out.join(QLatin1Char('\n'));
    }
    // lcs[i][j]: the longest common subsequence of a[i..] and b[j..].
    const int n = int(a.size()), m = int(b.size());
    QVector<QVector<int>> lcs(n + 1, QVector<int>(m + 1, 0));
    for (int i = n - 1; i >= 0; --i)
        for (int j = m - 1; j >= 0; --j)
            lcs[i][j] = a[i] == b[j] ? lcs[i + 1][j + 1] + 1 : std::max(lcs[i + 1][j], lcs[i][j + 1]);
    int i = 0, j = 0;
    while (i < n || j < m) {
        if (i < n && j < m && a[i] == b[j]) {
            out << QStringLiteral("  ") + a[i];
            ++i;
            ++j;
        } else if (j < m && (i == n || lcs[i][j + 1] >= lcs[i + 1][j])) {
            out << QStringLiteral("+ ") + b[j++];
        } else {
            out << QStringLiteral("- ") + a[i++];
        }
    }
    return out.join(QLatin1Char('\n'));
}

} // namespace outbox::desktop
