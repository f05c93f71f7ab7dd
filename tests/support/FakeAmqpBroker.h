#pragma once

#include <QByteArray>
#include <QElapsedTimer>
#include <QHash>
#include <QObject>
#include <QTcpServer>
#include <QTimer>

class QTcpSocket;

namespace outbox::test {

// A misbehaving AMQP 0-9-1 broker on 127.0.0.1, small enough to read: it speaks the handshake a
// rabbitmq-c client needs (Connection.Start … Open-Ok, Channel.Open-Ok, Confirm.Select-Ok) and then
// misbehaves as told. Runs on the thread that created it (the test's event loop: QTRY_*, qWait).
class FakeAmqpBroker : public QObject
{
    Q_OBJECT
public:
    enum class Behaviour {
        Trickle,        // sends Connection.Start at one byte a second, never more
        Stall,          // completes the handshake, then reads nothing and answers nothing
        Flood,          // completes the handshake, then floods heartbeat frames without pause
        ResetAfter,     // acks publishes, and resets the connection (RST) at publish N + 1 of each connection
        HugeFrameAfter, // acks publishes, and answers publish N + 1 of each connection with the header
                        // of a 2 GiB frame (a connection error for the client), then nothing
        NackFor,        // answers every publish with basic.nack for N ms after the first, then acks
    };

    // `n`: the publishes per connection of ResetAfter and HugeFrameAfter, the milliseconds of NackFor.
    explicit FakeAmqpBroker(Behaviour behaviour, int n = 50, QObject* parent = nullptr);
    ~FakeAmqpBroker() override;
    quint16 port() const { return m_server.serverPort(); }
    // amqp://guest@127.0.0.1:PORT/%2f
    QString url() const;
    int connections() const { return m_connections; }
    int publishes() const { return m_publishes; } // basic.publish frames read
    int acked() const { return m_acked; }         // basic.ack sent
    int nacked() const { return m_nacked; }       // basic.nack sent
    int resets() const { return m_resets; }       // connections reset or sent a huge frame

private:
    struct Peer
    {
        QByteArray in;
        bool headerSeen = false;
        bool ready = false; // confirm.select answered
        bool resetting = false;
        int publishes = 0;
        quint64 nextTag = 1;
        int trickled = 0;
        QTimer* timer = nullptr;
    };
    void accept();
    void read(QTcpSocket* socket);
    void frame(QTcpSocket* socket, Peer& peer, quint8 type, quint16 channel, const QByteArray& payload);
    void flood(QTcpSocket* socket);

    Behaviour m_behaviour;
    int m_n;
    QTcpServer m_server;
    QHash<QTcpSocket*, Peer> m_peers;
    int m_connections = 0;
    int m_publishes = 0;
    int m_acked = 0;
    int m_nacked = 0;
    int m_resets = 0;
    QElapsedTimer m_sinceFirstPublish;
};

} // namespace outbox::test
