class Module:
    def __init__(self):
        pass

__all__ = ["Module"]
