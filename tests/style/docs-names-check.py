#!/usr/bin/env python3
"""Fails when docs/architecture.md cites a code name that does not exist (docs that cannot drift).

Every `backticked` name of the map is checked against the tree:
  - paths (core/…, ui/…, app/…, tests/…, docs/…, resources/…, installer/…, translations/…) and
    folders (`support/`, `http/`): the file, the file with .h/.cpp, or the folder exists;
  - types (`KafkaPublisher`, `DeliveryClass`): a class, struct, enum, alias or namespace of that
    name, or an enumerator, is declared in a header or source;
  - members (`Config::broker()`, `Finding::MaxSamples`): the type exists and declares the member;
  - functions (`probe()`): a call or declaration of that name exists in the code.
Command-line flags, SQL, configuration keys, states and other prose in backticks are not code names
and are left alone.
Usage: docs-names-check.py SOURCE_DIR [DOC…]   (default DOC: docs/architecture.md)
"""
import os
import re
import sys

# Names the map uses for what does not exist on purpose: the example of a third broker.
HYPOTHETICAL = {"NatsBroker", "NatsPublisher", "NatsSource", "core/broker/nats/"}
ROOTS = ("core", "ui", "app", "tests", "docs", "resources", "installer", "translations")
CODE_DIRS = ("core", "ui", "app", "tests", "resources/web")
CODE_EXT = (".h", ".cpp", ".js", ".sh", ".py")


def read_code(source):
    files = {}
    for top in CODE_DIRS:
        for dirpath, _, names in os.walk(os.path.join(source, top)):
            for name in names:
                if name.endswith(CODE_EXT):
                    path = os.path.join(dirpath, name)
                    with open(path, encoding="utf-8", errors="replace") as f:
                        files[os.path.relpath(path, source)] = f.read()
    return files


def folders(source):
    found = set()
    for top in ("core", "ui", "app", "tests", "docs", "resources"):
        for dirpath, dirnames, _ in os.walk(os.path.join(source, top)):
            for d in dirnames:
                found.add(d)
    return found


def type_defined(name, code):
    decl = re.compile(r"\b(class|struct|enum(\s+class)?|namespace|using)\s+" + re.escape(name) + r"\b")
    enumerator = re.compile(r"^\s*" + re.escape(name) + r"\s*(=[^=]|,|$|//)", re.M)
    if any(os.path.basename(path) in (name + ".h", name + ".cpp") for path in code):
        return True  # a file of that name (free functions in a namespace, e.g. ApiInput)
    for path, text in code.items():
        if decl.search(text):
            return True
        if path.endswith(".h") and enumerator.search(text):
            return True
    return False


def member_defined(owner, member, code):
    if not type_defined(owner, code):
        return False
    qualified = re.compile(re.escape(owner) + r"::" + re.escape(member) + r"\b")
    decl = re.compile(r"\b(class|struct|enum(\s+class)?|namespace)\s+" + re.escape(owner) + r"\b[^;{]*\{")
    # Declared in the owner's header: a function, a field or a constant, outside comments and strings.
    declared = re.compile(r"\b" + re.escape(member) + r"\s*[(;={\[]")
    for path, text in code.items():
        if path.startswith("tests/"):
            continue
        if qualified.search(text):
            return True
        if path.endswith(".h") and decl.search(text) and declared.search(strip(text)):
            return True
    return False


def strip(text):
    """The code without // comments and string literals."""
    text = re.sub(r'"(\\.|[^"\\\n])*"', '""', text)
    return re.sub(r"//[^\n]*", "", text)


def function_used(name, code):
    call = re.compile(r"\b" + re.escape(name) + r"\s*\(")
    return any(call.search(text) for path, text in code.items() if not path.startswith("tests/"))


def path_exists(source, token):
    path = os.path.join(source, token.rstrip("/"))
    return any(os.path.exists(path + ext) for ext in ("", ".h", ".cpp"))


def check(source, doc, code, dirs):
    with open(os.path.join(source, doc), encoding="utf-8") as f:
        text = f.read()
    missing = []
    for lineno, line in enumerate(text.splitlines(), 1):
        for token in re.findall(r"`([^`\n]+)`", line):
            if token in HYPOTHETICAL or "<" in token:
                continue
            ok = True
            m = re.fullmatch(r"([A-Za-z_][A-Za-z0-9_]*)::(~?[A-Za-z_][A-Za-z0-9_]*)(\(\))?", token)
            if m:
                ok = member_defined(m.group(1), m.group(2), code)
            elif re.fullmatch(r"[A-Z][a-z][A-Za-z0-9]*", token):
                ok = type_defined(token, code)
            elif re.fullmatch(r"[a-z][A-Za-z0-9_]*\(\)", token):
                ok = function_used(token[:-2], code)
            elif re.fullmatch(r"(%s)/[A-Za-z0-9_./-]*" % "|".join(ROOTS), token):
                ok = path_exists(source, token)
            elif re.fullmatch(r"[a-z][a-z0-9_]*/", token):
                ok = token[:-1] in dirs
            else:
                continue
            if not ok:
                missing.append("%s:%d: `%s`" % (doc, lineno, token))
    return missing


def main():
    if len(sys.argv) < 2:
        print(__doc__)
        return 2
    source = sys.argv[1]
    docs = sys.argv[2:] or ["docs/architecture.md"]
    code = read_code(source)
    dirs = folders(source)
    missing = []
    for doc in docs:
        missing += check(source, doc, code, dirs)
    if missing:
        print("docs-names-check: names cited that the code does not have (rename them in the doc, or the code):")
        for m in missing:
            print("  " + m)
        return 1
    print("docs-names-check: every code name %s cites exists" % ", ".join(docs))
    return 0


if __name__ == "__main__":
    sys.exit(main())
