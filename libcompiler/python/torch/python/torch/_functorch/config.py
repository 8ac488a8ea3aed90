# torch._functorch.config: the settings of AOT autograd that scripts and the compiler bisector set.
cse = True
