# torch._dynamo.backends: the backends' Python side (the backends themselves are registered natively).
