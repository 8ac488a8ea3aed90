# datetime: the timedelta that torch.distributed's timeouts are given as (init_process_group,
# TCPStore). Dates and times are not provided.


class timedelta:
    def __init__(self, days=0, seconds=0, microseconds=0, milliseconds=0, minutes=0, hours=0, weeks=0):
        total = (((weeks * 7 + days) * 24 + hours) * 60 + minutes) * 60 + seconds
        micro = round(total * 1000000 + milliseconds * 1000 + microseconds)
        self.days = micro // 86400000000
        micro -= self.days * 86400000000
        self.seconds = micro // 1000000
        self.microseconds = micro - self.seconds * 1000000

    def _micro(self):
        return (self.days * 86400 + self.seconds) * 1000000 + self.microseconds

    def total_seconds(self):
        return self._micro() / 1000000

    def __add__(self, other):
        return timedelta(microseconds=self._micro() + other._micro())

    def __sub__(self, other):
        return timedelta(microseconds=self._micro() - other._micro())

    def __mul__(self, factor):
        return timedelta(microseconds=self._micro() * factor)

    def __eq__(self, other):
        return isinstance(other, timedelta) and self._micro() == other._micro()

    def __lt__(self, other):
        return self._micro() < other._micro()

    def __le__(self, other):
        return self._micro() <= other._micro()

    def __hash__(self):
        return hash(self._micro())

    def __repr__(self):
        fields = []
        if self.days:
            fields.append(f"days={self.days}")
        if self.seconds:
            fields.append(f"seconds={self.seconds}")
        if self.microseconds:
            fields.append(f"microseconds={self.microseconds}")
        return "datetime.timedelta(" + ", ".join(fields) + ")"

    def __str__(self):
        minutes, seconds = divmod(self.seconds, 60)
        hours, minutes = divmod(minutes, 60)
        text = f"{hours}:{minutes:02d}:{seconds:02d}"
        if self.microseconds:
            text += f".{self.microseconds:06d}"
        if self.days:
            text = f"{self.days} day{'s' if abs(self.days) != 1 else ''}, " + text
        return text
