import tempfile
import logging
import os
import sys

sys.stderr = sys.stdout  # the messages are what this script checks

# A typical training-script setup: named loggers, a console handler on stdout with a custom
# format, a file handler, and basicConfig(force=True).
logging.basicConfig(level=logging.INFO, format="%(levelname)-8s %(name)s | %(message)s", stream=sys.stdout)
log = logging.getLogger("trainer")
log.info("starting run with lr=%g bs=%d", 3e-4, 64)
log.debug("hidden debug")
child = logging.getLogger("trainer.data")
child.warning("slow worker %d", 3)
print(child.parent is log, child.getEffectiveLevel())

logging.basicConfig(level=logging.DEBUG, format="ignored %(message)s")   # no effect: root has a handler
log.debug("still hidden")
logging.basicConfig(level=logging.DEBUG, format="[%(name)s] %(levelname)s: %(message)s", stream=sys.stdout,
                    force=True)
log.debug("visible after force")

# Hierarchy created bottom-up, then the middle.
deep = logging.getLogger("x.y.z")
top = logging.getLogger("x")
mid = logging.getLogger("x.y")
print(deep.parent.name, mid.parent.name, top.parent.name)
mid.setLevel(logging.ERROR)
deep.warning("filtered by x.y level")
deep.error("passes %s", "x.y")

# Handler levels, propagation, multiple handlers.
quiet = logging.getLogger("quiet")
quiet.propagate = False
h = logging.StreamHandler(sys.stdout)
h.setLevel(logging.WARNING)
h.setFormatter(logging.Formatter("QUIET %(levelname)s %(message)s"))
quiet.addHandler(h)
quiet.info("not shown by handler level")
quiet.warning("shown once")
h2 = logging.StreamHandler(sys.stdout)
h2.setFormatter(logging.Formatter("{levelname}|{name}|{message}", style="{"))
quiet.addHandler(h2)
quiet.error("shown twice")
quiet.removeHandler(h)
quiet.error("shown by second only")
print(quiet.hasHandlers(), len(quiet.handlers))

# Filters.
class OnlyEven:
    def filter(self, record):
        return record.args[0] % 2 == 0

quiet.addFilter(OnlyEven())
for i in range(4):
    quiet.error("step %d", i)

f = logging.Filter("trainer")
print(f.filter(logging.makeLogRecord({"name": "trainer.data"})), f.filter(logging.makeLogRecord({"name": "trainerx"})))

# File handler.
path = os.path.join(tempfile.mkdtemp(), "train_log_test.log")
if os.path.exists(path):
    os.remove(path)
fh = logging.FileHandler(path, mode="w")
fh.setFormatter(logging.Formatter("%(levelname)s:%(message)s"))
flog = logging.getLogger("filelog")
flog.propagate = False
flog.addHandler(fh)
flog.warning("line one")
flog.error("line two %s", [1, 2])
fh.close()
with open(path) as fp:
    print(repr(fp.read()))
os.remove(path)

# extra=, exc_info given as an exception, disable().
log.info("with extra", extra={"epoch": 1})
fmt_extra = logging.StreamHandler(sys.stdout)
fmt_extra.setFormatter(logging.Formatter("epoch=%(epoch)s %(message)s"))
elog = logging.getLogger("extra")
elog.propagate = False
elog.addHandler(fmt_extra)
elog.warning("loss went up", extra={"epoch": 7})
try:
    elog.warning("x", extra={"message": 1})
except KeyError as e:
    print("KeyError:", e)
logging.disable(logging.WARNING)
log.warning("disabled")
log.error("error still shown")
logging.disable(logging.NOTSET)
log.warning("enabled again")

# No handlers anywhere: the last-resort handler prints bare messages at WARNING and up.
lonely = logging.getLogger("lonely")
lonely.propagate = False
lonely.info("nothing")
lonely.warning("last resort %d", 1)
adapter = logging.LoggerAdapter(log, {"rank": 0})
adapter.info("through adapter")
