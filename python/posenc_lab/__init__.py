"""PosEnc Lab's model in PyTorch: the twin of the core's trained model (docs/ARCHITECTURE.md,
"The trained model"), its weights file, and a trainer that scales out with torch.distributed.

  from posenc_lab import PosencModel, ModelConfig
  model = PosencModel.load("copy-rotary.safetensors")
  model.attention([2, 3, 4, 1, 2, 3, 4])   # [L, h, n, n]
"""

from .adamw import AdamW, AdamWOptions, clip_gradients
from .config import ModelConfig, parameter_specs
from .model import PosencModel
from .show import show
from .weights import WeightsError, load, read_weights, write_weights

__all__ = ["AdamW", "AdamWOptions", "clip_gradients", "ModelConfig", "parameter_specs", "PosencModel", "show",
           "WeightsError", "load", "read_weights", "write_weights"]
