#!/usr/bin/python3
"""Inventory consumer: each OrderCreated reserves stock through the inbox, in one transaction.

The inbox contract (docs/contract.md): the inbox_events row and the business effect commit in the
same transaction; the unique (event_id, consumer_name) makes a redelivery a no-op; a message the
consumer gives up on becomes a dead_letters row plus a FAILED inbox row. The Kafka offset is
committed only after the database transaction.

The claim locks the event's inbox row (SELECT … FOR UPDATE) and decides from the status it reads,
never from an affected-row count: on MariaDB/MySQL that count depends on the client flag
CLIENT_FOUND_ROWS (docs/contract.md, "Processing one message"), and the same code is right on
PostgreSQL. The URL's scheme chooses the driver, each at its defaults: postgresql:// psycopg 3,
mysql:// or mariadb:// PyMySQL.

    /usr/bin/python3 inventory_consumer.py --db postgresql://outbox@127.0.0.1/outbox \
        --bootstrap 127.0.0.1:9092 --until-trace trace.txt   (or --count N)
    /usr/bin/python3 inventory_consumer.py --db 'mysql://outbox:PASSWORD@127.0.0.1/outbox' …
"""
import argparse
import contextlib
import json
import sys
import time
from urllib.parse import unquote, urlsplit

from confluent_kafka import Consumer, KafkaException

STOCK = {"SKU-1": 10**9, "SKU-2": 10**9, "SKU-3": 10**9, "SKU-4": 10**9, "SKU-5": 10**9}

# What differs between the databases; every other statement is the same text on both.
SQL = {
    "postgresql": {
        "now": "now()",  # timestamptz
        "json": "%s::jsonb",
        # Consumers starting together take turns: two concurrent CREATE TABLE IF NOT EXISTS of one
        # table can both try to create it, and the second fails ("relation already exists").
        "setup_lock": "SELECT pg_advisory_xact_lock(hashtext('example inventory setup'))",
        "add_stock": "INSERT INTO example_stock (sku, available) VALUES (%s, %s) ON CONFLICT (sku) DO NOTHING",
        "record_topics": "INSERT INTO outbox_consumer_counters (consumer_name, duplicates_total, topics) "
                         "VALUES (%s, 0, %s) ON CONFLICT (consumer_name) DO UPDATE SET topics = EXCLUDED.topics",
    },
    "mariadb": {
        "now": "UTC_TIMESTAMP(6)",  # DATETIME(6) holds UTC; NOW() is the session's time zone
        "json": "%s",
        "setup_lock": None,  # DDL commits on its own there; IF NOT EXISTS is enough
        "add_stock": "INSERT INTO example_stock (sku, available) VALUES (%s, %s) "
                     "ON DUPLICATE KEY UPDATE available = available",
        "record_topics": "INSERT INTO outbox_consumer_counters (consumer_name, duplicates_total, topics) "
                         "VALUES (%s, 0, %s) ON DUPLICATE KEY UPDATE topics = VALUES(topics)",
    },
}


class NoStock(Exception):
    pass


class Database:
    """One connection in autocommit mode; transaction() opens an explicit one."""

    def __init__(self, url):
        scheme = urlsplit(url).scheme
        if scheme in ("postgresql", "postgres"):
            import psycopg
            self.conn = psycopg.connect(url, autocommit=True)
            self.sql = SQL["postgresql"]
        elif scheme in ("mysql", "mariadb"):
            import pymysql  # Debian's python3-pymysql, its client flags untouched
            u = urlsplit(url)
            self.conn = pymysql.connect(host=u.hostname, port=u.port or 3306, user=unquote(u.username or ""),
                                        password=unquote(u.password or ""), database=u.path.lstrip("/"),
                                        charset="utf8mb4", autocommit=True)
            self.sql = SQL["mariadb"]
        else:
            raise SystemExit(f"inventory_consumer: --db must be postgresql://, mysql:// or mariadb://, not {scheme}://")

    def execute(self, statement, params=()):
        cursor = self.conn.cursor()
        cursor.execute(statement, params)
        return cursor

    @contextlib.contextmanager
    def transaction(self):
        self.execute("BEGIN")
        try:
            yield
        except BaseException:
            self.execute("ROLLBACK")
            raise
        self.execute("COMMIT")

    def close(self):
        self.conn.close()


def header(message, name):
    # The first of a name: the relay's own headers come first (docs/contract.md, "Headers").
    for key, value in message.headers() or []:
        if key == name and value is not None:
            return value.decode("utf-8", "replace")
    return None


def setup(db, consumer, topic):
    with db.transaction():
        if db.sql["setup_lock"]:
            db.execute(db.sql["setup_lock"])
        db.execute("CREATE TABLE IF NOT EXISTS example_stock (sku VARCHAR(64) PRIMARY KEY, "
                   "available BIGINT NOT NULL)")
        db.execute("CREATE TABLE IF NOT EXISTS example_reservations (consumer_name VARCHAR(191) NOT NULL, "
                   "order_id VARCHAR(64) NOT NULL, event_id VARCHAR(191) NOT NULL, sku VARCHAR(64) NOT NULL, "
                   "quantity INTEGER NOT NULL, PRIMARY KEY (consumer_name, order_id))")
        for sku, available in STOCK.items():
            db.execute(db.sql["add_stock"], (sku, available))
        # The topics this consumer reads: reconcile and doctor's `unconsumed` then count only their events
        # as unprocessed by it (docs/contract.md, "The dead letter"; schema 15).
        db.execute(db.sql["record_topics"], (consumer, json.dumps([topic])))


def lock_inbox_row(db, consumer, event_id):
    """The inbox status of this event for this consumer, its row locked until the transaction ends;
    None when there is none. Read, never inferred from an affected-row count."""
    row = db.execute("SELECT status FROM inbox_events WHERE event_id = %s AND consumer_name = %s FOR UPDATE",
                     (event_id, consumer)).fetchone()
    return row[0] if row else None


def dead_letter(db, consumer, message, event_id, error):
    """The consumer gives up on a message: the dead letter and a FAILED inbox row, in one transaction,
    so that the console, `outboxctl consumers`, `dlq`, `reconcile` and doctor see it."""
    headers = {k: (v.decode("utf-8", "replace") if v is not None else None) for k, v in message.headers() or []}
    with db.transaction():
        db.execute(
            "INSERT INTO dead_letters (consumer_name, event_id, topic, source_partition, source_offset, "
            f"message_key, headers, payload, error, attempts) VALUES (%s, %s, %s, %s, %s, %s, {db.sql['json']}, "
            "%s, %s, 1)",
            (consumer, event_id, message.topic(), message.partition(), message.offset(),
             (message.key() or b"").decode("utf-8", "replace"), json.dumps(headers),
             (message.value() or b"").decode("utf-8", "replace"), error))
        if event_id and lock_inbox_row(db, consumer, event_id) is None:
            db.execute(
                "INSERT INTO inbox_events (event_id, consumer_name, aggregate_id, status, attempts, processed_at, "
                f"last_error, traceparent) VALUES (%s, %s, %s, 'FAILED', 1, {db.sql['now']}, %s, %s)",
                (event_id, consumer, header(message, "aggregate_id"), error, header(message, "traceparent")))


def handle(db, consumer, message):
    """Returns 'processed', 'duplicate' or 'dead'."""
    event_id = header(message, "event_id")
    if not event_id:
        dead_letter(db, consumer, message, None, "the message has no event_id header")
        return "dead"
    try:
        order = json.loads(message.value())
        sku, quantity, order_id = order["sku"], int(order["quantity"]), order["order_id"]
    except (ValueError, KeyError, TypeError) as e:
        dead_letter(db, consumer, message, event_id, f"payload is not an order: {e}")
        return "dead"
    now = db.sql["now"]
    try:
        with db.transaction():
            # 1. The claim: lock the inbox row and read its status. A concurrent instance inserting the
            # same event makes the INSERT fail (duplicate key or deadlock): the transaction rolls back and
            # the consumer exits, so that the group hands the message on and it is read again.
            status = lock_inbox_row(db, consumer, event_id)
            if status == "PROCESSED":
                return "duplicate"  # processed before: nothing written, only the offset to commit
            if status is None:  # new
                db.execute("INSERT INTO inbox_events (event_id, consumer_name, aggregate_id, status, attempts, "
                           f"processed_at, traceparent) VALUES (%s, %s, %s, 'PROCESSED', 1, {now}, %s)",
                           (event_id, consumer, header(message, "aggregate_id"), header(message, "traceparent")))
            else:  # FAILED: a dead letter replayed by an operator; processed now
                db.execute("UPDATE inbox_events SET status = 'PROCESSED', attempts = attempts + 1, "
                           f"processed_at = {now}, last_error = NULL, traceparent = %s "
                           "WHERE event_id = %s AND consumer_name = %s",
                           (header(message, "traceparent"), event_id, consumer))
            # 2. The effect, in the same transaction: again read under a lock, not counted.
            row = db.execute("SELECT available FROM example_stock WHERE sku = %s FOR UPDATE", (sku,)).fetchone()
            if row is None or row[0] < quantity:
                raise NoStock(sku)  # rolls the inbox row back with it
            db.execute("UPDATE example_stock SET available = available - %s WHERE sku = %s", (quantity, sku))
            db.execute("INSERT INTO example_reservations (consumer_name, order_id, event_id, sku, quantity) "
                       "VALUES (%s, %s, %s, %s, %s)", (consumer, order_id, event_id, sku, quantity))
            return "processed"
    except NoStock:
        dead_letter(db, consumer, message, event_id, f"no stock for {sku} (unknown SKU or sold out)")
        return "dead"

def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", required=True)
    parser.add_argument("--bootstrap", required=True)
    parser.add_argument("--topic", default="orders")
    parser.add_argument("--consumer", default="inventory-python", help="consumer_name and consumer group")
    parser.add_argument("--group", help="another consumer group (default: the consumer name): it reads every "
                        "message again, a redelivery the inbox must turn into duplicates")
    parser.add_argument("--count", type=int, default=0, help="stop after this many new events (0: run on)")
    parser.add_argument("--messages", type=int, default=0, help="stop after this many messages, duplicates "
                        "included (a forced redelivery: 0 new events)")
    parser.add_argument("--timeout", type=float, default=0, help="give up after this many seconds (0: never)")
    parser.add_argument("--until-trace", help="stop once the event of the traceparent in this file (a writer's "
                        "--trace-file) is handled, and every one before it")
    args = parser.parse_args()

    consumer = Consumer({"bootstrap.servers": args.bootstrap, "group.id": args.group or args.consumer,
                         "enable.auto.commit": False, "auto.offset.reset": "earliest",
                         # A crashed member's partitions go to the others after this long (the client's
                         # default is 45 s): docs/contract.md, "Processing one message".
                         "session.timeout.ms": 10000, "heartbeat.interval.ms": 1000})
    consumer.subscribe([args.topic])
    counts = {"processed": 0, "duplicate": 0, "dead": 0}
    last = None
    deadline = time.monotonic() + args.timeout if args.timeout else None
    until = open(args.until_trace, encoding="utf-8").read().strip() if args.until_trace else None
    seen_until = False
    db = Database(args.db)
    setup(db, args.consumer, args.topic)
    try:
        while not seen_until and (not args.count or counts["processed"] + counts["dead"] < args.count) \
                and (not args.messages or sum(counts.values()) < args.messages):
            if deadline and time.monotonic() > deadline:
                print(f"inventory_consumer: timed out with {counts}", file=sys.stderr)
                return 1
            message = consumer.poll(0.5)
            if message is None:
                continue
            if message.error():
                if message.error().fatal():
                    raise KafkaException(message.error())
                continue
            counts[handle(db, args.consumer, message)] += 1
            # After the database commit: a crash in between redelivers, and the inbox skips it.
            consumer.commit(message=message, asynchronous=True)
            last = message
            seen_until = until is not None and header(message, "traceparent") == until
        if last is not None:
            # Explicit offsets: a bare commit() raises _NO_OFFSET when the async commits already
            # stored everything, and an exiting consumer must know its last offset is durable.
            consumer.commit(message=last, asynchronous=False)
    finally:
        consumer.close()
        db.close()
    print(f"inventory_consumer: {counts['processed']} processed, {counts['duplicate']} duplicate(s), "
          f"{counts['dead']} dead-lettered")
    return 0


if __name__ == "__main__":
    sys.exit(main())
