#pragma once
// A TCP key-value store with c10d TCPStore's semantics: one process hosts it (rank 0 at
// MASTER_ADDR:MASTER_PORT, or the launcher), every process talks to it as a client. get and wait
// block until the keys exist or the timeout passes; add counts atomically. It is also the store
// Gloo's rendezvous exchanges addresses through (Gloo ships none over TCP).
#include <chrono>
#include <condition_variable>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include <gloo/rendezvous/store.h>

#include "libcompiler/distributed/socket_stream.h"

namespace kiln::distributed {

// The hosting half: a thread accepting clients, one thread per client serving its requests.
class TcpStoreServer {
 public:
  // Listens on `port` (0: a free port, port() says which).
  explicit TcpStoreServer(int port);
  ~TcpStoreServer();
  TcpStoreServer(const TcpStoreServer&) = delete;
  TcpStoreServer& operator=(const TcpStoreServer&) = delete;

  int port() const { return listener_.port(); }

 private:
  void accept_clients();
  void serve(SocketStream& client);

  ListeningSocket listener_;
  std::mutex mutex_;
  std::condition_variable changed_;
  std::map<std::string, std::string> data_;
  std::vector<std::shared_ptr<SocketStream>> clients_;
  std::vector<std::thread> client_threads_;
  bool stopping_ = false;
  std::thread acceptor_;
};

struct TcpStoreOptions {
  std::string host = "127.0.0.1";
  int port = 29500;
  bool is_master = false;
  // Clients expected (world size); with wait_for_workers, the master's constructor waits for them.
  int world_size = -1;
  bool wait_for_workers = true;
  std::chrono::milliseconds timeout = std::chrono::minutes(5);
};

class TcpStore : public gloo::rendezvous::Store {
 public:
  explicit TcpStore(const TcpStoreOptions& options);
  ~TcpStore() override;

  void set(const std::string& key, const std::vector<char>& value) override;
  std::vector<char> get(const std::string& key) override;
  void wait(const std::vector<std::string>& keys) override { wait(keys, timeout_); }
  void wait(const std::vector<std::string>& keys, const std::chrono::milliseconds& timeout) override;

  void set(const std::string& key, const std::string& value);
  std::string get_string(const std::string& key);
  // The counter at `key` (a decimal string, 0 when absent) plus `delta`, stored and returned.
  int64_t add(const std::string& key, int64_t delta);
  bool check(const std::vector<std::string>& keys);
  bool delete_key(const std::string& key);
  int64_t num_keys();

  std::chrono::milliseconds timeout() const { return timeout_; }
  void set_timeout(std::chrono::milliseconds timeout) { timeout_ = timeout; }
  const std::string& host() const { return host_; }
  int port() const { return port_; }

 private:
  // One request and its reply, under the lock: several threads (a collective's worker, the
  // interpreter) may share the store.
  template <typename Request, typename Reply>
  auto exchange(Request&& request, Reply&& reply);

  std::unique_ptr<TcpStoreServer> server_;  // when this process hosts the store
  std::mutex mutex_;
  SocketStream socket_;
  std::string host_;
  int port_;
  std::chrono::milliseconds timeout_;
};

}  // namespace kiln::distributed
