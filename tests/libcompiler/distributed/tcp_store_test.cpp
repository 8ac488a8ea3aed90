// The TCP store: c10d TCPStore's semantics between a hosting store and clients of one process.
#include <gtest/gtest.h>

#include <thread>

#include "libcompiler/distributed/dist_error.h"
#include "libcompiler/distributed/tcp_store.h"

namespace kiln::distributed {
namespace {

using namespace std::chrono_literals;

TcpStoreOptions master_options() {
  TcpStoreOptions options;
  options.port = 0;  // a free port
  options.is_master = true;
  options.timeout = 2s;
  return options;
}

TcpStoreOptions client_of(const TcpStore& master) {
  TcpStoreOptions options;
  options.port = master.port();
  options.timeout = 2s;
  return options;
}

TEST(TcpStore, SetGetAddCheckAndDeleteAcrossClients) {
  TcpStore master(master_options());
  TcpStore client(client_of(master));
  master.set("a", std::string("1"));
  EXPECT_EQ(client.get_string("a"), "1");
  EXPECT_EQ(client.add("n", 2), 2);
  EXPECT_EQ(master.add("n", 3), 5);
  EXPECT_EQ(client.get_string("n"), "5");
  EXPECT_TRUE(client.check({"a", "n"}));
  EXPECT_FALSE(client.check({"a", "missing"}));
  EXPECT_EQ(master.num_keys(), 3);  // a, n, and the key clients count themselves in
  EXPECT_TRUE(client.delete_key("a"));
  EXPECT_FALSE(client.delete_key("a"));
}

TEST(TcpStore, GetWaitsForAKeyAnotherClientSetsLater) {
  TcpStore master(master_options());
  TcpStore client(client_of(master));
  std::thread setter([&] {
    std::this_thread::sleep_for(100ms);
    master.set("late", std::string("here"));
  });
  EXPECT_EQ(client.get_string("late"), "here");
  setter.join();
}

TEST(TcpStore, WaitAndGetTimeOutWithPyTorchsMessage) {
  TcpStore master(master_options());
  master.set_timeout(200ms);
  try {
    master.get_string("missing");
    FAIL() << "get of a missing key returned";
  } catch (const DistError& error) {
    EXPECT_EQ(error.kind, DistErrorKind::Store);
    EXPECT_STREQ(error.what(), "wait timeout after 200ms, keys: /missing");
  }
  try {
    master.wait({"x", "y"}, 100ms);
    FAIL() << "wait for missing keys returned";
  } catch (const DistError& error) {
    EXPECT_STREQ(error.what(), "wait timeout after 100ms, keys: /x, /y");
  }
}

TEST(TcpStore, MasterWaitsForItsWorkersThenGivesUp) {
  TcpStoreOptions options = master_options();
  options.world_size = 2;
  options.timeout = 300ms;
  try {
    TcpStore master(options);
    FAIL() << "the master did not wait for its second client";
  } catch (const DistError& error) {
    EXPECT_EQ(error.kind, DistErrorKind::Store);
    EXPECT_NE(std::string(error.what()).find("waiting for clients. 1/2 clients joined."), std::string::npos) << error.what();
  }
}

TEST(TcpStore, ClientOfNoServerFailsWithANetworkError) {
  TcpStoreOptions options;
  {
    TcpStore probe(master_options());
    options.port = probe.port();  // free once the probe is gone
  }
  options.timeout = 200ms;
  try {
    TcpStore client(options);
    FAIL() << "connected to nothing";
  } catch (const DistError& error) {
    EXPECT_EQ(error.kind, DistErrorKind::Network);
    EXPECT_NE(std::string(error.what()).find("The client socket has timed out after 200ms"), std::string::npos) << error.what();
  }
}

TEST(TcpStore, AClientOfAStoreThatWentAwayFailsInsteadOfHanging) {
  auto master = std::make_unique<TcpStore>(master_options());
  TcpStore client(client_of(*master));
  master.reset();
  try {
    client.get_string("anything");
    FAIL() << "a get from a dead store returned";
  } catch (const DistError& error) {
    EXPECT_EQ(error.kind, DistErrorKind::Network);
  }
}

}  // namespace
}  // namespace kiln::distributed
