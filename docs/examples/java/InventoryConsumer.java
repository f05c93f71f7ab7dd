// Inventory consumer in plain JDBC: each OrderCreated reserves stock through the inbox, in one
// transaction, on PostgreSQL or MariaDB/MySQL (docs/contract.md, "Processing one message").
//
// The claim does NOT look at an affected-row count: MariaDB Connector/J at its defaults
// (useAffectedRows=false, the client flag CLIENT_FOUND_ROWS) reports 1 for an
// INSERT … ON DUPLICATE KEY UPDATE that changed nothing, so "0 rows = processed before" would
// apply every redelivery a second time. Instead the consumer locks the event's inbox row with
// SELECT … FOR UPDATE and decides from what it reads: no row = new, FAILED = a dead letter coming
// back through a replay, PROCESSED = processed before. The same code is right under both flag
// settings and on PostgreSQL.
//
// Java has no Kafka client in Debian, so this example takes its messages from kcat on stdin, one
// per line (the handling is what matters; in a service, your Kafka listener calls handle() for each
// record and commits the record's offset after handle() returns):
//
//   kcat -C -b 127.0.0.1:9092 -t orders -o beginning -e -f '%t\t%p\t%o\t%k\t%h\t%s\n' |
//     java -cp /usr/share/java/postgresql.jar:/usr/share/java/mariadb-java-client.jar InventoryConsumer.java \
//       --db 'jdbc:mariadb://127.0.0.1:3306/outbox?user=outbox&password=…' --topic orders
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

public final class InventoryConsumer {
    static final String[] SKUS = {"SKU-1", "SKU-2", "SKU-3", "SKU-4", "SKU-5"};
    // inbox_events.traceparent (schema 12) and outbox_consumer_counters.topics (schema 15).
    static final int EXPECTED_SCHEMA = 15;

    // One message as kcat prints it with -f '%t\t%p\t%o\t%k\t%h\t%s\n'.
    record Message(String topic, int partition, long offset, String key, Map<String, String> headers,
                   String payload) {
        static Message parse(String line) {
            String[] f = line.split("\t", 6);
            if (f.length < 6)
                return null;
            Map<String, String> headers = new LinkedHashMap<>();
            // kcat joins headers as name=value,name=value; the relay's and the examples' values hold
            // no comma. The first header of a name wins: the relay's own come first (docs/contract.md).
            for (String h : f[4].split(",")) {
                int eq = h.indexOf('=');
                if (eq > 0)
                    headers.putIfAbsent(h.substring(0, eq), h.substring(eq + 1));
            }
            return new Message(f[0], Integer.parseInt(f[1]), Long.parseLong(f[2]), f[3], headers, f[5]);
        }
    }

    enum Outcome { PROCESSED, DUPLICATE, DEAD }

    private final Connection connection;
    private final boolean postgres;
    private final String consumer;
    private final String now;

    InventoryConsumer(Connection connection, String consumer) throws SQLException {
        this.connection = connection;
        this.postgres = connection.getMetaData().getDatabaseProductName().toLowerCase().contains("postgres");
        this.consumer = consumer;
        // MariaDB/MySQL: DATETIME(6) columns hold UTC; NOW() would be the session's time zone.
        this.now = postgres ? "now()" : "UTC_TIMESTAMP(6)";
    }

    interface Work<T> {
        T run(Connection c) throws SQLException;
    }

    <T> T transactional(Work<T> work) throws SQLException {
        connection.setAutoCommit(false);
        try {
            T result = work.run(connection);
            connection.commit();
            return result;
        } catch (SQLException | RuntimeException e) {
            connection.rollback();
            throw e;
        } finally {
            connection.setAutoCommit(true);
        }
    }

    static final class NoStock extends RuntimeException {
        NoStock(String sku) {
            super("no stock for " + sku + " (unknown SKU or sold out)");
        }
    }

    static String field(String json, String name) {
        Matcher m = Pattern.compile("\"" + Pattern.quote(name) + "\"\\s*:\\s*(\"([^\"]*)\"|(-?\\d+))").matcher(json);
        if (!m.find())
            return null;
        return m.group(2) != null ? m.group(2) : m.group(3);
    }

    // The inbox status of this event for this consumer, its row locked until the transaction ends;
    // null when there is none. Read, never inferred from an affected-row count.
    String lockInboxRow(Connection c, String eventId) throws SQLException {
        try (PreparedStatement s = c.prepareStatement(
                "SELECT status FROM inbox_events WHERE event_id = ? AND consumer_name = ? FOR UPDATE")) {
            s.setString(1, eventId);
            s.setString(2, consumer);
            try (ResultSet r = s.executeQuery()) {
                return r.next() ? r.getString(1) : null;
            }
        }
    }

    Outcome handle(Message m) throws SQLException {
        String eventId = m.headers().get("event_id");
        if (eventId == null || eventId.isEmpty())
            return deadLetter(m, null, "the message has no event_id header");
        String sku = field(m.payload(), "sku");
        String quantityText = field(m.payload(), "quantity");
        String orderId = field(m.payload(), "order_id");
        if (sku == null || quantityText == null || orderId == null)
            return deadLetter(m, eventId, "payload is not an order: " + m.payload());
        int quantity = Integer.parseInt(quantityText);
        String aggregateId = m.headers().getOrDefault("aggregate_id", m.key());
        String traceparent = m.headers().get("traceparent");
        try {
            return transactional(c -> {
                // 1. the claim: lock the inbox row and read its status.
                String status = lockInboxRow(c, eventId);
                if ("PROCESSED".equals(status))
                    return Outcome.DUPLICATE; // processed before: roll back (nothing written), commit the offset
                if (status == null) {
                    // New. A concurrent instance inserting the same event makes this fail with a
                    // duplicate key (or a deadlock): the transaction rolls back and the message is retried.
                    try (PreparedStatement s = c.prepareStatement("INSERT INTO inbox_events (event_id, consumer_name, "
                            + "aggregate_id, status, attempts, processed_at, traceparent) VALUES (?, ?, ?, 'PROCESSED', 1, "
                            + now + ", ?)")) {
                        s.setString(1, eventId);
                        s.setString(2, consumer);
                        s.setString(3, aggregateId);
                        s.setString(4, traceparent);
                        s.executeUpdate();
                    }
                } else {
                    // FAILED: a dead letter replayed by an operator; processed now.
                    try (PreparedStatement s = c.prepareStatement("UPDATE inbox_events SET status = 'PROCESSED', "
                            + "attempts = attempts + 1, processed_at = " + now + ", last_error = NULL, traceparent = ? "
                            + "WHERE event_id = ? AND consumer_name = ?")) {
                        s.setString(1, traceparent);
                        s.setString(2, eventId);
                        s.setString(3, consumer);
                        s.executeUpdate();
                    }
                }
                // 2. the effect, in the same transaction: again read under a lock, not counted.
                long available;
                try (PreparedStatement s = c.prepareStatement(
                        "SELECT available FROM example_stock WHERE sku = ? FOR UPDATE")) {
                    s.setString(1, sku);
                    try (ResultSet r = s.executeQuery()) {
                        available = r.next() ? r.getLong(1) : -1;
                    }
                }
                if (available < quantity)
                    throw new NoStock(sku); // rolls the inbox row back with it
                try (PreparedStatement s = c.prepareStatement(
                        "UPDATE example_stock SET available = available - ? WHERE sku = ?")) {
                    s.setInt(1, quantity);
                    s.setString(2, sku);
                    s.executeUpdate();
                }
                try (PreparedStatement s = c.prepareStatement("INSERT INTO example_reservations (consumer_name, "
                        + "order_id, event_id, sku, quantity) VALUES (?, ?, ?, ?, ?)")) {
                    s.setString(1, consumer);
                    s.setString(2, orderId);
                    s.setString(3, eventId);
                    s.setString(4, sku);
                    s.setInt(5, quantity);
                    s.executeUpdate();
                }
                return Outcome.PROCESSED;
            });
        } catch (NoStock e) {
            return deadLetter(m, eventId, e.getMessage());
        }
    }

    // The consumer gives up on a message: the dead letter and a FAILED inbox row in one new
    // transaction, so that the console, `outboxctl consumers`, `dlq`, `reconcile` and doctor see it.
    Outcome deadLetter(Message m, String eventId, String error) throws SQLException {
        StringBuilder headers = new StringBuilder("{");
        for (Map.Entry<String, String> h : m.headers().entrySet())
            headers.append(headers.length() > 1 ? "," : "").append(json(h.getKey())).append(':').append(json(h.getValue()));
        headers.append('}');
        return transactional(c -> {
            try (PreparedStatement s = c.prepareStatement("INSERT INTO dead_letters (consumer_name, event_id, topic, "
                    + "source_partition, source_offset, message_key, headers, payload, error, attempts) VALUES (?, ?, ?, ?, "
                    + "?, ?, " + (postgres ? "CAST(? AS jsonb)" : "?") + ", ?, ?, 1)")) {
                s.setString(1, consumer);
                s.setString(2, eventId);
                s.setString(3, m.topic());
                s.setInt(4, m.partition());
                s.setLong(5, m.offset());
                s.setString(6, m.key());
                s.setString(7, headers.toString());
                s.setString(8, m.payload());
                s.setString(9, error);
                s.executeUpdate();
            }
            if (eventId != null && lockInboxRow(c, eventId) == null) {
                try (PreparedStatement s = c.prepareStatement("INSERT INTO inbox_events (event_id, consumer_name, "
                        + "aggregate_id, status, attempts, processed_at, last_error, traceparent) VALUES (?, ?, ?, 'FAILED', 1, "
                        + now + ", ?, ?)")) {
                    s.setString(1, eventId);
                    s.setString(2, consumer);
                    s.setString(3, m.headers().getOrDefault("aggregate_id", m.key()));
                    s.setString(4, error);
                    s.setString(5, m.headers().get("traceparent"));
                    s.executeUpdate();
                }
            }
            return Outcome.DEAD;
        });
    }

    static String json(String s) {
        StringBuilder b = new StringBuilder("\"");
        for (char ch : s.toCharArray()) {
            if (ch == '"' || ch == '\\') b.append('\\').append(ch);
            else if (ch < 0x20) b.append(String.format("\\u%04x", (int) ch));
            else b.append(ch);
        }
        return b.append('"').toString();
    }

    void setUp(String topic) throws SQLException {
        try (Statement s = connection.createStatement();
             ResultSet r = s.executeQuery("SELECT COALESCE(MAX(version), 0) FROM outbox_schema_migrations")) {
            r.next();
            if (r.getInt(1) < EXPECTED_SCHEMA)
                throw new IllegalStateException("outbox schema at version " + r.getInt(1) + ", this consumer needs "
                        + EXPECTED_SCHEMA + ": run outboxctl migrate");
        }
        transactional(c -> {
            try (Statement s = c.createStatement()) {
                s.execute("CREATE TABLE IF NOT EXISTS example_stock (sku VARCHAR(64) PRIMARY KEY, available BIGINT NOT NULL)");
                s.execute("CREATE TABLE IF NOT EXISTS example_reservations (consumer_name VARCHAR(191) NOT NULL, "
                        + "order_id VARCHAR(64) NOT NULL, event_id VARCHAR(191) NOT NULL, sku VARCHAR(64) NOT NULL, "
                        + "quantity INTEGER NOT NULL, PRIMARY KEY (consumer_name, order_id))");
            }
            for (String sku : SKUS) {
                try (PreparedStatement s = c.prepareStatement(postgres
                        ? "INSERT INTO example_stock (sku, available) VALUES (?, 1000000000) ON CONFLICT (sku) DO NOTHING"
                        : "INSERT INTO example_stock (sku, available) VALUES (?, 1000000000) "
                          + "ON DUPLICATE KEY UPDATE available = available")) {
                    s.setString(1, sku);
                    s.executeUpdate();
                }
            }
            // The topics this consumer reads: reconcile and doctor's `unconsumed` then count only
            // their events as unprocessed by it (docs/contract.md, "The dead letter").
            String topics = "[" + json(topic) + "]";
            try (PreparedStatement s = c.prepareStatement(postgres
                    ? "INSERT INTO outbox_consumer_counters (consumer_name, duplicates_total, topics) VALUES (?, 0, ?) "
                      + "ON CONFLICT (consumer_name) DO UPDATE SET topics = EXCLUDED.topics"
                    : "INSERT INTO outbox_consumer_counters (consumer_name, duplicates_total, topics) VALUES (?, 0, ?) "
                      + "ON DUPLICATE KEY UPDATE topics = VALUES(topics)")) {
                s.setString(1, consumer);
                s.setString(2, topics);
                s.executeUpdate();
            }
            return null;
        });
    }

    static String option(String[] args, String name, String fallback) {
        for (int i = 0; i + 1 < args.length; i++)
            if (args[i].equals("--" + name))
                return args[i + 1];
        return fallback;
    }

    static boolean isTransient(SQLException e) {
        String state = e.getSQLState() == null ? "" : e.getSQLState();
        // 40001/40P01: serialization failure or deadlock; 23000/23505: a concurrent instance claimed it
        // first (the retry then reads its row); 08xxx: the connection.
        return state.startsWith("40") || state.equals("23000") || state.equals("23505") || state.startsWith("08");
    }

    public static void main(String[] args) throws Exception {
        String url = option(args, "db", null);
        if (url == null) {
            System.err.println("usage: kcat … | InventoryConsumer --db JDBC_URL [--consumer NAME] [--topic T]");
            System.exit(2);
        }
        String name = option(args, "consumer", "inventory-java");
        String topic = option(args, "topic", "orders");
        int processed = 0, duplicates = 0, dead = 0;
        try (Connection connection = DriverManager.getConnection(url);
             BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8))) {
            InventoryConsumer consumer = new InventoryConsumer(connection, name);
            consumer.setUp(topic);
            String line;
            while ((line = in.readLine()) != null) {
                Message m = Message.parse(line);
                if (m == null)
                    continue;
                // A transient failure: retried in process (at most 5 times), so that the message is
                // not skipped; the offset is committed only after handle() returned.
                Outcome outcome = null;
                for (int attempt = 1; outcome == null; attempt++) {
                    try {
                        outcome = consumer.handle(m);
                    } catch (SQLException e) {
                        if (attempt >= 5 || !isTransient(e))
                            throw e;
                        Thread.sleep(100L * attempt);
                    }
                }
                switch (outcome) {
                    case PROCESSED -> processed++;
                    case DUPLICATE -> duplicates++;
                    case DEAD -> dead++;
                }
            }
        }
        System.out.println("InventoryConsumer: " + processed + " processed, " + duplicates + " duplicate(s), " + dead
                + " dead-lettered");
    }
}
