#pragma once

#include "core/broker/kafka/ConsumerLag.h"
#include "core/config/Config.h"
#include "core/diagnosis/DiagnosisOptions.h"
#include "core/support/Result.h"
#include "ui/web/http/ApiToken.h"
#include "ui/web/oidc/OidcSettings.h"

#include <QHostAddress>
#include <QStringList>
#include <QVector>

namespace outbox::web {

// Settings of the web server, from the [web] and [tokens] sections of the configuration
// (core/config: flags > environment > file > defaults):
//
//   [web]
//   listen = 127.0.0.1:8080
//   public_dashboard = false            ; dashboard and /metrics readable without a token
//   sample_interval_ms = 2000
//   mask_fields = card.number, email    ; fields (dotted paths) hidden from viewers in payloads,
//                                       ; headers and keys, and as name=value / "name": value in texts
//   mask_patterns = card-numbers        ; regexes hidden from viewers in every text (the default,
//                                       ; card-numbers, is Luhn-checked 13-19 digit numbers)
//   allowed_origins = https://noc.example.com ; pages besides the server's own that may open /ws
//   tls_cert = /etc/outbox/web.crt
//   tls_key = /etc/outbox/web.key
//   findings_interval_ms = 30000        ; how often the doctor runs for /api/v1/findings and /metrics
//   max_connections_per_address = 64    ; idle / not yet authenticated connections per address
//   max_response_bytes = 33554432       ; one answer; beyond: 503 + Retry-After
//   max_pending_response_bytes = 134217728 ; answers waiting to be sent, all clients together
//   [doctor]                            ; the doctor's thresholds (see DiagnosisOptions)
//   [tokens]
//   wallboard = viewer:<sha256 hex of the secret>
//   alice = operator:<sha256 hex of the secret>
struct WebConfig
{
    static constexpr quint16 DefaultPort = 8080;

    QHostAddress address = QHostAddress(QHostAddress::LocalHost);
    quint16 port = DefaultPort;
    QVector<ApiToken> tokens;
    QStringList maskedFields;
    QStringList maskPatterns = {QStringLiteral("card-numbers")};
    QStringList allowedOrigins; // normalized: scheme://host[:port], lower case
    bool publicDashboard = false;
    QString tlsCertificateFile;
    QString tlsKeyFile;
    QString chartJsFile; // empty: the libjs-chart.js file found at build time
    int sampleIntervalMs = 2000;
    qint64 maxBodyBytes = 1024 * 1024;
    int maxConnectionsPerAddress = 64;                  // idle or not yet authenticated ones
    qint64 maxResponseBytes = 32 * 1024 * 1024;         // one answer (503 + Retry-After beyond)
    qint64 maxPendingResponseBytes = 128 * 1024 * 1024; // answers waiting to be sent, server-wide
    int databaseThreads = 2;
    int relayStaleAfterMs = 30000;    // a relay whose heartbeat is older counts as down
    QStringList unconsumedConsumers;  // [web] reconcile_consumers: outbox_unconsumed_events for these
    ConsumerLag::Options consumerLag; // [kafka] bootstrap set: consumer lag in the API and /metrics
    int findingsIntervalMs = 30000;   // the doctor's runs behind /api/v1/findings, the dashboard, /metrics
    DiagnosisOptions doctor;          // [doctor]
    OidcSettings oidc;                // [oidc], [oidc_groups]: people sign in with the identity provider

    bool tlsEnabled() const { return !tlsCertificateFile.isEmpty(); }
    bool isLoopbackOnly() const;

    // The [web] and [tokens] settings of `config`; a bad entry is a usage error naming where it came from.
    static Result<WebConfig> fromConfig(const config::Config& config);
    // fromConfig() of the file alone (no environment, no flags); a missing file is a usage error.
    static Result<WebConfig> fromFile(const QString& path);
    // "host:port", "[::1]:8080", ":8080" or "8080".
    Status setListen(const QString& text);
    // "https://noc.example.com[:port]" to its normalized form; anything else is a usage error.
    static Result<QString> normalizeOrigin(const QString& text);
    // "viewer:HEX" or "operator:HEX" for the token `name`.
    static Result<ApiToken> parseToken(const QString& name, const QString& value);
};

} // namespace outbox::web
