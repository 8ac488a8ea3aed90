# torch.distributed.run (torchrun): starts --nproc-per-node worker processes of the script on this
# node with torchrun's environment (RANK, LOCAL_RANK, WORLD_SIZE, MASTER_ADDR, ...), hosts the
# store the workers' env:// rendezvous uses (TORCHELASTIC_USE_AGENT_STORE), and when a worker
# fails stops the others and raises ChildFailedError with torchelastic's summary; a signal to the
# launcher goes on to the workers and raises SignalException.
#   kiln -m torch.distributed.run --nproc-per-node=2 train.py ARGS...
# Elastic membership (--nnodes MIN:MAX with MIN < MAX), restarts and log redirection are not
# provided; the workers run kiln (sys.executable's place) on the script.
import os
import sys
from argparse import REMAINDER, ArgumentParser

import torch._C._distributed_c10d as _c10d
from torch.distributed.elastic.multiprocessing.api import SignalException
from torch.distributed.elastic.multiprocessing.errors import ChildFailedError, ProcessFailure, record

# Seconds a stopped worker has between SIGTERM and SIGKILL, as torchelastic's agent gives.
_SHUTDOWN_GRACE_SECONDS = 30


def get_args_parser():
    parser = ArgumentParser(description="Torch Distributed Elastic Training Launcher")
    parser.add_argument("--nnodes", type=str, default="1:1", help="Number of nodes, or MIN_SIZE:MAX_SIZE.")
    parser.add_argument("--nproc-per-node", "--nproc_per_node", type=str, default="1",
                        help="Number of workers per node; supported values: [auto, cpu, gpu, int].")
    parser.add_argument("--rdzv-backend", "--rdzv_backend", type=str, default="static", help="Rendezvous backend.")
    parser.add_argument("--rdzv-endpoint", "--rdzv_endpoint", type=str, default="",
                        help="Rendezvous backend endpoint; usually in form <host>:<port>.")
    parser.add_argument("--rdzv-id", "--rdzv_id", type=str, default="none", help="User-defined group id.")
    parser.add_argument("--rdzv-conf", "--rdzv_conf", type=str, default="",
                        help="Additional rendezvous configuration (<key1>=<value1>,<key2>=<value2>,...).")
    parser.add_argument("--standalone", action="store_true",
                        help="Start a local standalone rendezvous backend on a free port (single node).")
    parser.add_argument("--max-restarts", "--max_restarts", type=int, default=0,
                        help="Maximum number of worker group restarts before failing.")
    parser.add_argument("--monitor-interval", "--monitor_interval", type=float, default=0.1,
                        help="Interval, in seconds, to monitor the state of workers.")
    parser.add_argument("--start-method", "--start_method", type=str, default="spawn",
                        choices=["spawn", "fork", "forkserver"], help="Multiprocessing start method.")
    parser.add_argument("--role", type=str, default="default", help="User-defined role for the workers.")
    parser.add_argument("-m", "--module", action="store_true",
                        help="Run each process as a module (as python -m) instead of a script.")
    parser.add_argument("--no-python", "--no_python", action="store_true",
                        help="Run the training script directly, without the interpreter.")
    parser.add_argument("--run-path", "--run_path", action="store_true", help="Run the training script with runpy.")
    parser.add_argument("--log-dir", "--log_dir", type=str, default=None, help="Base directory for log files.")
    parser.add_argument("-r", "--redirects", type=str, default="0", help="Redirect std streams into a log file.")
    parser.add_argument("-t", "--tee", type=str, default="0", help="Tee std streams into a log file and the console.")
    parser.add_argument("--local-ranks-filter", "--local_ranks_filter", type=str, default="",
                        help="Only show logs from the given ranks in the console.")
    parser.add_argument("--node-rank", "--node_rank", type=int, default=0, help="Rank of the node for multi-node training.")
    parser.add_argument("--master-addr", "--master_addr", default="127.0.0.1", type=str,
                        help="Address of the master node (rank 0), for static rendezvous.")
    parser.add_argument("--master-port", "--master_port", default=29500, type=int,
                        help="Port on the master node for communication during training, for static rendezvous.")
    parser.add_argument("--local-addr", "--local_addr", default=None, type=str, help="Address of the local node.")
    parser.add_argument("training_script", type=str, help="Full path to the program or script to be launched.")
    parser.add_argument("training_script_args", nargs=REMAINDER)
    return parser


def parse_args(args):
    return get_args_parser().parse_args(args)


def parse_min_max_nnodes(nnodes):
    parts = nnodes.split(":")
    if len(parts) == 1:
        return int(parts[0]), int(parts[0])
    if len(parts) == 2:
        return int(parts[0]), int(parts[1])
    raise RuntimeError(f'nnodes={nnodes} is not in "MIN:MAX" format')


def determine_local_world_size(nproc_per_node):
    try:
        return int(nproc_per_node)
    except ValueError:
        pass
    if nproc_per_node in ("cpu", "auto"):
        return os.cpu_count() or 1
    if nproc_per_node == "gpu":
        if not torch_cuda_available():
            raise ValueError("Cuda is not available.")
        return torch_cuda_device_count()
    raise ValueError(f"Unsupported nproc_per_node value: {nproc_per_node}")


def torch_cuda_available():
    import torch
    return torch.cuda.is_available()


def torch_cuda_device_count():
    import torch
    return torch.cuda.device_count()


def _worker_command(args):
    if args.no_python:
        if args.module:
            raise ValueError("Don't use both the '--no-python' flag and the '--module' flag at the same time.")
        return [args.training_script] + args.training_script_args
    command = [_c10d._current_executable()]
    if args.module:
        command.append("-m")
    return command + [args.training_script] + args.training_script_args


def _error_file(run_dir, local_rank):
    folder = os.path.join(run_dir, "attempt_0", str(local_rank))
    os.makedirs(folder, exist_ok=True)
    return os.path.join(folder, "error.json")


def run(args):
    min_nodes, max_nodes = parse_min_max_nnodes(args.nnodes)
    if min_nodes != max_nodes:
        raise NotImplementedError("kiln's torchrun runs a fixed number of nodes (--nnodes MIN:MAX with MIN < MAX is elastic)")
    nnodes = min_nodes
    nproc = determine_local_world_size(args.nproc_per_node)
    if args.max_restarts:
        raise NotImplementedError("kiln's torchrun does not restart workers (--max-restarts)")
    if args.log_dir or args.redirects != "0" or args.tee != "0" or args.local_ranks_filter:
        raise NotImplementedError("kiln's torchrun does not redirect the workers' output (--log-dir, --redirects, --tee, "
                                  "--local-ranks-filter): they write to the launcher's stdout and stderr")
    run_id = args.rdzv_id
    master_addr, master_port = args.master_addr, args.master_port
    if args.standalone:
        if nnodes != 1:
            raise ValueError("--standalone runs a single node")
        # A store on a free port of this host; torchrun names the run with a fresh id.
        master_addr, master_port = "localhost", 0
        run_id = _c10d._fully_qualified_host_name() + "-" + str(os.getpid())
    if "OMP_NUM_THREADS" not in os.environ and nproc > 1:
        omp_num_threads = "1"
        _c10d._log_warning("torch/distributed/run.py", 851,
                           "\n*****************************************\n"
                           "Setting OMP_NUM_THREADS environment variable for each process to be "
                           f"{omp_num_threads} in default, to avoid your system being overloaded, "
                           "please further tune the variable for optimal performance in "
                           "your application as needed. \n"
                           "*****************************************")
        os.environ["OMP_NUM_THREADS"] = omp_num_threads
    world_size = nnodes * nproc
    # The agent's store: node 0's launcher hosts it; every worker is its client.
    store = None
    if args.node_rank == 0:
        store = _c10d.TCPStore(master_addr, master_port, world_size, True, 300.0, False)
        master_port = store.port
    import tempfile
    run_dir = tempfile.mkdtemp(prefix="torchelastic_")
    command = _worker_command(args)
    workers = []
    for local_rank in range(nproc):
        rank = args.node_rank * nproc + local_rank
        environment = {
            "LOCAL_RANK": str(local_rank),
            "RANK": str(rank),
            "GROUP_RANK": str(args.node_rank),
            "ROLE_RANK": str(rank),
            "ROLE_NAME": args.role,
            "LOCAL_WORLD_SIZE": str(nproc),
            "WORLD_SIZE": str(world_size),
            "GROUP_WORLD_SIZE": str(nnodes),
            "ROLE_WORLD_SIZE": str(world_size),
            "MASTER_ADDR": master_addr,
            "MASTER_PORT": str(master_port),
            "TORCHELASTIC_RESTART_COUNT": "0",
            "TORCHELASTIC_MAX_RESTARTS": str(args.max_restarts),
            "TORCHELASTIC_RUN_ID": run_id,
            "TORCHELASTIC_USE_AGENT_STORE": str(True),
            "TORCH_NCCL_ASYNC_ERROR_HANDLING": os.getenv("TORCH_NCCL_ASYNC_ERROR_HANDLING", "1"),
            "TORCHELASTIC_ERROR_FILE": _error_file(run_dir, local_rank),
        }
        if "OMP_NUM_THREADS" in os.environ:
            environment["OMP_NUM_THREADS"] = os.environ["OMP_NUM_THREADS"]
            # kiln's thread pool reads its own variable: the workers get the same thread count
            # PyTorch's would, so that N ranks do not oversubscribe the cores.
            environment["KILN_NUM_THREADS"] = os.environ.get("KILN_NUM_THREADS", os.environ["OMP_NUM_THREADS"])
        workers.append((command, environment, local_rank, rank))
    failures, signal = _c10d._run_worker_group(workers, args.monitor_interval, _SHUTDOWN_GRACE_SECONDS)
    if signal:
        raise SignalException(f"Process {os.getpid()} got signal: {signal}", sigval=signal)
    if failures:
        summary = {}
        for local_rank, rank, pid, exitcode, time, signal in failures:
            error_file = workers[local_rank][1]["TORCHELASTIC_ERROR_FILE"]
            summary[rank] = ProcessFailure(local_rank, pid, exitcode, error_file, time, signal)
        raise ChildFailedError(name=args.training_script, failures=summary, host=_c10d._fully_qualified_host_name())


@record
def main(args=None):
    args = parse_args(sys.argv[1:] if args is None else args)
    run(args)


if __name__ == "__main__":
    main()
