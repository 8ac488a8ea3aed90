# torch.fx: importable, as repro files import it (the GraphModule, Graph and Node that script
# backends receive are native: libcompiler/backends/fx_graph_module.cpp).
