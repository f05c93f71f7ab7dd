#!/usr/bin/env python3
"""Prints a Qt Linguist catalogue (.ts) as the web console's JSON catalogue of core texts.

The server's doctor writes its findings (titles, causes, runbook steps, action labels) in the
server's language, English under a service. The web console translates them in the browser with
this catalogue: an exact source text, or a source with %1, %2 … %n whose arguments it takes from
the English text. Output: a JSON array of [source, translation] pairs, sorted, one per line.
Usage: ts-to-json.py CATALOGUE.ts > resources/web/console/core_LANG.json
"""
import json
import sys
import xml.etree.ElementTree as ET


def main(path):
    pairs = {}
    for message in ET.parse(path).getroot().iter("message"):
        source = message.findtext("source")
        translation = message.find("translation")
        if source is None or translation is None or translation.get("type") in ("unfinished", "obsolete", "vanished"):
            continue
        forms = [f.text or "" for f in translation.findall("numerusform")]
        text = forms[0] if forms else (translation.text or "")
        if text and text != source:
            pairs[source] = text
    lines = [json.dumps([s, t], ensure_ascii=False) for s, t in sorted(pairs.items())]
    print("[\n" + ",\n".join(lines) + "\n]")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: ts-to-json.py CATALOGUE.ts")
    main(sys.argv[1])
