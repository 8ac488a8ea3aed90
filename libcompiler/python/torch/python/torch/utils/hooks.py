# torch.utils.hooks.RemovableHandle: what register_*_hook returns; remove() takes the hook out of
# the dict it was registered in (also as a context manager's exit).
class RemovableHandle:
    next_id = 0

    def __init__(self, hooks_dict):
        self.hooks_dict = hooks_dict
        self.id = RemovableHandle.next_id
        RemovableHandle.next_id += 1

    def remove(self):
        if self.id in self.hooks_dict:
            del self.hooks_dict[self.id]

    def __enter__(self):
        return self

    def __exit__(self, type, value, tb):
        self.remove()
