#!/usr/bin/python3
"""Order service: each order and its OrderCreated event in one PostgreSQL transaction.

The contract this follows is docs/contract.md: the event row is written by the same transaction
as the order, with an event_id of its own, a JSON payload, and headers carrying the W3C
traceparent, the content type and the order's idempotency key. Status, attempts, leases and
sent_at are left to the relay.

    /usr/bin/python3 order_service.py --db postgresql://outbox@127.0.0.1/outbox --orders 100
"""
import argparse
import json
import secrets
import sys
import uuid

import psycopg

SKUS = ["SKU-1", "SKU-2", "SKU-3", "SKU-4", "SKU-5"]
# The version of the outbox schema whose columns this writer uses (docs/contract.md, "Schema version").
EXPECTED_SCHEMA = 1


class ContractError(Exception):
    pass


def check_schema(conn):
    row = conn.execute("SELECT COALESCE(MAX(version), 0) FROM outbox_schema_migrations").fetchone()
    if row[0] < EXPECTED_SCHEMA:
        raise ContractError(f"outbox schema at version {row[0]}, this service needs {EXPECTED_SCHEMA}: "
                            "run outboxctl migrate")


def new_traceparent():
    """A W3C traceparent: version 00, a 16-byte trace id, an 8-byte span id, sampled."""
    return f"00-{secrets.token_hex(16)}-{secrets.token_hex(8)}-01"


def append_event(conn, *, event_type, aggregate_type, aggregate_id, payload, headers, topic=None):
    """Writes one outbox event inside the caller's open transaction, never on its own."""
    if conn.info.transaction_status != psycopg.pq.TransactionStatus.INTRANS:
        raise ContractError("no transaction is open: write outbox events inside the business "
                            "transaction, so the change and its event commit or roll back together")
    event_id = str(uuid.uuid4())
    conn.execute(
        "INSERT INTO outbox_events (event_id, event_type, aggregate_type, aggregate_id, topic, payload, headers) "
        "VALUES (%s, %s, %s, %s, %s, %s::jsonb, %s::jsonb)",
        (event_id, event_type, aggregate_type, aggregate_id, topic, json.dumps(payload), json.dumps(headers)))
    return event_id


def create_order(conn, idempotency_key, sku, quantity, traceparent, topic):
    """One business transaction: the order row and its event. A retried request (same idempotency
    key) finds its order and writes nothing."""
    with conn.transaction():
        existing = conn.execute("SELECT order_id FROM example_orders WHERE idempotency_key = %s",
                                (idempotency_key,)).fetchone()
        if existing:
            return existing[0], None
        order_id = f"o-{uuid.uuid4()}"
        total_cents = 1999 * quantity
        # The unique idempotency_key refuses a concurrent twin: its transaction rolls back whole.
        conn.execute("INSERT INTO example_orders (order_id, idempotency_key, sku, quantity, total_cents) "
                     "VALUES (%s, %s, %s, %s, %s)", (order_id, idempotency_key, sku, quantity, total_cents))
        event_id = append_event(
            conn, event_type="OrderCreated", aggregate_type="Order", aggregate_id=order_id, topic=topic,
            payload={"order_id": order_id, "sku": sku, "quantity": quantity, "total_cents": total_cents},
            headers={"traceparent": traceparent, "content-type": "application/json",
                     "idempotency-key": idempotency_key})
        return order_id, event_id


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", required=True, help="postgresql://user@host:port/database")
    parser.add_argument("--orders", type=int, default=100)
    parser.add_argument("--key-prefix", default="py", help="idempotency keys are PREFIX-1 … PREFIX-N")
    parser.add_argument("--topic", default="orders")
    parser.add_argument("--sku", help="order this SKU every time (e.g. one the inventory does not know)")
    parser.add_argument("--trace-file", help="write the traceparent of the first order here")
    parser.add_argument("--outside-transaction", action="store_true",
                        help="break the contract on purpose: try to write an event without a transaction")
    args = parser.parse_args()

    with psycopg.connect(args.db, autocommit=True) as conn:
        check_schema(conn)
        conn.execute("CREATE TABLE IF NOT EXISTS example_orders (order_id VARCHAR(64) PRIMARY KEY, "
                     "idempotency_key VARCHAR(191) NOT NULL UNIQUE, sku VARCHAR(64) NOT NULL, "
                     "quantity INTEGER NOT NULL, total_cents BIGINT NOT NULL, "
                     "created_at TIMESTAMPTZ NOT NULL DEFAULT now())")
        if args.outside_transaction:
            try:
                append_event(conn, event_type="OrderCreated", aggregate_type="Order", aggregate_id="o-x",
                             payload={}, headers={})
            except ContractError as e:
                print(f"order_service: refused: {e}", file=sys.stderr)
                return 3
            return 0
        created = 0
        first_trace = None
        for i in range(1, args.orders + 1):
            traceparent = new_traceparent()
            _, event_id = create_order(conn, f"{args.key_prefix}-{i}", args.sku or SKUS[i % len(SKUS)],
                                       1 + i % 3, traceparent, args.topic)
            if event_id:
                created += 1
                first_trace = first_trace or traceparent
        if args.trace_file and first_trace:
            with open(args.trace_file, "w") as f:
                f.write(first_trace + "\n")
        print(f"order_service: {created} order(s) created, {args.orders - created} already there")
    return 0


if __name__ == "__main__":
    sys.exit(main())
