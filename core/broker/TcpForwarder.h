#pragma once

#include "core/support/Result.h"

#include <QString>
#include <atomic>
#include <memory>
#include <thread>

namespace outbox {

// Accepts connections on 127.0.0.1:port and relays each one's bytes to 127.0.0.1:target and back,
// on a thread of its own: a fixed bootstrap address in front of the embedded broker, whose
// listeners take whatever port the system gives (librdkafka's mock cluster has no port setting).
// A Kafka client reads the cluster's metadata through it and then connects to the brokers' own
// addresses, so only bootstrap connections pass here. At most 64 connections at once, each with a
// 64 KiB buffer per direction: memory stays bounded whatever a client sends.
class TcpForwarder
{
public:
    // Listens before it returns: a port in use or not allowed is this one error.
    static Result<std::unique_ptr<TcpForwarder>> start(quint16 port, quint16 target);
    ~TcpForwarder();
    TcpForwarder(const TcpForwarder&) = delete;
    TcpForwarder& operator=(const TcpForwarder&) = delete;

    quint16 port() const { return m_port; }

private:
    TcpForwarder() = default;
    void run();

    int m_listener = -1;
    int m_wake[2] = {-1, -1}; // a pipe: the destructor writes to end run()
    quint16 m_port = 0;
    quint16 m_target = 0;
    std::thread m_thread;
};

} // namespace outbox
