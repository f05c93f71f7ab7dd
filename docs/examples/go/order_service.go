// Order service: each order and its OrderCreated event in one PostgreSQL transaction
// (docs/contract.md). appendEvent takes a *sql.Tx, so an event cannot be written outside the
// business transaction. The event row carries its own event_id, a JSON payload and headers with the
// W3C traceparent, the content type and the order's idempotency key; status, attempts, leases and
// sent_at are left to the relay.
//
// Built offline with Debian's lib/pq (no module download):
//
//	GO111MODULE=off GOPATH=/usr/share/gocode go run order_service.go -db 'postgres://outbox@127.0.0.1/outbox?sslmode=disable' -orders 100
package main

import (
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"flag"
	"fmt"
	"os"

	_ "github.com/lib/pq"
)

var skus = []string{"SKU-1", "SKU-2", "SKU-3", "SKU-4", "SKU-5"}

// The version of the outbox schema whose columns this writer uses (docs/contract.md, "Schema version").
const expectedSchema = 1

func randomHex(n int) string {
	b := make([]byte, n)
	if _, err := rand.Read(b); err != nil {
		panic(err)
	}
	return hex.EncodeToString(b)
}

func newUUID() string {
	b := make([]byte, 16)
	if _, err := rand.Read(b); err != nil {
		panic(err)
	}
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	h := hex.EncodeToString(b)
	return h[0:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:]
}

func newTraceparent() string { return "00-" + randomHex(16) + "-" + randomHex(8) + "-01" }

type event struct {
	eventType, aggregateType, aggregateID, topic string
	payload                                      interface{}
	headers                                      map[string]string
}

// appendEvent writes one outbox event inside the caller's transaction, never on its own.
func appendEvent(tx *sql.Tx, e event) (string, error) {
	payload, err := json.Marshal(e.payload)
	if err != nil {
		return "", err
	}
	headers, err := json.Marshal(e.headers)
	if err != nil {
		return "", err
	}
	eventID := newUUID()
	var topic interface{}
	if e.topic != "" {
		topic = e.topic
	}
	_, err = tx.Exec(`INSERT INTO outbox_events (event_id, event_type, aggregate_type, aggregate_id, topic, payload, headers)
VALUES ($1, $2, $3, $4, $5, $6::jsonb, $7::jsonb)`, eventID, e.eventType, e.aggregateType, e.aggregateID, topic,
		string(payload), string(headers))
	return eventID, err
}

// createOrder is one business transaction: the order row and its event. A retried request (same
// idempotency key) finds its order and writes nothing (returns "").
func createOrder(db *sql.DB, idempotencyKey, sku string, quantity int, traceparent, topic string) (string, error) {
	tx, err := db.Begin()
	if err != nil {
		return "", err
	}
	defer tx.Rollback() // a no-op after Commit
	var existing string
	err = tx.QueryRow(`SELECT order_id FROM example_orders WHERE idempotency_key = $1`, idempotencyKey).Scan(&existing)
	if err == nil {
		return "", nil
	} else if err != sql.ErrNoRows {
		return "", err
	}
	orderID := "o-" + newUUID()
	totalCents := 1999 * quantity
	if _, err := tx.Exec(`INSERT INTO example_orders (order_id, idempotency_key, sku, quantity, total_cents)
VALUES ($1, $2, $3, $4, $5)`, orderID, idempotencyKey, sku, quantity, totalCents); err != nil {
		return "", err
	}
	eventID, err := appendEvent(tx, event{
		eventType: "OrderCreated", aggregateType: "Order", aggregateID: orderID, topic: topic,
		payload: map[string]interface{}{"order_id": orderID, "sku": sku, "quantity": quantity, "total_cents": totalCents},
		headers: map[string]string{"traceparent": traceparent, "content-type": "application/json",
			"idempotency-key": idempotencyKey},
	})
	if err != nil {
		return "", err
	}
	return eventID, tx.Commit()
}

func run() error {
	dbURL := flag.String("db", "", "postgres://user@host:port/database?sslmode=disable")
	orders := flag.Int("orders", 100, "orders to create")
	prefix := flag.String("key-prefix", "go", "idempotency keys are PREFIX-1 … PREFIX-N")
	topic := flag.String("topic", "orders", "topic of the events")
	traceFile := flag.String("trace-file", "", "write the traceparent of the first order here")
	flag.Parse()
	if *dbURL == "" {
		return fmt.Errorf("-db is required")
	}
	db, err := sql.Open("postgres", *dbURL)
	if err != nil {
		return err
	}
	defer db.Close()
	var version int
	if err := db.QueryRow(`SELECT COALESCE(MAX(version), 0) FROM outbox_schema_migrations`).Scan(&version); err != nil {
		return err
	}
	if version < expectedSchema {
		return fmt.Errorf("outbox schema at version %d, this service needs %d: run outboxctl migrate", version, expectedSchema)
	}
	if _, err := db.Exec(`CREATE TABLE IF NOT EXISTS example_orders (order_id VARCHAR(64) PRIMARY KEY,
idempotency_key VARCHAR(191) NOT NULL UNIQUE, sku VARCHAR(64) NOT NULL, quantity INTEGER NOT NULL,
total_cents BIGINT NOT NULL, created_at TIMESTAMPTZ NOT NULL DEFAULT now())`); err != nil {
		return err
	}
	created, firstTrace := 0, ""
	for i := 1; i <= *orders; i++ {
		traceparent := newTraceparent()
		eventID, err := createOrder(db, fmt.Sprintf("%s-%d", *prefix, i), skus[i%len(skus)], 1+i%3, traceparent, *topic)
		if err != nil {
			return err
		}
		if eventID != "" {
			created++
			if firstTrace == "" {
				firstTrace = traceparent
			}
		}
	}
	if *traceFile != "" && firstTrace != "" {
		if err := os.WriteFile(*traceFile, []byte(firstTrace+"\n"), 0o644); err != nil {
			return err
		}
	}
	fmt.Printf("order_service: %d order(s) created, %d already there\n", created, *orders-created)
	return nil
}

func main() {
	if err := run(); err != nil {
		fmt.Fprintf(os.Stderr, "order_service: %v\n", err)
		os.Exit(1)
	}
}
