# torch.save / torch.load: the arguments as PyTorch takes them; the checkpoint format itself (a zip
# archive of a protocol-2 pickle and raw storages) is written and read natively.
import torch


def _path_of(f, function):
    if isinstance(f, str):
        return f
    if hasattr(f, "__fspath__"):
        return f.__fspath__()
    raise NotImplementedError(f"kiln's torch.{function} takes a file path (str or os.PathLike); "
                              f"file objects ({type(f).__name__}) are not supported")


def _is_cpu_location(location):
    if location is None:
        return True
    if isinstance(location, str):
        return location == "cpu"
    if isinstance(location, torch.device):
        return location.type == "cpu"
    if isinstance(location, dict):
        return all(_is_cpu_location(target) for target in location.values())
    return False


def save(obj, f, pickle_module=None, pickle_protocol=2, _use_new_zipfile_serialization=True,
         _disable_byteorder_record=False):
    if not _use_new_zipfile_serialization:
        raise NotImplementedError("kiln's torch.save writes the zip format only (_use_new_zipfile_serialization=True)")
    torch._save_checkpoint(obj, _path_of(f, "save"))


def load(f, map_location=None, pickle_module=None, *, weights_only=None, mmap=None, **pickle_load_args):
    if not _is_cpu_location(map_location):
        raise NotImplementedError(f"kiln's torch.load maps storages to the CPU only, not map_location={map_location!r}")
    return torch._load_checkpoint(_path_of(f, "load"), True if weights_only is None else weights_only)
