# The oracle of `minify --python PY` (python_oracle.h), run under PY: real PyTorch runs each
# candidate repro file Kiln writes. Importing torch and compiling the first graph cost seconds, so
# this server pays for them once and forks a child per candidate: each candidate still runs in a
# process of its own, from the same clean state, and a segfault or hang costs only that child.
#
# Protocol, one connection per candidate on the Unix socket named by argv[1]: Kiln sends
# "<path>\n"; the child runs the file as `python <path>` would (its own command), its
# stdout and stderr going to <path>.log, and answers one JSON line
#   {"type": "<exception class>", "message": "<str(exception)>"}
# ("type" empty when the file ran to its end, or exited with status 0). A child that dies (a
# crash in compiled code) closes the connection without answering; one whose Kiln side went away
# (its test timed out, or its answer is no longer needed) ends itself.
import json
import os
import runpy
import signal
import socket
import sys
import threading


def outcome_of(path):
    sys.argv = [path]
    try:
        runpy.run_path(path, run_name="__main__")
    except SystemExit as stop:
        if stop.code in (None, 0):
            return {"type": "", "message": ""}
        return {"type": "SystemExit", "message": str(stop.code)}
    except BaseException as error:
        # A backend's failure as the backend raised it: Kiln's failures are compared that way.
        if type(error).__name__ == "BackendCompilerFailed" and isinstance(getattr(error, "inner_exception", None), BaseException):
            error = error.inner_exception
        return {"type": type(error).__name__, "message": str(error)}
    return {"type": "", "message": ""}


def end_when_kiln_leaves(connection):
    # Kiln never writes after its request: the read returns only when its side has closed.
    connection.recv(1)
    os._exit(124)


def serve(connection):
    request = b""
    while not request.endswith(b"\n"):
        chunk = connection.recv(4096)
        if not chunk:
            os._exit(0)
        request += chunk
    path = request.decode().rstrip("\n")
    threading.Thread(target=end_when_kiln_leaves, args=(connection,), daemon=True).start()
    log = os.open(path + ".log", os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
    os.dup2(log, 1)
    os.dup2(log, 2)
    os.chdir(os.path.dirname(path) or ".")
    result = outcome_of(path)
    sys.stdout.flush()
    sys.stderr.flush()
    connection.sendall((json.dumps(result) + "\n").encode())
    os._exit(0)


def main():
    # A forked child cannot use CUDA once its parent has asked the CUDA runtime for its devices, as
    # importing Inductor does through torch.cuda.is_available(); NVML answers that question without
    # the runtime, so the children can still run candidates on the GPU (checked with PyTorch 2.11
    # on an H200).
    os.environ["PYTORCH_NVML_BASED_CUDA_CHECK"] = "1"
    import torch
    import torch._dynamo
    import torch._dynamo.repro.after_aot
    import torch._dynamo.repro.after_dynamo
    import torch._inductor.compile_fx
    import torch._inductor.config
    from torch._inductor import cpu_vec_isa

    # Compiling in the candidate's own process: a pool of compile workers per child would cost more
    # than it saves on graphs this small.
    torch._inductor.config.compile_threads = 1
    # Inductor learns the CPU's vector ISA by compiling and running test programs (seconds), once
    # per process: here, before the children fork, rather than in each of them.
    cpu_vec_isa.pick_vec_isa()
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind(sys.argv[1])
    listener.listen(64)
    signal.signal(signal.SIGCHLD, signal.SIG_IGN)
    print("ready", flush=True)
    while True:
        connection, _ = listener.accept()
        if os.fork() == 0:
            listener.close()
            signal.signal(signal.SIGCHLD, signal.SIG_DFL)
            serve(connection)
        connection.close()


if __name__ == "__main__":
    main()
