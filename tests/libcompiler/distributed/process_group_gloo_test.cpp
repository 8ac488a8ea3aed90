// ProcessGroupGloo with every rank a thread of this process, over loopback: collectives' results,
// async work, and a rank whose connections close making its peer's collective fail, not hang.
#include <gtest/gtest.h>

#include <functional>
#include <regex>
#include <thread>

#include "libcompiler/distributed/process_group.h"
#include "libcompiler/tensor/factories.h"

namespace kiln::distributed {
namespace {

using namespace std::chrono_literals;
using tensor::Tensor;

std::vector<double> values_of(const Tensor& t) {
  std::vector<double> values;
  for (int64_t i = 0; i < t.numel(); ++i) values.push_back(t.data_ptr<float>()[i]);
  return values;
}

// Runs body(rank, group) on `world` threads, each with its process group over one store.
void with_ranks(int world, const std::function<void(int, ProcessGroup&)>& body,
                std::chrono::milliseconds collective_timeout = 10s) {
  TcpStoreOptions master_options;
  master_options.port = 0;
  master_options.is_master = true;
  master_options.timeout = 10s;
  auto master = std::make_shared<TcpStore>(master_options);
  std::vector<std::thread> threads;
  std::vector<std::string> failures(static_cast<size_t>(world));
  for (int rank = 0; rank < world; ++rank)
    threads.emplace_back([&, rank] {
      try {
        TcpStoreOptions options;
        options.port = master->port();
        options.timeout = 10s;
        ProcessGroupOptions group_options;
        group_options.store = rank == 0 ? master : std::make_shared<TcpStore>(options);
        group_options.store_prefix = "test/";
        group_options.rank = rank;
        group_options.size = world;
        group_options.timeout = collective_timeout;
        std::unique_ptr<ProcessGroup> group = make_process_group("gloo", group_options);
        body(rank, *group);
      } catch (const std::exception& error) {
        failures[static_cast<size_t>(rank)] = error.what();
      }
    });
  for (std::thread& thread : threads) thread.join();
  for (int rank = 0; rank < world; ++rank) EXPECT_EQ(failures[static_cast<size_t>(rank)], "") << "rank " << rank;
}

TEST(ProcessGroupGloo, AllReduceSumAndAverageOverThreeRanks) {
  with_ranks(3, [](int rank, ProcessGroup& group) {
    Tensor sum = tensor::tensor_from_values(std::vector<double>{1.0 + rank, -2.0 * rank}, {2});
    group.allreduce(sum, ReduceOp::SUM)->wait();
    EXPECT_EQ(values_of(sum), (std::vector<double>{6.0, -6.0}));
    Tensor average = tensor::tensor_from_values(std::vector<double>{1.0 + rank}, {1});
    group.allreduce(average, ReduceOp::AVG)->wait();
    EXPECT_EQ(values_of(average), (std::vector<double>{2.0}));
  });
}

TEST(ProcessGroupGloo, BroadcastGatherAndReduceScatter) {
  with_ranks(2, [](int rank, ProcessGroup& group) {
    Tensor t = tensor::tensor_from_values(std::vector<double>{10.0 * rank, 1.0}, {2});
    group.broadcast(t, 1)->wait();
    EXPECT_EQ(values_of(t), (std::vector<double>{10.0, 1.0}));
    Tensor gathered = tensor::zeros({4});
    group.allgather_into_tensor(gathered, tensor::full({2}, tensor::Scalar(double(rank))))->wait();
    EXPECT_EQ(values_of(gathered), (std::vector<double>{0, 0, 1, 1}));
    Tensor part = tensor::zeros({1});
    group.reduce_scatter_tensor(part, tensor::tensor_from_values(std::vector<double>{1.0, 2.0 + rank}, {2}), ReduceOp::MAX)->wait();
    EXPECT_EQ(values_of(part), (std::vector<double>{rank == 0 ? 1.0 : 3.0}));
  });
}

TEST(ProcessGroupGloo, AsyncWorkCompletesInCallOrder) {
  with_ranks(2, [](int, ProcessGroup& group) {
    Tensor a = tensor::ones({1000});
    Tensor b = tensor::ones({10});
    WorkRef first = group.allreduce(a, ReduceOp::SUM);
    WorkRef second = group.allreduce(b, ReduceOp::SUM);
    second->wait();
    EXPECT_TRUE(first->is_completed());
    first->wait();
    EXPECT_EQ(values_of(b)[0], 2.0);
    EXPECT_EQ(values_of(a)[999], 2.0);
  });
}

TEST(ProcessGroupGloo, APeerThatGoesAwayFailsTheCollectiveWithAnError) {
  with_ranks(2, [](int rank, ProcessGroup& group) {
    group.barrier()->wait();
    if (rank == 1) return;  // its group is destroyed: its connections close
    Tensor t = tensor::ones({4});
    try {
      group.allreduce(t, ReduceOp::SUM)->wait();
      ADD_FAILURE() << "the all-reduce without its peer returned";
    } catch (const std::exception& error) {
      // Gloo says "closed" or "reset" depending on when the peer's socket went away.
      EXPECT_TRUE(std::regex_search(error.what(), std::regex("Connection (closed|reset) by peer"))) << error.what();
    }
  });
}

TEST(ProcessGroupGloo, APeerThatDoesNotJoinFailsTheCollectiveAfterTheGroupsTimeout) {
  with_ranks(
      2,
      [](int rank, ProcessGroup& group) {
        if (rank == 1) {
          std::this_thread::sleep_for(1s);  // alive, its connections open, but not reducing
          return;
        }
        Tensor t = tensor::ones({4});
        try {
          group.allreduce(t, ReduceOp::SUM)->wait();
          ADD_FAILURE() << "the all-reduce without its peer returned";
        } catch (const std::exception& error) {
          EXPECT_NE(std::string(error.what()).find("Timed out waiting 500ms"), std::string::npos) << error.what();
        }
      },
      500ms);
}

TEST(ProcessGroupGloo, RejectsWhatPyTorchsGlooRejects) {
  with_ranks(2, [](int, ProcessGroup& group) {
    EXPECT_THROW(group.broadcast(tensor::ones({1}), 2), std::exception);
    EXPECT_THROW(group.allreduce(tensor::ones({1}), ReduceOp::BAND), std::exception);
    EXPECT_THROW(group.allreduce(tensor::ones({1}, tensor::DType::Int64), ReduceOp::AVG), std::exception);
  });
}

}  // namespace
}  // namespace kiln::distributed
