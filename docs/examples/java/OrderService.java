// Order service in plain JDBC: each order and its OrderCreated event in one transaction, on
// PostgreSQL or MariaDB/MySQL (docs/contract.md). transactional() below is the shape Spring's
// @Transactional gives a service method: one connection, autocommit off, commit on return,
// rollback on any exception. The event row carries its own event_id, a JSON payload and headers
// with the W3C traceparent, the content type and the order's idempotency key; status, attempts,
// leases and sent_at are left to the relay.
//
//   java -cp /usr/share/java/postgresql.jar:/usr/share/java/mariadb-java-client.jar OrderService.java \
//       --db 'jdbc:postgresql://127.0.0.1:5432/outbox?user=outbox' --orders 100
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HexFormat;
import java.util.UUID;

public final class OrderService {
    static final String[] SKUS = {"SKU-1", "SKU-2", "SKU-3", "SKU-4", "SKU-5"};
    // The version of the outbox schema whose columns this writer uses (docs/contract.md, "Schema version").
    static final int EXPECTED_SCHEMA = 1;
    static final SecureRandom RANDOM = new SecureRandom();

    interface Work<T> {
        T run(Connection c) throws SQLException;
    }

    private final Connection connection;
    private final boolean postgres;

    OrderService(Connection connection) throws SQLException {
        this.connection = connection;
        this.postgres = connection.getMetaData().getDatabaseProductName().toLowerCase().contains("postgres");
    }

    // What @Transactional does around a service method.
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

    static String newTraceparent() {
        byte[] trace = new byte[16];
        byte[] span = new byte[8];
        RANDOM.nextBytes(trace);
        RANDOM.nextBytes(span);
        return "00-" + HexFormat.of().formatHex(trace) + "-" + HexFormat.of().formatHex(span) + "-01";
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

    // Writes one outbox event inside the caller's open transaction, never on its own.
    String appendEvent(Connection c, String eventType, String aggregateType, String aggregateId, String topic,
                       String payloadJson, String headersJson) throws SQLException {
        if (c.getAutoCommit())
            throw new IllegalStateException("no transaction is open: write outbox events inside the business "
                    + "transaction, so the change and its event commit or roll back together");
        String eventId = UUID.randomUUID().toString();
        String json = postgres ? "CAST(? AS jsonb)" : "?";
        try (PreparedStatement s = c.prepareStatement("INSERT INTO outbox_events (event_id, event_type, "
                + "aggregate_type, aggregate_id, topic, payload, headers) VALUES (?, ?, ?, ?, ?, " + json + ", "
                + json + ")")) {
            s.setString(1, eventId);
            s.setString(2, eventType);
            s.setString(3, aggregateType);
            s.setString(4, aggregateId);
            s.setString(5, topic);
            s.setString(6, payloadJson);
            s.setString(7, headersJson);
            s.executeUpdate();
        }
        return eventId;
    }

    // One business transaction: the order row and its event. A retried request (same idempotency key)
    // finds its order and writes nothing (returns null).
    String createOrder(String idempotencyKey, String sku, int quantity, String traceparent, String topic)
            throws SQLException {
        return transactional(c -> {
            try (PreparedStatement s = c.prepareStatement("SELECT order_id FROM example_orders WHERE idempotency_key = ?")) {
                s.setString(1, idempotencyKey);
                try (ResultSet r = s.executeQuery()) {
                    if (r.next())
                        return null;
                }
            }
            String orderId = "o-" + UUID.randomUUID();
            long totalCents = 1999L * quantity;
            try (PreparedStatement s = c.prepareStatement("INSERT INTO example_orders (order_id, idempotency_key, "
                    + "sku, quantity, total_cents) VALUES (?, ?, ?, ?, ?)")) {
                s.setString(1, orderId);
                s.setString(2, idempotencyKey);
                s.setString(3, sku);
                s.setInt(4, quantity);
                s.setLong(5, totalCents);
                s.executeUpdate();
            }
            String payload = "{\"order_id\":" + json(orderId) + ",\"sku\":" + json(sku) + ",\"quantity\":" + quantity
                    + ",\"total_cents\":" + totalCents + "}";
            String headers = "{\"traceparent\":" + json(traceparent) + ",\"content-type\":\"application/json\","
                    + "\"idempotency-key\":" + json(idempotencyKey) + "}";
            return appendEvent(c, "OrderCreated", "Order", orderId, topic, payload, headers);
        });
    }

    void setUp() throws SQLException {
        try (Statement s = connection.createStatement();
             ResultSet r = s.executeQuery("SELECT COALESCE(MAX(version), 0) FROM outbox_schema_migrations")) {
            r.next();
            if (r.getInt(1) < EXPECTED_SCHEMA)
                throw new IllegalStateException("outbox schema at version " + r.getInt(1) + ", this service needs "
                        + EXPECTED_SCHEMA + ": run outboxctl migrate");
        }
        try (Statement s = connection.createStatement()) {
            s.execute("CREATE TABLE IF NOT EXISTS example_orders (order_id VARCHAR(64) PRIMARY KEY, "
                    + "idempotency_key VARCHAR(191) NOT NULL UNIQUE, sku VARCHAR(64) NOT NULL, "
                    + "quantity INTEGER NOT NULL, total_cents BIGINT NOT NULL, created_at "
                    + (postgres ? "TIMESTAMPTZ NOT NULL DEFAULT now())"
                                : "DATETIME(6) NOT NULL DEFAULT CURRENT_TIMESTAMP(6))"));
        }
    }

    static String option(String[] args, String name, String fallback) {
        for (int i = 0; i + 1 < args.length; i++)
            if (args[i].equals("--" + name))
                return args[i + 1];
        return fallback;
    }

    public static void main(String[] args) throws Exception {
        String url = option(args, "db", null);
        if (url == null) {
            System.err.println("usage: OrderService --db JDBC_URL [--orders N] [--key-prefix P] [--topic T] "
                    + "[--trace-file FILE]");
            System.exit(2);
        }
        int orders = Integer.parseInt(option(args, "orders", "100"));
        String prefix = option(args, "key-prefix", "java");
        String topic = option(args, "topic", "orders");
        String traceFile = option(args, "trace-file", null);
        try (Connection connection = DriverManager.getConnection(url)) {
            OrderService service = new OrderService(connection);
            service.setUp();
            int created = 0;
            String firstTrace = null;
            for (int i = 1; i <= orders; i++) {
                String traceparent = newTraceparent();
                String eventId = service.createOrder(prefix + "-" + i, SKUS[i % SKUS.length], 1 + i % 3, traceparent,
                        topic);
                if (eventId != null) {
                    created++;
                    if (firstTrace == null)
                        firstTrace = traceparent;
                }
            }
            if (traceFile != null && firstTrace != null)
                Files.writeString(Path.of(traceFile), firstTrace + "\n");
            System.out.println("OrderService: " + created + " order(s) created, " + (orders - created)
                    + " already there");
        }
    }
}
