#!/usr/bin/env node
// Order service: each order and its OrderCreated event in one PostgreSQL transaction
// (docs/contract.md). The event row carries its own event_id, a JSON payload and headers with the
// W3C traceparent, the content type and the order's idempotency key; status, attempts, leases and
// sent_at are left to the relay.
//
//   node order-service.js --db postgresql://outbox@127.0.0.1/outbox --orders 100
'use strict';
const crypto = require('node:crypto');
const fs = require('node:fs');
const { Client } = require('pg');

const SKUS = ['SKU-1', 'SKU-2', 'SKU-3', 'SKU-4', 'SKU-5'];
// The version of the outbox schema whose columns this writer uses (docs/contract.md, "Schema version").
const EXPECTED_SCHEMA = 1;

function option(name, fallback) {
  const i = process.argv.indexOf(`--${name}`);
  if (i < 0) return fallback;
  return process.argv[i + 1];
}

function newTraceparent() {
  return `00-${crypto.randomBytes(16).toString('hex')}-${crypto.randomBytes(8).toString('hex')}-01`;
}

// A transaction this service opened: appendEvent() takes one, so that no event is written on its own.
class Transaction {
  constructor(client) { this.client = client; this.open = false; }
  async begin() { await this.client.query('BEGIN'); this.open = true; }
  async commit() { await this.client.query('COMMIT'); this.open = false; }
  async rollback() { if (this.open) await this.client.query('ROLLBACK'); this.open = false; }
  query(text, values) { return this.client.query(text, values); }
}

// Writes one outbox event inside the caller's open transaction, never on its own.
async function appendEvent(tx, { eventType, aggregateType, aggregateId, payload, headers, topic = null }) {
  if (!(tx instanceof Transaction) || !tx.open) {
    throw new Error('no transaction is open: write outbox events inside the business transaction, '
      + 'so the change and its event commit or roll back together');
  }
  const eventId = crypto.randomUUID();
  await tx.query(
    'INSERT INTO outbox_events (event_id, event_type, aggregate_type, aggregate_id, topic, payload, headers) '
    + 'VALUES ($1, $2, $3, $4, $5, $6::jsonb, $7::jsonb)',
    [eventId, eventType, aggregateType, aggregateId, topic, JSON.stringify(payload), JSON.stringify(headers)]);
  return eventId;
}

// One business transaction (what @Transactional wraps in Spring): the order row and its event. A retried
// request (same idempotency key) finds its order and writes nothing.
async function createOrder(client, idempotencyKey, sku, quantity, traceparent, topic) {
  const tx = new Transaction(client);
  await tx.begin();
  try {
    const existing = await tx.query('SELECT order_id FROM example_orders WHERE idempotency_key = $1',
      [idempotencyKey]);
    if (existing.rows.length > 0) {
      await tx.rollback();
      return null;
    }
    const orderId = `o-${crypto.randomUUID()}`;
    const totalCents = 1999 * quantity;
    await tx.query('INSERT INTO example_orders (order_id, idempotency_key, sku, quantity, total_cents) '
      + 'VALUES ($1, $2, $3, $4, $5)', [orderId, idempotencyKey, sku, quantity, totalCents]);
    const eventId = await appendEvent(tx, {
      eventType: 'OrderCreated', aggregateType: 'Order', aggregateId: orderId, topic,
      payload: { order_id: orderId, sku, quantity, total_cents: totalCents },
      headers: { traceparent, 'content-type': 'application/json', 'idempotency-key': idempotencyKey },
    });
    await tx.commit();
    return eventId;
  } catch (e) {
    await tx.rollback();
    throw e;
  }
}

async function main() {
  const db = option('db');
  if (!db) throw new Error('--db postgresql://user@host:port/database is required');
  const orders = Number(option('orders', '100'));
  const prefix = option('key-prefix', 'node');
  const topic = option('topic', 'orders');
  const traceFile = option('trace-file');
  const client = new Client({ connectionString: db });
  await client.connect();
  try {
    const version = await client.query('SELECT COALESCE(MAX(version), 0) AS v FROM outbox_schema_migrations');
    if (Number(version.rows[0].v) < EXPECTED_SCHEMA) {
      throw new Error(`outbox schema at version ${version.rows[0].v}, this service needs ${EXPECTED_SCHEMA}: `
        + 'run outboxctl migrate');
    }
    await client.query('CREATE TABLE IF NOT EXISTS example_orders (order_id VARCHAR(64) PRIMARY KEY, '
      + 'idempotency_key VARCHAR(191) NOT NULL UNIQUE, sku VARCHAR(64) NOT NULL, quantity INTEGER NOT NULL, '
      + 'total_cents BIGINT NOT NULL, created_at TIMESTAMPTZ NOT NULL DEFAULT now())');
    if (process.argv.includes('--outside-transaction')) {
      try {
        await appendEvent(new Transaction(client), { eventType: 'OrderCreated', aggregateType: 'Order',
          aggregateId: 'o-x', payload: {}, headers: {} });
      } catch (e) {
        console.error(`order-service: refused: ${e.message}`);
        process.exitCode = 3;
      }
      return;
    }
    let created = 0;
    let firstTrace = null;
    for (let i = 1; i <= orders; i++) {
      const traceparent = newTraceparent();
      const eventId = await createOrder(client, `${prefix}-${i}`, SKUS[i % SKUS.length], 1 + (i % 3),
        traceparent, topic);
      if (eventId) {
        created++;
        firstTrace = firstTrace || traceparent;
      }
    }
    if (traceFile && firstTrace) fs.writeFileSync(traceFile, `${firstTrace}\n`);
    console.log(`order-service: ${created} order(s) created, ${orders - created} already there`);
  } finally {
    await client.end();
  }
}

main().catch((e) => { console.error(`order-service: ${e.message}`); process.exit(1); });
