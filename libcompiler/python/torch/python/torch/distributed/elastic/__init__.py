# torch.distributed.elastic: what torchrun's agent shares with scripts (the error summary types).
