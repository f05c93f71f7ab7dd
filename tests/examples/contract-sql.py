#!/usr/bin/python3
"""Prints the INSERT statements of docs/contract.md's SQL blocks for one database, placeholders bound
to sample values, so that the examples test runs the documented SQL against the real schema.
    contract-sql.py docs/contract.md postgresql|mariadb
"""
import re
import sys

doc, target = sys.argv[1], sys.argv[2]
values = {
    "event_id": "doc-event-1", "aggregate_id": "o-doc", "traceparent":
    "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01", "topic": "orders", "partition": "0",
    "offset": "7", "key": "o-doc", "payload_text": '{"order_id":"o-doc"}', "quantity": "1", "sku": "SKU-1",
}
tables = ("outbox_events", "inbox_events", "dead_letters")
blocks = re.findall(r"```sql\n(.*?)```", open(doc, encoding="utf-8").read(), re.S)
count = 0
for number, block in enumerate(blocks, 1):
    # Each block is one story (an event, its inbox claim, a dead letter): its own event id, so that
    # the blocks run one after the other do not meet each other's rows.
    values["event_id"] = f"doc-event-{number}"
    mariadb = "ON DUPLICATE KEY" in block or "UTC_TIMESTAMP" in block
    if mariadb != (target == "mariadb"):
        continue
    text = "\n".join(line.split("--")[0] if not line.lstrip().startswith("--") else ""
                     for line in block.splitlines())
    for statement in text.split(";"):
        statement = " ".join(statement.split())
        if not statement.upper().startswith("INSERT INTO ") or statement.split()[2] not in tables:
            continue

        def bind(m):
            name = m.group(1)
            if name not in values:
                sys.exit(f"contract-sql: no sample value for :{name}")
            v = values[name]
            return v if v.isdigit() else "'" + v.replace("'", "''") + "'"
        print(re.sub(r"(?<![:\w]):([a-z_]+)\b", bind, statement) + ";")
        count += 1
if count == 0:
    sys.exit(f"contract-sql: no statement for {target} in {doc}")
