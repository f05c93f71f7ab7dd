#include "core/broker/TcpForwarder.h"

#include <QByteArray>
#include <algorithm>
#include <arpa/inet.h>
#include <array>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>
#include <vector>

namespace outbox {
namespace {

constexpr size_t MaxConnections = 64;
constexpr size_t BufferBytes = 64 * 1024;

sockaddr_in loopback(quint16 port)
{
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_port = htons(port);
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    return a;
}

// One direction of a connection: bytes read from `from`, not yet written to `to`.
struct Flow
{
    std::array<char, BufferBytes> bytes;
    size_t size = 0;
    bool ended = false;    // `from` said EOF: nothing more to read
    bool shutDown = false; // … and `to` was told, once the bytes were written
};

struct Connection
{
    int client = -1;
    int server = -1;
    Flow up;   // client → server
    Flow down; // server → client
    bool failed = false;

    ~Connection()
    {
        ::close(client);
        ::close(server);
    }
    bool finished() const { return failed || (up.shutDown && down.shutDown); }
};

// Reads what fits from `from` into the flow (false on an error).
bool readInto(int from, Flow& f)
{
    const ssize_t n = ::read(from, f.bytes.data() + f.size, f.bytes.size() - f.size);
    if (n > 0)
        f.size += size_t(n);
    else if (n == 0)
        f.ended = true;
    else if (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR)
        return false;
    return true;
}

// Writes what it can of the flow to `to`, and passes its end on once it is written.
bool writeFrom(int to, Flow& f)
{
    if (f.size > 0) {
        const ssize_t n = ::send(to, f.bytes.data(), f.size, MSG_NOSIGNAL);
        if (n < 0)
            return errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR;
        std::memmove(f.bytes.data(), f.bytes.data() + n, f.size - size_t(n));
        f.size -= size_t(n);
    }
    if (f.ended && f.size == 0 && !f.shutDown) {
        ::shutdown(to, SHUT_WR);
        f.shutDown = true;
    }
    return true;
}

short interest(const Flow& readFrom, const Flow& writeTo)
{
    short events = 0;
    if (!readFrom.ended && readFrom.size < readFrom.bytes.size())
        events |= POLLIN;
    if (writeTo.size > 0)
        events |= POLLOUT;
    return events;
}

} // namespace

Result<std::unique_ptr<TcpForwarder>> TcpForwarder::start(quint16 port, quint16 target)
{
    std::unique_ptr<TcpForwarder> f(new TcpForwarder);
    f->m_target = target;
    f->m_listener = ::socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (f->m_listener < 0)
        return Error::runtime(
            QStringLiteral("cannot open a socket: %1").arg(QString::fromLocal8Bit(strerror(errno))));
    const int yes = 1;
    ::setsockopt(f->m_listener, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes);
    const sockaddr_in at = loopback(port);
    if (::bind(f->m_listener, reinterpret_cast<const sockaddr*>(&at), sizeof at) != 0 ||
        ::listen(f->m_listener, 16) != 0)
        return Error::runtime(QStringLiteral("cannot listen on 127.0.0.1:%1: %2")
                                  .arg(port)
                                  .arg(QString::fromLocal8Bit(strerror(errno))));
    sockaddr_in bound{};
    socklen_t length = sizeof bound;
    ::getsockname(f->m_listener, reinterpret_cast<sockaddr*>(&bound), &length);
    f->m_port = ntohs(bound.sin_port);
    if (::pipe2(f->m_wake, O_CLOEXEC | O_NONBLOCK) != 0)
        return Error::runtime(
            QStringLiteral("cannot open a pipe: %1").arg(QString::fromLocal8Bit(strerror(errno))));
    TcpForwarder* self = f.get();
    f->m_thread = std::thread([self] { self->run(); });
    return f;
}

TcpForwarder::~TcpForwarder()
{
    if (m_thread.joinable()) {
        const char stop = 0;
        [[maybe_unused]] const ssize_t n = ::write(m_wake[1], &stop, 1);
        m_thread.join();
    }
    for (int fd : {m_listener, m_wake[0], m_wake[1]})
        if (fd >= 0)
            ::close(fd);
}

void TcpForwarder::run()
{
    std::vector<std::unique_ptr<Connection>> connections;
    std::vector<pollfd> polled;
    while (true) {
        polled.clear();
        polled.push_back({m_wake[0], POLLIN, 0});
        polled.push_back({m_listener, short(connections.size() < MaxConnections ? POLLIN : 0), 0});
        for (const auto& c : connections) {
            polled.push_back({c->client, interest(c->up, c->down), 0});
            polled.push_back({c->server, interest(c->down, c->up), 0});
        }
        if (::poll(polled.data(), polled.size(), -1) < 0) {
            if (errno == EINTR)
                continue;
            return;
        }
        if (polled[0].revents != 0)
            return;
        for (size_t i = 0; i < connections.size(); ++i) {
            Connection& c = *connections[i];
            const short client = polled[2 + 2 * i].revents;
            const short server = polled[3 + 2 * i].revents;
            if ((client & (POLLIN | POLLHUP | POLLERR)) && !c.up.ended && !readInto(c.client, c.up))
                c.failed = true;
            if ((server & (POLLIN | POLLHUP | POLLERR)) && !c.down.ended && !readInto(c.server, c.down))
                c.failed = true;
            if ((client | server) & POLLERR)
                c.failed = true;
            // Hung up for good (both ways): nothing more can be written to that side.
            if ((client & POLLHUP) && c.up.ended)
                c.down = Flow{{}, 0, true, true};
            if ((server & POLLHUP) && c.down.ended)
                c.up = Flow{{}, 0, true, true};
            if (!c.failed && (!writeFrom(c.server, c.up) || !writeFrom(c.client, c.down)))
                c.failed = true;
        }
        connections.erase(std::remove_if(connections.begin(), connections.end(),
                                         [](const auto& c) { return c->finished(); }),
                          connections.end());
        if (polled[1].revents & POLLIN) {
            const int client = ::accept4(m_listener, nullptr, nullptr, SOCK_NONBLOCK | SOCK_CLOEXEC);
            if (client < 0)
                continue;
            auto c = std::make_unique<Connection>();
            c->client = client;
            c->server = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
            const sockaddr_in to = loopback(m_target);
            // On the loopback interface a connect is answered at once; then non-blocking as the rest.
            if (c->server < 0 || ::connect(c->server, reinterpret_cast<const sockaddr*>(&to), sizeof to) != 0)
                continue; // the client sees its connection closed
            ::fcntl(c->server, F_SETFL, ::fcntl(c->server, F_GETFL) | O_NONBLOCK);
            connections.push_back(std::move(c));
        }
    }
}

} // namespace outbox
