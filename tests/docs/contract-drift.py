#!/usr/bin/python3
"""docs/contract.md against the schema `outboxctl migrate` really creates (issue 37 item 7).

Migrates a fresh PostgreSQL database with the outboxctl under test, reads its catalogue, and fails
when the contract names a table, column, index, constraint or trigger the schema does not have, or
when its version table does not cover exactly the versions 1..latest that this outboxctl migrates to.

    contract-drift.py OUTBOXCTL CONTRACT_MD PG_PORT
"""
import json
import re
import subprocess
import sys

ctl, contract, port = sys.argv[1], sys.argv[2], sys.argv[3]
db = "contract_drift"
admin = f"postgresql://outbox@127.0.0.1:{port}/postgres"
url = f"postgresql://outbox@127.0.0.1:{port}/{db}"


def psql(target, sql):
    return subprocess.run(["psql", "-qAtX", target, "-v", "ON_ERROR_STOP=1", "-c", sql], check=True,
                          capture_output=True, text=True).stdout.splitlines()


psql(admin, f"DROP DATABASE IF EXISTS {db}")
psql(admin, f"CREATE DATABASE {db}")
subprocess.run([ctl, "migrate", "--db", url], check=True, capture_output=True)
check = subprocess.run([ctl, "migrate", "--check", "--db", url, "--json"], check=True, capture_output=True, text=True)
latest = json.loads(check.stdout)["version"]

columns = {}
for line in psql(url, "SELECT table_name, column_name FROM information_schema.columns WHERE table_schema = 'public'"):
    table, column = line.split("|")
    columns.setdefault(table, set()).add(column)
objects = set(columns)
objects |= set(psql(url, "SELECT indexname FROM pg_indexes WHERE schemaname = 'public'"))
objects |= set(psql(url, "SELECT conname FROM pg_constraint c JOIN pg_namespace n ON n.oid = c.connamespace "
                         "WHERE n.nspname = 'public'"))
objects |= set(psql(url, "SELECT tgname FROM pg_trigger WHERE NOT tgisinternal"))
objects |= set(psql(url, "SELECT pubname FROM pg_publication"))
# MariaDB's own: the virtual column outbox_events.trace_id (schema 13) exists only there.
mariadb_only_columns = {("outbox_events", "trace_id")}

text = open(contract, encoding="utf-8").read()
problems = []

# 1. Every schema object's name the contract spells out: a table, index, constraint or trigger.
schema_name = re.compile(r"^(outbox|inbox)_[a-z0-9_]+$|^[a-z0-9_]+_(events|letters|counters|relays|migrations)$")
for token in sorted(set(re.findall(r"`([a-z0-9_]+)`", text))):
    if schema_name.match(token) and token not in objects:
        problems.append(f"`{token}` is no table, index, constraint, trigger or publication of the migrated schema")

# 2. `table.column`.
for table, column in sorted(set(re.findall(r"`([a-z_]+)\.([a-z_]+)`", text))):
    if not schema_name.match(table):
        continue  # a setting (`relay.poll_ms`) or a call (`consumer.seek`), not a table
    if table not in columns:
        problems.append(f"`{table}.{column}`: no table {table}")
    elif column not in columns[table] and (table, column) not in mariadb_only_columns:
        problems.append(f"`{table}.{column}`: {table} has no column {column}")


# 3. The column tables: the first cell's backticked names are columns of the table the section is about.
def section(title):
    start = text.index(title)
    end = text.find("\n#", start + len(title))
    return text[start:end if end >= 0 else len(text)]


def check_columns(table, part, where, first_cell_only=True):
    for line in part.splitlines():
        cell = line.split("|")[1] if first_cell_only and line.startswith("|") else (line if not first_cell_only else "")
        for name in re.findall(r"`([a-z_*]+)`", cell):
            if name.endswith("*"):
                ok = any(c.startswith(name[:-1]) for c in columns.get(table, ()))
            else:
                ok = name in columns.get(table, ())
            if not ok:
                problems.append(f"{where}: `{name}` is no column of {table}")


check_columns("outbox_events", section("### Columns a writer sets"), "Columns a writer sets")
fills = section("### Columns the database fills")
check_columns("outbox_events", fills.split("\n\n")[1], "Columns the database fills", first_cell_only=False)
check_columns("inbox_events", section("### Columns\n"), "the inbox's columns")
dl = text[text.index("| `dead_letters` column |"):]
dl = dl[:dl.index("\n\n")]
check_columns("dead_letters", "\n".join(dl.splitlines()[2:]), "the dead_letters columns")

# 4. The version table: exactly 1..latest, each version once.
versions = section("## 4. Schema version")
seen = []
for first, last in re.findall(r"^\| (\d+)(?:[–-](\d+))? \|", versions, re.M):
    seen.extend(range(int(first), int(last or first) + 1))
if sorted(seen) != list(range(1, latest + 1)):
    problems.append(f"the version table of section 4 covers {sorted(seen)}, `outboxctl migrate` goes to {latest}: "
                    f"one row for each version 1..{latest}")

psql(admin, f"DROP DATABASE IF EXISTS {db}")
if problems:
    print("docs/contract.md drifted from the schema:\n  " + "\n  ".join(problems), file=sys.stderr)
    sys.exit(1)
print(f"contract-drift: docs/contract.md matches the schema at version {latest} "
      f"({sum(len(c) for c in columns.values())} columns of {len(columns)} tables)")
