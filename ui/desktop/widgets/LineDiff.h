#pragma once

#include <QString>

namespace outbox::desktop {

// A line diff of two texts for people ("- old", "+ new", "  same"), by longest common
// subsequence. Texts of more than MaxLines lines are not compared line by line: both are shown.
class LineDiff
{
public:
    static constexpr int MaxLines = 2000;
    static QString unified(const QString& before, const QString& after);
};

} // namespace outbox::desktop
