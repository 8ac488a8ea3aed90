# What torchelastic's agent raises when the launcher itself is told to stop (SIGTERM, SIGINT,
# SIGHUP, SIGQUIT): the workers got the same signal first.


class SignalException(Exception):
    def __init__(self, msg, sigval):
        super().__init__(msg)
        self.sigval = sigval
