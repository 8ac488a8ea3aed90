# torch.fx.experimental._config: imported by PyTorch's repro files; no setting of it matters to kiln.
