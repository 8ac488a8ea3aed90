# torch.distributed.elastic.multiprocessing: the workers' failures (errors/); kiln's launcher runs
# the processes natively (libcompiler/distributed/worker_group.h).
