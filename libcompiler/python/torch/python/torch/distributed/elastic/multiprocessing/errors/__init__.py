# The launcher's failure summary, as torchelastic prints it: ChildFailedError lists every worker
# that did not exit 0, the first observed failure as the root cause, with its time, host, ranks,
# exit code (a signal negated), error file and traceback (or how to get one).
import json
import os

_NOT_AVAILABLE = "<N/A>"
_TRACEBACK_HINT = "To enable traceback see: https://pytorch.org/docs/stable/elastic/errors.html"


class ProcessFailure:
    """One worker that failed; `time` is its end as the summary prints it, `signal` the name of
    the signal that ended it ("" for an exit)."""

    def __init__(self, local_rank, pid, exitcode, error_file, time, signal=""):
        self.local_rank = local_rank
        self.pid = pid
        self.exitcode = exitcode
        self.error_file = error_file
        self.time = time
        self.signal = signal or _NOT_AVAILABLE
        self.message = _TRACEBACK_HINT
        if error_file and os.path.isfile(error_file):
            # A worker run under @record wrote its exception there.
            with open(error_file) as f:
                data = json.load(f)
            message = data.get("message", {})
            if isinstance(message, dict):
                self.message = message.get("extraInfo", {}).get("py_callstack", message.get("message", _NOT_AVAILABLE))
            else:
                self.message = str(message)
        else:
            self.error_file = _NOT_AVAILABLE
            if exitcode < 0:
                self.message = f"Signal {-exitcode} ({self.signal}) received by PID {pid}"

    def signal_name(self):
        return self.signal


class ChildFailedError(Exception):
    """The workers of `name` failed: failures maps each failed worker's global rank to its
    ProcessFailure, in the order the failures were observed (the first is the root cause)."""

    def __init__(self, name, failures, host="localhost"):
        self.name = name
        self.failures = failures
        self.host = host
        super().__init__(self.format_msg())

    def get_first_failure(self):
        rank = next(iter(self.failures))
        return rank, self.failures[rank]

    def _format_failure(self, index, rank, failure):
        message = str(failure.message).replace("\n", "\n  ")
        return (f"[{index}]:\n"
                f"  time      : {failure.time}\n"
                f"  host      : {self.host}\n"
                f"  rank      : {rank} (local_rank: {failure.local_rank})\n"
                f"  exitcode  : {failure.exitcode} (pid: {failure.pid})\n"
                f"  error_file: {failure.error_file}\n"
                f"  traceback : {message}")

    def format_msg(self, boarder_delim="=", section_delim="-"):
        title = f"{self.name} FAILED"
        root_rank = self.get_first_failure()[0]
        root = ""
        others = []
        width = len(title)
        for index, (rank, failure) in enumerate(self.failures.items()):
            text = self._format_failure(index, rank, failure)
            width = max([width] + [len(line) for line in text.split("\n")])
            if rank == root_rank:
                root = text
            else:
                others.append(text)
        width = min(width, 60)
        border = boarder_delim * width
        section = section_delim * width
        other_text = "\n".join(others) if others else "  <NO_OTHER_FAILURES>"
        return (f"\n{border}\n{title}\n{section}\nFailures:\n{other_text}\n{section}\n"
                f"Root Cause (first observed failure):\n{root}\n{border}")


def record(fn, error_handler=None):
    """Decorates a worker's entry point. Kiln's workers do not write error files yet: a failure
    is summarised by its exit code, as PyTorch's are without @record."""
    return fn


__all__ = ["ChildFailedError", "ProcessFailure", "record"]
