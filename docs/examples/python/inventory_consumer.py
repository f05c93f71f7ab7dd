#!/usr/bin/python3
"""Inventory consumer: each OrderCreated reserves stock through the inbox, in one transaction.

The inbox contract (docs/contract.md): the inbox_events row and the business effect commit in the
same transaction; the unique (event_id, consumer_name) makes a redelivery a no-op; a message the
consumer gives up on becomes a dead_letters row plus a FAILED inbox row. The Kafka offset is
committed only after the database transaction.

    /usr/bin/python3 inventory_consumer.py --db postgresql://outbox@127.0.0.1/outbox \
        --bootstrap 127.0.0.1:9092 --until-trace trace.txt   (or --count N)
"""
import argparse
import json
import sys
import time

import psycopg
from confluent_kafka import Consumer, KafkaException

STOCK = {"SKU-1": 10**9, "SKU-2": 10**9, "SKU-3": 10**9, "SKU-4": 10**9, "SKU-5": 10**9}


def header(message, name):
    for key, value in message.headers() or []:
        if key == name and value is not None:
            return value.decode("utf-8", "replace")
    return None


def setup(conn, consumer, topic):
    with conn.transaction():
        # Consumers starting together take turns: two concurrent CREATE TABLE IF NOT EXISTS of one table
        # can both try to create it, and the second fails ("relation already exists").
        conn.execute("SELECT pg_advisory_xact_lock(hashtext('example inventory setup'))")
        conn.execute("CREATE TABLE IF NOT EXISTS example_stock (sku VARCHAR(64) PRIMARY KEY, "
                     "available BIGINT NOT NULL)")
        conn.execute("CREATE TABLE IF NOT EXISTS example_reservations (consumer_name VARCHAR(191) NOT NULL, "
                     "order_id VARCHAR(64) NOT NULL, event_id VARCHAR(191) NOT NULL, sku VARCHAR(64) NOT NULL, "
                     "quantity INTEGER NOT NULL, PRIMARY KEY (consumer_name, order_id))")
        for sku, available in STOCK.items():
            conn.execute("INSERT INTO example_stock (sku, available) VALUES (%s, %s) ON CONFLICT (sku) DO NOTHING",
                         (sku, available))
        # The topics this consumer reads: reconcile and doctor's `unconsumed` then count only their events
        # as unprocessed by it (docs/contract.md, "The dead letter"; schema 15).
        conn.execute("INSERT INTO outbox_consumer_counters (consumer_name, duplicates_total, topics) VALUES (%s, 0, %s) "
                     "ON CONFLICT (consumer_name) DO UPDATE SET topics = EXCLUDED.topics",
                     (consumer, json.dumps([topic])))


def dead_letter(conn, consumer, message, event_id, error):
    """The consumer gives up on a message: the dead letter and a FAILED inbox row, in one transaction,
    so that the console, `outboxctl consumers`, `dlq`, `reconcile` and doctor see it."""
    headers = {k: (v.decode("utf-8", "replace") if v is not None else None) for k, v in message.headers() or []}
    with conn.transaction():
        conn.execute(
            "INSERT INTO dead_letters (consumer_name, event_id, topic, source_partition, source_offset, "
            "message_key, headers, payload, error, attempts) VALUES (%s, %s, %s, %s, %s, %s, %s::jsonb, %s, %s, 1)",
            (consumer, event_id, message.topic(), message.partition(), message.offset(),
             (message.key() or b"").decode("utf-8", "replace"), json.dumps(headers),
             (message.value() or b"").decode("utf-8", "replace"), error))
        if event_id:
            conn.execute(
                "INSERT INTO inbox_events (event_id, consumer_name, aggregate_id, status, attempts, processed_at, "
                "last_error, traceparent) VALUES (%s, %s, %s, 'FAILED', 1, now(), %s, %s) "
                "ON CONFLICT (event_id, consumer_name) DO NOTHING",
                (event_id, consumer, header(message, "aggregate_id"), error, header(message, "traceparent")))


def handle(conn, consumer, message):
    """Returns 'processed', 'duplicate' or 'dead'."""
    event_id = header(message, "event_id")
    if not event_id:
        dead_letter(conn, consumer, message, None, "the message has no event_id header")
        return "dead"
    try:
        order = json.loads(message.value())
        sku, quantity, order_id = order["sku"], int(order["quantity"]), order["order_id"]
    except (ValueError, KeyError, TypeError) as e:
        dead_letter(conn, consumer, message, event_id, f"payload is not an order: {e}")
        return "dead"
    with conn.transaction() as tx:
        # New: inserted. Dead-lettered before (FAILED) and now replayed: taken over. PROCESSED: no row.
        inserted = conn.execute(
            "INSERT INTO inbox_events (event_id, consumer_name, aggregate_id, status, attempts, processed_at, "
            "traceparent) VALUES (%s, %s, %s, 'PROCESSED', 1, now(), %s) "
            "ON CONFLICT (event_id, consumer_name) DO UPDATE SET status = 'PROCESSED', "
            "attempts = inbox_events.attempts + 1, processed_at = now(), last_error = NULL, "
            "traceparent = EXCLUDED.traceparent WHERE inbox_events.status = 'FAILED'",
            (event_id, consumer, header(message, "aggregate_id"), header(message, "traceparent"))).rowcount
        if inserted == 0:
            return "duplicate"  # processed before: nothing to do, only the offset to commit
        reserved = conn.execute("UPDATE example_stock SET available = available - %s "
                                "WHERE sku = %s AND available >= %s", (quantity, sku, quantity)).rowcount
        if reserved == 0:
            raise psycopg.Rollback(tx)  # leaves the with-block: the inbox row goes with it
        conn.execute("INSERT INTO example_reservations (consumer_name, order_id, event_id, sku, quantity) "
                     "VALUES (%s, %s, %s, %s, %s)", (consumer, order_id, event_id, sku, quantity))
        return "processed"
    dead_letter(conn, consumer, message, event_id, f"no stock for {sku} (unknown SKU or sold out)")
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
    with psycopg.connect(args.db, autocommit=True) as conn:
        setup(conn, args.consumer, args.topic)
        try:
            while not seen_until and (not args.count or counts["processed"] + counts["dead"] < args.count):
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
                counts[handle(conn, args.consumer, message)] += 1
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
    print(f"inventory_consumer: {counts['processed']} processed, {counts['duplicate']} duplicate(s), "
          f"{counts['dead']} dead-lettered")
    return 0


if __name__ == "__main__":
    sys.exit(main())
