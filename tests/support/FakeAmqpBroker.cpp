#include "tests/support/FakeAmqpBroker.h"

#include <QTcpSocket>
#include <QtEndian>
#include <sys/socket.h>
#include <utility>

namespace outbox::test {

namespace {

QByteArray u16(quint16 v)
{
    QByteArray b(2, '\0');
    qToBigEndian(v, b.data());
    return b;
}

QByteArray u32(quint32 v)
{
    QByteArray b(4, '\0');
    qToBigEndian(v, b.data());
    return b;
}

QByteArray u64(quint64 v)
{
    QByteArray b(8, '\0');
    qToBigEndian(v, b.data());
    return b;
}

QByteArray method(quint16 classId, quint16 methodId, const QByteArray& arguments = {})
{
    return u16(classId) + u16(methodId) + arguments;
}

QByteArray encodeFrame(quint8 type, quint16 channel, const QByteArray& payload)
{
    return QByteArray(1, char(type)) + u16(channel) + u32(quint32(payload.size())) + payload + '\xCE';
}

QByteArray longString(const QByteArray& s)
{
    return u32(quint32(s.size())) + s;
}

// Connection.Start: 0-9, no server properties, PLAIN, en_US.
QByteArray connectionStart()
{
    return encodeFrame(
        1, 0, method(10, 10, QByteArray("\x00\x09", 2) + u32(0) + longString("PLAIN") + longString("en_US")));
}

} // namespace

FakeAmqpBroker::FakeAmqpBroker(Behaviour behaviour, int n, QObject* parent)
    : QObject(parent), m_behaviour(behaviour), m_n(n)
{
    QObject::connect(&m_server, &QTcpServer::newConnection, this, &FakeAmqpBroker::accept);
    if (!m_server.listen(QHostAddress::LocalHost, 0))
        qFatal("fake broker: cannot listen: %s", qPrintable(m_server.errorString()));
}

FakeAmqpBroker::~FakeAmqpBroker()
{
    const QHash<QTcpSocket*, Peer> peers = std::exchange(m_peers, {});
    for (auto it = peers.begin(); it != peers.end(); ++it) {
        delete it->timer;
        QObject::disconnect(it.key(), nullptr, this, nullptr); // no handler touches m_peers any more
        it.key()->abort();
        delete it.key();
    }
}

QString FakeAmqpBroker::url() const
{
    return QStringLiteral("amqp://guest@127.0.0.1:%1/%2f").arg(port());
}

void FakeAmqpBroker::accept()
{
    while (QTcpSocket* socket = m_server.nextPendingConnection()) {
        ++m_connections;
        m_peers.insert(socket, Peer{});
        QObject::connect(socket, &QTcpSocket::readyRead, this, [this, socket] { read(socket); });
        QObject::connect(socket, &QTcpSocket::disconnected, this, [this, socket] {
            auto it = m_peers.find(socket);
            if (it != m_peers.end()) {
                delete it->timer;
                m_peers.erase(it);
            }
            socket->deleteLater();
        });
    }
}

void FakeAmqpBroker::read(QTcpSocket* socket)
{
    auto it = m_peers.find(socket);
    if (it == m_peers.end())
        return;
    Peer& peer = *it;
    if (m_behaviour == Behaviour::Stall && peer.ready)
        return; // reads nothing more: the client's socket buffer fills, its writes block
    if (m_behaviour == Behaviour::Trickle && peer.headerSeen) {
        socket->readAll(); // answers nothing but the trickle
        return;
    }
    peer.in += socket->readAll();
    if (!peer.headerSeen) {
        if (peer.in.size() < 8)
            return;
        peer.in.remove(0, 8); // "AMQP\0\0\x09\x01"
        peer.headerSeen = true;
        if (m_behaviour == Behaviour::Trickle) {
            const QByteArray start = connectionStart();
            peer.timer = new QTimer;
            QObject::connect(peer.timer, &QTimer::timeout, this, [this, socket, start] {
                auto p = m_peers.find(socket);
                if (p == m_peers.end() || p->trickled >= start.size())
                    return;
                socket->write(start.mid(p->trickled++, 1));
            });
            peer.timer->start(1000);
            return;
        }
        socket->write(connectionStart());
    }
    // Frames: type (1), channel (2), size (4), payload, 0xCE.
    while (peer.in.size() >= 7) {
        const quint8 type = quint8(peer.in.at(0));
        const quint16 channel = qFromBigEndian<quint16>(peer.in.constData() + 1);
        const quint32 size = qFromBigEndian<quint32>(peer.in.constData() + 3);
        if (quint32(peer.in.size()) < 7 + size + 1)
            return;
        const QByteArray payload = peer.in.mid(7, int(size));
        peer.in.remove(0, int(7 + size + 1));
        frame(socket, peer, type, channel, payload);
        if (!m_peers.contains(socket))
            return; // reset
        if (m_behaviour == Behaviour::Stall && peer.ready)
            return;
    }
}

void FakeAmqpBroker::frame(QTcpSocket* socket, Peer& peer, quint8 type, quint16 channel,
                           const QByteArray& payload)
{
    if (type != 1 || payload.size() < 4)
        return; // content headers and bodies of publishes, heartbeats
    const quint16 classId = qFromBigEndian<quint16>(payload.constData());
    const quint16 methodId = qFromBigEndian<quint16>(payload.constData() + 2);
    if (classId == 10 && methodId == 11) // Start-Ok: tune (no channel limit, 128 KiB frames, no heartbeat)
        socket->write(encodeFrame(1, 0, method(10, 30, u16(0) + u32(131072) + u16(0))));
    else if (classId == 10 && methodId == 40) // Connection.Open: Open-Ok
        socket->write(encodeFrame(1, 0, method(10, 41, QByteArray(1, '\0'))));
    else if (classId == 20 && methodId == 10) // Channel.Open: Open-Ok
        socket->write(encodeFrame(1, channel, method(20, 11, u32(0))));
    else if (classId == 85 && methodId == 10) { // Confirm.Select: Select-Ok
        socket->write(encodeFrame(1, channel, method(85, 11)));
        peer.ready = true;
        if (m_behaviour == Behaviour::Stall)
            socket->setReadBufferSize(1); // Qt stops taking bytes off the kernel's buffer too
        if (m_behaviour == Behaviour::Flood)
            flood(socket);
    } else if (classId == 10 && methodId == 50) { // Connection.Close: Close-Ok
        socket->write(encodeFrame(1, 0, method(10, 51)));
        socket->disconnectFromHost();
    } else if (classId == 60 && methodId == 40) { // Basic.Publish
        ++m_publishes;
        if (!m_sinceFirstPublish.isValid())
            m_sinceFirstPublish.start();
        if (m_behaviour == Behaviour::NackFor) {
            // Basic.Nack (60, 120): delivery tag, then multiple and requeue bits; Basic.Ack (60, 80).
            const bool nack = m_sinceFirstPublish.elapsed() < m_n;
            socket->write(encodeFrame(
                1, channel, method(60, nack ? 120 : 80, u64(peer.nextTag++) + QByteArray(1, '\0'))));
            ++(nack ? m_nacked : m_acked);
            return;
        }
        if (m_behaviour == Behaviour::HugeFrameAfter) {
            if (peer.resetting)
                return;
            if (++peer.publishes > m_n) {
                // A method frame's header that announces 2 GiB, far above the 128 KiB agreed in Tune.
                peer.resetting = true;
                ++m_resets;
                socket->write(QByteArray(1, '\x01') + u16(channel) + u32(0x80000000u));
                return;
            }
            socket->write(encodeFrame(1, channel, method(60, 80, u64(peer.nextTag++) + QByteArray(1, '\0'))));
            ++m_acked;
            return;
        }
        if (m_behaviour != Behaviour::ResetAfter)
            return;
        if (peer.resetting)
            return;
        if (++peer.publishes > m_n) {
            // A moment later, as a proxy that cuts connections would: the acks already written
            // reach the client first (a reset discards what its socket has not read yet).
            peer.resetting = true;
            ++m_resets;
            QTimer::singleShot(300, this, [this, socket] {
                auto it = m_peers.find(socket);
                if (it == m_peers.end())
                    return;
                delete it->timer;
                m_peers.erase(it);
                struct linger reset
                {
                    1, 0
                }; // close with RST, not FIN
                (void)::setsockopt(int(socket->socketDescriptor()), SOL_SOCKET, SO_LINGER, &reset,
                                   sizeof reset);
                socket->abort();
                socket->deleteLater();
            });
            return;
        }
        socket->write(encodeFrame(1, channel, method(60, 80, u64(peer.nextTag++) + QByteArray(1, '\0'))));
        ++m_acked;
    }
}

void FakeAmqpBroker::flood(QTcpSocket* socket)
{
    // Heartbeat frames as fast as the client reads them, for as long as it stays connected.
    const QByteArray beat = encodeFrame(8, 0, {});
    QByteArray chunk;
    for (int i = 0; i < 8192; ++i)
        chunk += beat;
    auto* timer = new QTimer;
    m_peers[socket].timer = timer;
    QObject::connect(timer, &QTimer::timeout, this, [socket, chunk] {
        if (socket->bytesToWrite() < 4 * chunk.size())
            socket->write(chunk);
    });
    timer->start(0);
}

} // namespace outbox::test
