# torch.autocast("cuda") and GradScaler on the GPU: testdata/scripts/autocast_training.py (the CPU
# suite runs it on the CPU) with its device set to CUDA.
import os
import sys

os.environ["KILN_TEST_DEVICE"] = "cuda"
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "testdata", "scripts"))
import autocast_training  # noqa: E402,F401  (runs on import)
