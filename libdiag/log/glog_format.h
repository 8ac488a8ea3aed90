#pragma once
// PyTorch's default TORCH_LOGS format (TorchLogsFormatter): a glog-style prefix on every line,
//   V1122 08:17:16.229000 431 torch/_dynamo/output_graph.py:2417] [0/0] [__graph_code] TRACED GRAPH
// = severity letter, MMDD, local time with microseconds, pid, path:line, "]", " [<compile id>]"
// inside a compilation, " [__<artifact>]" for an artifact, then a space and one message line;
// under torch.distributed, "[rank<N>]:" before it all.
#include <string>

#include "libdiag/log/log_record.h"

namespace kiln::log {

// The prefix up to and including the artifact tag, without the space before the message.
std::string glog_prefix(const LogRecord& record);
// The whole record: each line of the message behind the prefix, lines joined by '\n' and
// no trailing newline (the output adds it).
std::string format_glog(const LogRecord& record);

}  // namespace kiln::log
