# torch._inductor: its config module, and the modes torch.compile accepts.
import torch._inductor.config as config

# The config changes each torch.compile mode stands for, as PyTorch lists them (on the CPU kiln
# acts on max_autotune; CUDA graphs and the lite pipeline change nothing it does).
_lite_mode_options = {
    "fallback_by_default": True,
    "selective_decompose": True,
    "reorder_for_peak_memory": False,
    "reorder_for_compute_comm_overlap": False,
    "triton.reorder_for_reducing_graph_partitions": False,
    "use_pre_grad_passes": False,
    "use_joint_graph_passes": False,
    "use_post_grad_passes": False,
    "use_dce": False,
    "allow_buffer_reuse": False,
}


def list_mode_options(mode=None, dynamic=None):
    mode_options = {
        "default": {},
        "lite": _lite_mode_options,
        "reduce-overhead": {"triton.cudagraphs": True},
        "max-autotune-no-cudagraphs": {"max_autotune": True, "coordinate_descent_tuning": True},
        "max-autotune": {"max_autotune": True, "triton.cudagraphs": True, "coordinate_descent_tuning": True},
    }
    if not mode:
        return mode_options
    if mode not in mode_options:
        raise RuntimeError("Unrecognized mode=" + mode + ", should be one of: " + ", ".join(mode_options.keys()))
    return mode_options[mode]


def list_options():
    return config._option_names()
