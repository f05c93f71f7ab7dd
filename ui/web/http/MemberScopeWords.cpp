#include "ui/web/http/MemberScopeWords.h"

#include <QCoreApplication>
#include <QRegularExpression>

namespace outbox::web {

namespace {

QString tr(const char* text)
{
    return QCoreApplication::translate("outbox::web::MemberScopeWords", text);
}

} // namespace

Result<MemberScope> MemberScopeWords::parse(const QStringList& words, Role role)
{
    static const QRegularExpression selector(QStringLiteral("^[A-Za-z0-9_.-]+(=[A-Za-z0-9_.-]+)?$"));
    MemberScope scope;
    for (const QString& word : words) {
        const qsizetype eq = word.indexOf(QLatin1Char('='));
        const QString key = word.left(eq);
        if (eq < 0 || (key != QLatin1String("members") && key != QLatin1String("operator")))
            return Error::usage(tr("unknown part \"%1\"").arg(word.left(40)));
        QStringList& list = key == QLatin1String("members") ? scope.members : scope.operatorOn;
        if (!list.isEmpty())
            return Error::usage(tr("%1= given twice").arg(key));
        for (const QString& s : word.mid(eq + 1).split(QLatin1Char(','))) {
            if (!selector.match(s).hasMatch())
                return Error::usage(tr("\"%1\" is not a member name or tag").arg(s.left(40)));
            list << s;
        }
    }
    if (!scope.operatorOn.isEmpty() && role == Role::Operator)
        return Error::usage(tr("operator= is for viewer tokens and viewer groups (an operator token or group "
                               "is an operator on every member it sees)"));
    return scope;
}

} // namespace outbox::web
