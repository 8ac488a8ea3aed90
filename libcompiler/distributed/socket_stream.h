#pragma once
// Blocking TCP sockets with deadlines, for the store's client and server: whole messages are read
// and written, and a wait that passes its deadline or a peer that goes away is an error that says
// which, so that a rank never hangs on a store that died.
#include <chrono>
#include <cstdint>
#include <stdexcept>
#include <string>

namespace kiln::distributed {

using Clock = std::chrono::steady_clock;

// A socket operation that failed: the peer closed the connection, or the system call failed.
struct SocketError : std::runtime_error {
  using std::runtime_error::runtime_error;
};
// A read or a connect that did not finish by its deadline.
struct SocketTimeout : SocketError {
  using SocketError::SocketError;
};

class SocketStream {
 public:
  explicit SocketStream(int fd = -1) : fd_(fd) {}
  ~SocketStream();
  SocketStream(SocketStream&& other) noexcept : fd_(other.fd_) { other.fd_ = -1; }
  SocketStream& operator=(SocketStream&& other) noexcept;
  SocketStream(const SocketStream&) = delete;
  SocketStream& operator=(const SocketStream&) = delete;

  // Connects to host:port, retrying while the server is not listening yet, until `deadline`.
  static SocketStream connect(const std::string& host, int port, Clock::time_point deadline);

  int fd() const { return fd_; }
  // Ends both directions, which wakes a thread blocked reading this socket.
  void shutdown();

  void write_bytes(const void* data, size_t size);
  // Reads exactly `size` bytes; SocketTimeout past `deadline` (Clock::time_point::max(): none).
  void read_bytes(void* data, size_t size, Clock::time_point deadline = Clock::time_point::max());

  void write_u8(uint8_t value) { write_bytes(&value, 1); }
  void write_i64(int64_t value) { write_bytes(&value, sizeof value); }
  void write_string(const std::string& value);
  uint8_t read_u8(Clock::time_point deadline = Clock::time_point::max());
  int64_t read_i64(Clock::time_point deadline = Clock::time_point::max());
  std::string read_string(Clock::time_point deadline = Clock::time_point::max());

 private:
  int fd_;
};

// A listening socket on every interface at `port` (0: a free one the system picks).
class ListeningSocket {
 public:
  explicit ListeningSocket(int port);
  ~ListeningSocket();
  ListeningSocket(const ListeningSocket&) = delete;
  ListeningSocket& operator=(const ListeningSocket&) = delete;

  int port() const { return port_; }
  // The next connection; an invalid stream once close() was called.
  SocketStream accept();
  void close();

 private:
  int fd_;
  int port_;
};

}  // namespace kiln::distributed
