#!/usr/bin/env node
// Inventory consumer: each OrderCreated reserves stock through the inbox, in one transaction
// (docs/contract.md, "Inbox contract"). The inbox_events row and the reservation commit together;
// the unique (event_id, consumer_name) makes a redelivery a no-op; a message the consumer gives up on
// becomes a dead_letters row plus a FAILED inbox row. The Kafka offset is committed only after the
// database transaction.
//
//   node inventory-consumer.js --db postgresql://outbox@127.0.0.1/outbox --bootstrap 127.0.0.1:9092 \
//       [--count N | --until-trace trace.txt] [--topic orders] [--consumer inventory-node]
'use strict';
const { Client } = require('pg');
const { Kafka, logLevel } = require('kafkajs');

const STOCK = { 'SKU-1': 1e9, 'SKU-2': 1e9, 'SKU-3': 1e9, 'SKU-4': 1e9, 'SKU-5': 1e9 };

function option(name, fallback) {
  const i = process.argv.indexOf(`--${name}`);
  return i < 0 ? fallback : process.argv[i + 1];
}

function header(message, name) {
  const v = message.headers && message.headers[name];
  if (v === undefined || v === null) return null;
  // The first of a name: the relay's own headers come first (docs/contract.md, "Headers").
  return (Array.isArray(v) ? v[0] : v).toString('utf8');
}

async function setup(db, consumerName, topic) {
  // Consumers starting together take turns: two concurrent CREATE TABLE IF NOT EXISTS of one table can
  // both try to create it, and the second fails ("relation already exists").
  await db.query('BEGIN');
  try {
    await db.query("SELECT pg_advisory_xact_lock(hashtext('example inventory setup'))");
    await db.query('CREATE TABLE IF NOT EXISTS example_stock (sku VARCHAR(64) PRIMARY KEY, available BIGINT NOT NULL)');
    await db.query('CREATE TABLE IF NOT EXISTS example_reservations (consumer_name VARCHAR(191) NOT NULL, '
      + 'order_id VARCHAR(64) NOT NULL, event_id VARCHAR(191) NOT NULL, sku VARCHAR(64) NOT NULL, '
      + 'quantity INTEGER NOT NULL, PRIMARY KEY (consumer_name, order_id))');
    for (const [sku, available] of Object.entries(STOCK)) {
      await db.query('INSERT INTO example_stock (sku, available) VALUES ($1, $2) ON CONFLICT (sku) DO NOTHING',
        [sku, available]);
    }
    // The topics this consumer reads: reconcile and doctor's `unconsumed` then count only their events
    // as unprocessed by it (docs/contract.md, "The dead letter"; schema 15).
    await db.query('INSERT INTO outbox_consumer_counters (consumer_name, duplicates_total, topics) VALUES ($1, 0, $2) '
      + 'ON CONFLICT (consumer_name) DO UPDATE SET topics = EXCLUDED.topics', [consumerName, JSON.stringify([topic])]);
    await db.query('COMMIT');
  } catch (e) {
    await db.query('ROLLBACK');
    throw e;
  }
}

// The consumer gives up on a message: the dead letter and a FAILED inbox row in one transaction, so that
// the console, `outboxctl consumers`, `dlq`, `reconcile` and doctor see it.
async function deadLetter(db, consumer, topic, partition, message, eventId, error) {
  const headers = {};
  for (const k of Object.keys(message.headers || {})) headers[k] = header(message, k);
  await db.query('BEGIN');
  try {
    await db.query('INSERT INTO dead_letters (consumer_name, event_id, topic, source_partition, source_offset, '
      + 'message_key, headers, payload, error, attempts) VALUES ($1, $2, $3, $4, $5, $6, $7::jsonb, $8, $9, 1)',
    [consumer, eventId, topic, partition, message.offset, message.key ? message.key.toString('utf8') : null,
      JSON.stringify(headers), message.value ? message.value.toString('utf8') : null, error]);
    if (eventId) {
      await db.query('INSERT INTO inbox_events (event_id, consumer_name, aggregate_id, status, attempts, '
        + 'processed_at, last_error, traceparent) VALUES ($1, $2, $3, \'FAILED\', 1, now(), $4, $5) '
        + 'ON CONFLICT (event_id, consumer_name) DO NOTHING',
      [eventId, consumer, header(message, 'aggregate_id'), error, header(message, 'traceparent')]);
    }
    await db.query('COMMIT');
  } catch (e) {
    await db.query('ROLLBACK');
    throw e;
  }
}

// 'processed', 'duplicate' or 'dead'.
async function handle(db, consumer, topic, partition, message) {
  const eventId = header(message, 'event_id');
  if (!eventId) {
    await deadLetter(db, consumer, topic, partition, message, null, 'the message has no event_id header');
    return 'dead';
  }
  let order;
  try {
    order = JSON.parse(message.value.toString('utf8'));
    if (typeof order.sku !== 'string' || !Number.isInteger(order.quantity)) throw new Error('no sku or quantity');
  } catch (e) {
    await deadLetter(db, consumer, topic, partition, message, eventId, `payload is not an order: ${e.message}`);
    return 'dead';
  }
  await db.query('BEGIN');
  try {
    // New: inserted. Dead-lettered before (FAILED) and now replayed: taken over. PROCESSED: no row.
    const inserted = await db.query('INSERT INTO inbox_events (event_id, consumer_name, aggregate_id, status, '
      + 'attempts, processed_at, traceparent) VALUES ($1, $2, $3, \'PROCESSED\', 1, now(), $4) '
      + 'ON CONFLICT (event_id, consumer_name) DO UPDATE SET status = \'PROCESSED\', '
      + 'attempts = inbox_events.attempts + 1, processed_at = now(), last_error = NULL, '
      + 'traceparent = EXCLUDED.traceparent WHERE inbox_events.status = \'FAILED\'',
    [eventId, consumer, header(message, 'aggregate_id'), header(message, 'traceparent')]);
    if (inserted.rowCount === 0) {
      await db.query('ROLLBACK');
      return 'duplicate'; // processed before: only the offset to commit
    }
    const reserved = await db.query('UPDATE example_stock SET available = available - $1 '
      + 'WHERE sku = $2 AND available >= $1', [order.quantity, order.sku]);
    if (reserved.rowCount === 0) {
      await db.query('ROLLBACK');
      await deadLetter(db, consumer, topic, partition, message, eventId,
        `no stock for ${order.sku} (unknown SKU or sold out)`);
      return 'dead';
    }
    await db.query('INSERT INTO example_reservations (consumer_name, order_id, event_id, sku, quantity) '
      + 'VALUES ($1, $2, $3, $4, $5)', [consumer, order.order_id, eventId, order.sku, order.quantity]);
    await db.query('COMMIT');
    return 'processed';
  } catch (e) {
    await db.query('ROLLBACK');
    throw e;
  }
}

async function main() {
  const dbUrl = option('db');
  const bootstrap = option('bootstrap');
  if (!dbUrl || !bootstrap) throw new Error('--db URL and --bootstrap HOST:PORT are required');
  const topic = option('topic', 'orders');
  const consumerName = option('consumer', 'inventory-node');
  const count = Number(option('count', '0'));
  const timeoutMs = Number(option('timeout', '0')) * 1000;
  // Run until the event of this traceparent (a writer's --trace-file) is handled, and all before it.
  const untilTraceFile = option('until-trace');
  const untilTrace = untilTraceFile ? require('fs').readFileSync(untilTraceFile, 'utf8').trim() : null;
  const db = new Client({ connectionString: dbUrl });
  await db.connect();
  await setup(db, consumerName, topic);
  const kafka = new Kafka({ clientId: consumerName, brokers: bootstrap.split(','), logLevel: logLevel.WARN });
  // --group: another consumer group reads every message again, a redelivery the inbox turns into duplicates.
  // sessionTimeout: a crashed member's partitions go to the others after 10 s (kafkajs' default: 30 s).
  const consumer = kafka.consumer({ groupId: option('group', consumerName), sessionTimeout: 10000, heartbeatInterval: 1000 });
  const counts = { processed: 0, duplicate: 0, dead: 0 };
  let finish;
  const finished = new Promise((resolve) => { finish = resolve; });
  await consumer.connect();
  await consumer.subscribe({ topics: [topic], fromBeginning: true });
  await consumer.run({
    autoCommit: false,
    eachMessage: async ({ topic: t, partition, message }) => {
      counts[await handle(db, consumerName, t, partition, message)]++;
      // After the database commit: a crash in between redelivers, and the inbox skips it.
      await consumer.commitOffsets([{ topic: t, partition, offset: (BigInt(message.offset) + 1n).toString() }]);
      if (count && counts.processed + counts.dead >= count) finish(0);
      if (untilTrace && header(message, 'traceparent') === untilTrace) finish(0);
    },
  });
  const timer = timeoutMs ? setTimeout(() => finish(1), timeoutMs) : null;
  const code = await finished;
  if (timer) clearTimeout(timer);
  await consumer.disconnect();
  await db.end();
  if (code) console.error(`inventory-consumer: timed out with ${JSON.stringify(counts)}`);
  console.log(`inventory-consumer: ${counts.processed} processed, ${counts.duplicate} duplicate(s), `
    + `${counts.dead} dead-lettered`);
  process.exitCode = code;
}

main().catch((e) => { console.error(`inventory-consumer: ${e.message}`); process.exit(1); });
