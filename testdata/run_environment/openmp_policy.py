# What kiln's process was started with (/proc/self/environ: the environment at exec) and what the
# script sees: OpenMP's wait policy is PASSIVE in the one and the user's own in the other.
import os

initial = open("/proc/self/environ", "rb").read().split(b"\0")
print(b"OMP_WAIT_POLICY=PASSIVE" in initial, os.environ.get("OMP_WAIT_POLICY"), "KILN_OMP_WAIT_POLICY_SET" in os.environ)
