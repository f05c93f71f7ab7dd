#!/usr/bin/env node
// Inventory consumer: each OrderCreated reserves stock through the inbox, in one transaction
// (docs/contract.md, "Inbox contract"). The inbox_events row and the reservation commit together;
// the unique (event_id, consumer_name) makes a redelivery a no-op; a message the consumer gives up on
// becomes a dead_letters row plus a FAILED inbox row. The Kafka offset is committed only after the
// database transaction.
//
// The claim locks the event's inbox row (SELECT … FOR UPDATE) and decides from the status it reads,
// never from an affected-row count: mysqljs sends CLIENT_FOUND_ROWS by default, so an
// INSERT … ON DUPLICATE KEY UPDATE that changed nothing reports 1 there (docs/contract.md, "Processing
// one message"). The same code is right on PostgreSQL. The URL's scheme chooses the driver, each at its
// defaults: postgresql:// pg, mysql:// or mariadb:// mysql (mysqljs).
//
//   node inventory-consumer.js --db postgresql://outbox@127.0.0.1/outbox --bootstrap 127.0.0.1:9092 \
//       [--count N | --until-trace trace.txt | --messages N] [--topic orders] [--consumer inventory-node]
//   node inventory-consumer.js --db 'mysql://outbox:PASSWORD@127.0.0.1/outbox' …
'use strict';
const { Kafka, logLevel } = require('kafkajs');

const STOCK = { 'SKU-1': 1e9, 'SKU-2': 1e9, 'SKU-3': 1e9, 'SKU-4': 1e9, 'SKU-5': 1e9 };

// What differs between the databases; every other statement is the same text on both (with ? for
// parameters, numbered $1, $2 … for pg by query()).
const SQL = {
  postgresql: {
    now: 'now()', // timestamptz
    json: 'CAST(? AS jsonb)',
    // Consumers starting together take turns: two concurrent CREATE TABLE IF NOT EXISTS of one table can
    // both try to create it, and the second fails ("relation already exists").
    setupLock: "SELECT pg_advisory_xact_lock(hashtext('example inventory setup'))",
    addStock: 'INSERT INTO example_stock (sku, available) VALUES (?, ?) ON CONFLICT (sku) DO NOTHING',
    recordTopics: 'INSERT INTO outbox_consumer_counters (consumer_name, duplicates_total, topics) VALUES (?, 0, ?) '
      + 'ON CONFLICT (consumer_name) DO UPDATE SET topics = EXCLUDED.topics',
  },
  mariadb: {
    now: 'UTC_TIMESTAMP(6)', // DATETIME(6) holds UTC; NOW() is the session's time zone
    json: '?',
    setupLock: null, // DDL commits on its own there; IF NOT EXISTS is enough
    addStock: 'INSERT INTO example_stock (sku, available) VALUES (?, ?) ON DUPLICATE KEY UPDATE available = available',
    recordTopics: 'INSERT INTO outbox_consumer_counters (consumer_name, duplicates_total, topics) VALUES (?, 0, ?) '
      + 'ON DUPLICATE KEY UPDATE topics = VALUES(topics)',
  },
};

// One connection: query(text, params) gives the rows (none for a statement that returns none).
async function connect(url) {
  const scheme = url.slice(0, url.indexOf('://'));
  if (scheme === 'postgresql' || scheme === 'postgres') {
    const { Client } = require('pg');
    const client = new Client({ connectionString: url });
    await client.connect();
    return {
      sql: SQL.postgresql,
      query: async (text, params = []) => {
        let n = 0;
        return (await client.query(text.replace(/\?/g, () => `$${++n}`), params)).rows;
      },
      end: () => client.end(),
    };
  }
  if (scheme === 'mysql' || scheme === 'mariadb') {
    const mysql = require('mysql'); // Debian's node-mysql (mysqljs), its flags at their defaults
    const connection = mysql.createConnection(`mysql${url.slice(scheme.length)}`);
    const call = (fn, ...args) => new Promise((resolve, reject) => {
      connection[fn](...args, (e, result) => (e ? reject(e) : resolve(result)));
    });
    await call('connect');
    return {
      sql: SQL.mariadb,
      query: async (text, params = []) => {
        const result = await call('query', text, params);
        return Array.isArray(result) ? result : [];
      },
      end: () => call('end'),
    };
  }
  throw new Error(`--db must be postgresql://, mysql:// or mariadb://, not ${scheme}://`);
}

async function transaction(db, work) {
  await db.query('BEGIN');
  try {
    const result = await work();
    await db.query('COMMIT');
    return result;
  } catch (e) {
    await db.query('ROLLBACK');
    throw e;
  }
}

class NoStock extends Error {}

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
  await transaction(db, async () => {
    if (db.sql.setupLock) await db.query(db.sql.setupLock);
    await db.query('CREATE TABLE IF NOT EXISTS example_stock (sku VARCHAR(64) PRIMARY KEY, available BIGINT NOT NULL)');
    await db.query('CREATE TABLE IF NOT EXISTS example_reservations (consumer_name VARCHAR(191) NOT NULL, '
      + 'order_id VARCHAR(64) NOT NULL, event_id VARCHAR(191) NOT NULL, sku VARCHAR(64) NOT NULL, '
      + 'quantity INTEGER NOT NULL, PRIMARY KEY (consumer_name, order_id))');
    for (const [sku, available] of Object.entries(STOCK)) await db.query(db.sql.addStock, [sku, available]);
    // The topics this consumer reads: reconcile and doctor's `unconsumed` then count only their events
    // as unprocessed by it (docs/contract.md, "The dead letter"; schema 15).
    await db.query(db.sql.recordTopics, [consumerName, JSON.stringify([topic])]);
  });
}

// The inbox status of this event for this consumer, its row locked until the transaction ends; null when
// there is none. Read, never inferred from an affected-row count.
async function lockInboxRow(db, consumer, eventId) {
  const rows = await db.query('SELECT status FROM inbox_events WHERE event_id = ? AND consumer_name = ? FOR UPDATE',
    [eventId, consumer]);
  return rows.length ? rows[0].status : null;
}

// The consumer gives up on a message: the dead letter and a FAILED inbox row in one transaction, so that
// the console, `outboxctl consumers`, `dlq`, `reconcile` and doctor see it.
async function deadLetter(db, consumer, topic, partition, message, eventId, error) {
  const headers = {};
  for (const k of Object.keys(message.headers || {})) headers[k] = header(message, k);
  await transaction(db, async () => {
    await db.query('INSERT INTO dead_letters (consumer_name, event_id, topic, source_partition, source_offset, '
      + `message_key, headers, payload, error, attempts) VALUES (?, ?, ?, ?, ?, ?, ${db.sql.json}, ?, ?, 1)`,
    [consumer, eventId, topic, partition, message.offset, message.key ? message.key.toString('utf8') : null,
      JSON.stringify(headers), message.value ? message.value.toString('utf8') : null, error]);
    if (eventId && await lockInboxRow(db, consumer, eventId) === null) {
      await db.query('INSERT INTO inbox_events (event_id, consumer_name, aggregate_id, status, attempts, '
        + `processed_at, last_error, traceparent) VALUES (?, ?, ?, 'FAILED', 1, ${db.sql.now}, ?, ?)`,
      [eventId, consumer, header(message, 'aggregate_id'), error, header(message, 'traceparent')]);
    }
  });
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
  const traceparent = header(message, 'traceparent');
  try {
    return await transaction(db, async () => {
      // 1. The claim: lock the inbox row and read its status. A concurrent instance inserting the same
      // event makes the INSERT fail (duplicate key or deadlock): the transaction rolls back, the handler
      // throws and kafkajs hands the message to it again, which then reads the other's row.
      const status = await lockInboxRow(db, consumer, eventId);
      if (status === 'PROCESSED') return 'duplicate'; // processed before: nothing written, only the offset
      if (status === null) { // new
        await db.query('INSERT INTO inbox_events (event_id, consumer_name, aggregate_id, status, attempts, '
          + `processed_at, traceparent) VALUES (?, ?, ?, 'PROCESSED', 1, ${db.sql.now}, ?)`,
        [eventId, consumer, header(message, 'aggregate_id'), traceparent]);
      } else { // FAILED: a dead letter replayed by an operator; processed now
        await db.query('UPDATE inbox_events SET status = \'PROCESSED\', attempts = attempts + 1, '
          + `processed_at = ${db.sql.now}, last_error = NULL, traceparent = ? WHERE event_id = ? AND consumer_name = ?`,
        [traceparent, eventId, consumer]);
      }
      // 2. The effect, in the same transaction: again read under a lock, not counted.
      const stock = await db.query('SELECT available FROM example_stock WHERE sku = ? FOR UPDATE', [order.sku]);
      if (!stock.length || Number(stock[0].available) < order.quantity) throw new NoStock(); // rolls the inbox row back
      await db.query('UPDATE example_stock SET available = available - ? WHERE sku = ?', [order.quantity, order.sku]);
      await db.query('INSERT INTO example_reservations (consumer_name, order_id, event_id, sku, quantity) '
        + 'VALUES (?, ?, ?, ?, ?)', [consumer, order.order_id, eventId, order.sku, order.quantity]);
      return 'processed';
    });
  } catch (e) {
    if (!(e instanceof NoStock)) throw e;
    await deadLetter(db, consumer, topic, partition, message, eventId,
      `no stock for ${order.sku} (unknown SKU or sold out)`);
    return 'dead';
  }
}

async function main() {
  const dbUrl = option('db');
  const bootstrap = option('bootstrap');
  if (!dbUrl || !bootstrap) throw new Error('--db URL and --bootstrap HOST:PORT are required');
  const topic = option('topic', 'orders');
  const consumerName = option('consumer', 'inventory-node');
  const count = Number(option('count', '0'));
  // Stop after this many messages, duplicates included (a forced redelivery: 0 new events).
  const messages = Number(option('messages', '0'));
  const timeoutMs = Number(option('timeout', '0')) * 1000;
  // Run until the event of this traceparent (a writer's --trace-file) is handled, and all before it.
  const untilTraceFile = option('until-trace');
  const untilTrace = untilTraceFile ? require('fs').readFileSync(untilTraceFile, 'utf8').trim() : null;
  const db = await connect(dbUrl);
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
      if (messages && counts.processed + counts.duplicate + counts.dead >= messages) finish(0);
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
