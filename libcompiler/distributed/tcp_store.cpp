#include "libcompiler/distributed/tcp_store.h"

#include <algorithm>

#include "libcompiler/distributed/dist_error.h"

namespace kiln::distributed {

namespace {

// The requests a client sends; each is answered before the next is read.
enum class StoreCommand : uint8_t { Set, Get, Add, Check, Wait, DeleteKey, NumKeys };
enum class WaitResult : uint8_t { Ready, TimedOut };

// The key c10d's clients count themselves in, so that the master can wait for all of them.
constexpr const char* kJoinedKey = "init/";

std::string keys_text(const std::vector<std::string>& keys) {
  std::string text;
  for (const std::string& key : keys) text += (text.empty() ? "/" : ", /") + key;
  return text;
}

std::string seconds_text(std::chrono::milliseconds timeout) {
  return std::to_string(std::chrono::duration_cast<std::chrono::seconds>(timeout).count());
}

}  // namespace

TcpStoreServer::TcpStoreServer(int port) : listener_(port), acceptor_([this] { accept_clients(); }) {}

TcpStoreServer::~TcpStoreServer() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
    for (auto& client : clients_) client->shutdown();
  }
  changed_.notify_all();
  listener_.close();
  acceptor_.join();
  for (std::thread& thread : client_threads_) thread.join();
}

void TcpStoreServer::accept_clients() {
  for (;;) {
    SocketStream client = listener_.accept();
    std::lock_guard lock(mutex_);
    if (stopping_ || client.fd() < 0) return;
    auto shared = std::make_shared<SocketStream>(std::move(client));
    clients_.push_back(shared);
    client_threads_.emplace_back([this, shared] { serve(*shared); });
  }
}

void TcpStoreServer::serve(SocketStream& client) {
  auto present = [this](const std::vector<std::string>& keys) {
    return std::all_of(keys.begin(), keys.end(), [this](const std::string& k) { return data_.count(k) > 0; });
  };
  // Waits under the lock until every key exists, the deadline passes or the server stops.
  auto wait_for = [&](std::unique_lock<std::mutex>& lock, const std::vector<std::string>& keys, int64_t timeout_ms) {
    const auto deadline = Clock::now() + std::chrono::milliseconds(timeout_ms);
    return changed_.wait_until(lock, deadline, [&] { return stopping_ || present(keys); }) && present(keys);
  };
  try {
    for (;;) {
      const auto command = static_cast<StoreCommand>(client.read_u8());
      switch (command) {
        case StoreCommand::Set: {
          std::string key = client.read_string(), value = client.read_string();
          {
            std::lock_guard lock(mutex_);
            data_[key] = std::move(value);
          }
          changed_.notify_all();
          client.write_u8(0);
          break;
        }
        case StoreCommand::Get: {
          std::vector<std::string> keys{client.read_string()};
          const int64_t timeout_ms = client.read_i64();
          std::unique_lock lock(mutex_);
          if (wait_for(lock, keys, timeout_ms)) {
            const std::string value = data_[keys[0]];
            lock.unlock();
            client.write_u8(static_cast<uint8_t>(WaitResult::Ready));
            client.write_string(value);
          } else {
            lock.unlock();
            client.write_u8(static_cast<uint8_t>(WaitResult::TimedOut));
          }
          break;
        }
        case StoreCommand::Add: {
          const std::string key = client.read_string();
          const int64_t delta = client.read_i64();
          int64_t value;
          {
            std::lock_guard lock(mutex_);
            auto found = data_.find(key);
            value = (found == data_.end() ? 0 : std::stoll(found->second)) + delta;
            data_[key] = std::to_string(value);
          }
          changed_.notify_all();
          client.write_i64(value);
          break;
        }
        case StoreCommand::Check:
        case StoreCommand::Wait: {
          std::vector<std::string> keys(static_cast<size_t>(client.read_i64()));
          for (std::string& key : keys) key = client.read_string();
          const int64_t timeout_ms = command == StoreCommand::Wait ? client.read_i64() : 0;
          std::unique_lock lock(mutex_);
          const bool ready = command == StoreCommand::Check ? present(keys) : wait_for(lock, keys, timeout_ms);
          lock.unlock();
          client.write_u8(static_cast<uint8_t>(ready ? WaitResult::Ready : WaitResult::TimedOut));
          break;
        }
        case StoreCommand::DeleteKey: {
          const std::string key = client.read_string();
          std::lock_guard lock(mutex_);
          client.write_u8(data_.erase(key) > 0 ? 1 : 0);
          break;
        }
        case StoreCommand::NumKeys: {
          std::lock_guard lock(mutex_);
          client.write_i64(static_cast<int64_t>(data_.size()));
          break;
        }
        default: return;  // not a client of this store
      }
    }
  } catch (const SocketError&) {
    // The client went away (its process ended) or the server stops: nothing more to serve.
  }
}

TcpStore::TcpStore(const TcpStoreOptions& options) : host_(options.host), port_(options.port), timeout_(options.timeout) {
  const auto deadline = Clock::now() + timeout_;
  if (options.is_master) {
    try {
      server_ = std::make_unique<TcpStoreServer>(options.port);
    } catch (const SocketError& error) {
      throw DistError(DistErrorKind::Network, std::string("The server socket has failed to listen on any local network address. ") +
                                                  error.what());
    }
    port_ = server_->port();
  }
  try {
    socket_ = SocketStream::connect(options.is_master ? "127.0.0.1" : host_, port_, deadline);
  } catch (const SocketTimeout&) {
    throw DistError(DistErrorKind::Network, "The client socket has timed out after " + std::to_string(timeout_.count()) +
                                                "ms while trying to connect to (" + host_ + ", " + std::to_string(port_) + ").");
  }
  const int64_t joined = add(kJoinedKey, 1);
  if (options.is_master && options.wait_for_workers && options.world_size > 0) {
    int64_t now = joined;
    while (now < options.world_size) {
      if (Clock::now() >= deadline)
        throw DistError(DistErrorKind::Store, "Timed out after " + seconds_text(timeout_) + " seconds waiting for clients. " +
                                                  std::to_string(now) + "/" + std::to_string(options.world_size) + " clients joined.");
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
      now = add(kJoinedKey, 0);
    }
  }
}

TcpStore::~TcpStore() = default;

template <typename Request, typename Reply>
auto TcpStore::exchange(Request&& request, Reply&& reply) {
  std::lock_guard lock(mutex_);
  try {
    request(socket_);
    return reply(socket_);
  } catch (const SocketError& error) {
    throw DistError(DistErrorKind::Network, std::string("failed to reach the store at ") + host_ + ":" + std::to_string(port_) +
                                                ": " + error.what());
  }
}

void TcpStore::set(const std::string& key, const std::string& value) {
  exchange(
      [&](SocketStream& s) {
        s.write_u8(static_cast<uint8_t>(StoreCommand::Set));
        s.write_string(key);
        s.write_string(value);
      },
      [](SocketStream& s) { return s.read_u8(); });
}

void TcpStore::set(const std::string& key, const std::vector<char>& value) { set(key, std::string(value.begin(), value.end())); }

std::string TcpStore::get_string(const std::string& key) {
  const auto timeout = timeout_;
  auto [ready, value] = exchange(
      [&](SocketStream& s) {
        s.write_u8(static_cast<uint8_t>(StoreCommand::Get));
        s.write_string(key);
        s.write_i64(timeout.count());
      },
      [](SocketStream& s) {
        const auto result = static_cast<WaitResult>(s.read_u8());
        return std::pair{result == WaitResult::Ready, result == WaitResult::Ready ? s.read_string() : std::string()};
      });
  if (!ready) throw DistError(DistErrorKind::Store, "wait timeout after " + std::to_string(timeout.count()) + "ms, keys: /" + key);
  return value;
}

std::vector<char> TcpStore::get(const std::string& key) {
  const std::string value = get_string(key);
  return std::vector<char>(value.begin(), value.end());
}

void TcpStore::wait(const std::vector<std::string>& keys, const std::chrono::milliseconds& timeout) {
  const bool ready = exchange(
      [&](SocketStream& s) {
        s.write_u8(static_cast<uint8_t>(StoreCommand::Wait));
        s.write_i64(static_cast<int64_t>(keys.size()));
        for (const std::string& key : keys) s.write_string(key);
        s.write_i64(timeout.count());
      },
      [](SocketStream& s) { return static_cast<WaitResult>(s.read_u8()) == WaitResult::Ready; });
  if (!ready)
    throw DistError(DistErrorKind::Store, "wait timeout after " + std::to_string(timeout.count()) + "ms, keys: " + keys_text(keys));
}

int64_t TcpStore::add(const std::string& key, int64_t delta) {
  return exchange(
      [&](SocketStream& s) {
        s.write_u8(static_cast<uint8_t>(StoreCommand::Add));
        s.write_string(key);
        s.write_i64(delta);
      },
      [](SocketStream& s) { return s.read_i64(); });
}

bool TcpStore::check(const std::vector<std::string>& keys) {
  return exchange(
      [&](SocketStream& s) {
        s.write_u8(static_cast<uint8_t>(StoreCommand::Check));
        s.write_i64(static_cast<int64_t>(keys.size()));
        for (const std::string& key : keys) s.write_string(key);
      },
      [](SocketStream& s) { return static_cast<WaitResult>(s.read_u8()) == WaitResult::Ready; });
}

bool TcpStore::delete_key(const std::string& key) {
  return exchange(
      [&](SocketStream& s) {
        s.write_u8(static_cast<uint8_t>(StoreCommand::DeleteKey));
        s.write_string(key);
      },
      [](SocketStream& s) { return s.read_u8() != 0; });
}

int64_t TcpStore::num_keys() {
  return exchange([](SocketStream& s) { s.write_u8(static_cast<uint8_t>(StoreCommand::NumKeys)); },
                  [](SocketStream& s) { return s.read_i64(); });
}

}  // namespace kiln::distributed
