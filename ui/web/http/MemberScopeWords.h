#pragma once

#include "core/support/Result.h"
#include "ui/web/http/ApiToken.h"

#include <QStringList>

namespace outbox::web {

// The fleet scope of a [tokens] entry and of an [oidc_groups] entry, after its role: the words
// members=SELECTORS and operator=SELECTORS (fleet members by name or tag, comma-separated), each
// at most once, operator= only with the viewer role. One parser for both kinds of entry.
namespace MemberScopeWords {

// The scope `words` give an entry of `role`, or why they are wrong: a phrase for the caller's
// message, which names the entry (never a word's whole value: at most 40 characters of it).
Result<MemberScope> parse(const QStringList& words, Role role);

} // namespace MemberScopeWords

} // namespace outbox::web
