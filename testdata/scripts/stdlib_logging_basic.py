import logging
import sys

sys.stderr = sys.stdout  # the messages are what this script checks

logging.info("not shown: root is WARNING and this configures the root logger")
logging.warning("first warning %d%%", 50)
logging.error("error with %s and %r", "str", "repr")
log = logging.getLogger(__name__)
log.warning("from %s", log.name)
log.info("hidden")
log.setLevel(logging.DEBUG)
log.debug("debug now visible? %s", log.isEnabledFor(logging.DEBUG))
print(log.getEffectiveLevel(), logging.getLogger().level, log.propagate, log.parent is logging.root)
print(logging.getLevelName(logging.INFO), logging.getLevelName(15), logging.getLevelName("ERROR"))
print(logging.DEBUG, logging.INFO, logging.WARNING, logging.ERROR, logging.CRITICAL, logging.WARN, logging.FATAL)
print(repr(log), repr(logging.getLogger()), repr(logging.root))
logging.critical("critical %s", {"a": 1})
logging.warning("named %(epoch)d %(loss).3f", {"epoch": 3, "loss": 0.123456})
logging.log(logging.ERROR, "via log()")
try:
    logging.log("INFO", "bad level")
except TypeError as e:
    print("TypeError:", e)
log.setLevel("INFO")
print(log.level)
try:
    log.setLevel("LOUD")
except ValueError as e:
    print("ValueError:", e)
print(logging.getLogger("a.b") is logging.getLogger("a.b"), logging.getLogger("") is logging.root)
