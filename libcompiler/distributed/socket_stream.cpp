#include "libcompiler/distributed/socket_stream.h"

#include <arpa/inet.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <thread>

namespace kiln::distributed {

namespace {

std::string system_error(const std::string& what) { return what + ": " + std::strerror(errno); }

}  // namespace

SocketStream::~SocketStream() {
  if (fd_ >= 0) ::close(fd_);
}

SocketStream& SocketStream::operator=(SocketStream&& other) noexcept {
  if (this != &other) {
    if (fd_ >= 0) ::close(fd_);
    fd_ = other.fd_;
    other.fd_ = -1;
  }
  return *this;
}

SocketStream SocketStream::connect(const std::string& host, int port, Clock::time_point deadline) {
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  const std::string port_text = std::to_string(port);
  // The server may not be up yet (rank 0 starts it while the others already connect): retry
  // with a short pause, as c10d's TCPStore client does, until the deadline.
  for (;;) {
    addrinfo* found = nullptr;
    if (::getaddrinfo(host.c_str(), port_text.c_str(), &hints, &found) == 0) {
      for (addrinfo* a = found; a; a = a->ai_next) {
        const int fd = ::socket(a->ai_family, a->ai_socktype | SOCK_CLOEXEC, a->ai_protocol);
        if (fd < 0) continue;
        if (::connect(fd, a->ai_addr, a->ai_addrlen) == 0) {
          ::freeaddrinfo(found);
          const int one = 1;
          ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
          return SocketStream(fd);
        }
        ::close(fd);
      }
      ::freeaddrinfo(found);
    }
    if (Clock::now() >= deadline)
      throw SocketTimeout("The client socket has timed out while trying to connect to (" + host + ", " + port_text + ").");
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
}

void SocketStream::shutdown() {
  if (fd_ >= 0) ::shutdown(fd_, SHUT_RDWR);
}

void SocketStream::write_bytes(const void* data, size_t size) {
  const char* p = static_cast<const char*>(data);
  while (size > 0) {
    const ssize_t n = ::send(fd_, p, size, MSG_NOSIGNAL);
    if (n < 0) {
      if (errno == EINTR) continue;
      throw SocketError(system_error("send"));
    }
    p += n;
    size -= static_cast<size_t>(n);
  }
}

void SocketStream::read_bytes(void* data, size_t size, Clock::time_point deadline) {
  char* p = static_cast<char*>(data);
  while (size > 0) {
    int wait_ms = -1;
    if (deadline != Clock::time_point::max()) {
      const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
      if (left <= 0) throw SocketTimeout("timed out reading from the socket");
      wait_ms = static_cast<int>(std::min<int64_t>(left, 1 << 30));
    }
    pollfd poll_fd{fd_, POLLIN, 0};
    const int ready = ::poll(&poll_fd, 1, wait_ms);
    if (ready < 0) {
      if (errno == EINTR) continue;
      throw SocketError(system_error("poll"));
    }
    if (ready == 0) continue;  // the deadline check above ends it
    const ssize_t n = ::recv(fd_, p, size, 0);
    if (n == 0) throw SocketError("Connection closed by peer");
    if (n < 0) {
      if (errno == EINTR || errno == EAGAIN) continue;
      throw SocketError(system_error("recv"));
    }
    p += n;
    size -= static_cast<size_t>(n);
  }
}

void SocketStream::write_string(const std::string& value) {
  write_i64(static_cast<int64_t>(value.size()));
  write_bytes(value.data(), value.size());
}

uint8_t SocketStream::read_u8(Clock::time_point deadline) {
  uint8_t value = 0;
  read_bytes(&value, 1, deadline);
  return value;
}

int64_t SocketStream::read_i64(Clock::time_point deadline) {
  int64_t value = 0;
  read_bytes(&value, sizeof value, deadline);
  return value;
}

std::string SocketStream::read_string(Clock::time_point deadline) {
  const int64_t size = read_i64(deadline);
  if (size < 0 || size > (int64_t{1} << 32)) throw SocketError("malformed store message");
  std::string value(static_cast<size_t>(size), '\0');
  read_bytes(value.data(), value.size(), deadline);
  return value;
}

ListeningSocket::ListeningSocket(int port) {
  fd_ = ::socket(AF_INET6, SOCK_STREAM | SOCK_CLOEXEC, 0);
  const bool dual_stack = fd_ >= 0;
  if (!dual_stack) fd_ = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd_ < 0) throw SocketError(system_error("socket"));
  const int one = 1, zero = 0;
  ::setsockopt(fd_, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
  int bound;
  if (dual_stack) {
    ::setsockopt(fd_, IPPROTO_IPV6, IPV6_V6ONLY, &zero, sizeof zero);
    sockaddr_in6 address{};
    address.sin6_family = AF_INET6;
    address.sin6_addr = in6addr_any;
    address.sin6_port = htons(static_cast<uint16_t>(port));
    bound = ::bind(fd_, reinterpret_cast<sockaddr*>(&address), sizeof address);
  } else {
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_ANY);
    address.sin_port = htons(static_cast<uint16_t>(port));
    bound = ::bind(fd_, reinterpret_cast<sockaddr*>(&address), sizeof address);
  }
  if (bound != 0 || ::listen(fd_, 128) != 0) {
    const std::string message = system_error("bind to port " + std::to_string(port));
    ::close(fd_);
    throw SocketError(message);
  }
  sockaddr_storage actual{};
  socklen_t length = sizeof actual;
  ::getsockname(fd_, reinterpret_cast<sockaddr*>(&actual), &length);
  port_ = actual.ss_family == AF_INET6 ? ntohs(reinterpret_cast<sockaddr_in6&>(actual).sin6_port)
                                       : ntohs(reinterpret_cast<sockaddr_in&>(actual).sin_port);
}

ListeningSocket::~ListeningSocket() { close(); }

SocketStream ListeningSocket::accept() {
  for (;;) {
    const int fd = ::accept4(fd_, nullptr, nullptr, SOCK_CLOEXEC);
    if (fd >= 0) {
      const int one = 1;
      ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
      return SocketStream(fd);
    }
    if (errno == EINTR) continue;
    return SocketStream();
  }
}

void ListeningSocket::close() {
  if (fd_ < 0) return;
  // shutdown wakes a thread blocked in accept(); close alone does not on Linux.
  ::shutdown(fd_, SHUT_RDWR);
  ::close(fd_);
  fd_ = -1;
}

}  // namespace kiln::distributed
