import argparse
import sys

sys.stderr = sys.stdout  # the messages are what this script checks


def show(parser, argv=("-h",)):
    try:
        parser.parse_args(list(argv))
    except SystemExit as e:
        print("exit", e.args)


# ArgumentDefaultsHelpFormatter, groups, mutually exclusive groups, BooleanOptionalAction.
p = argparse.ArgumentParser(prog="finetune.py", description="""
    Fine-tune a pretrained transformer on a text classification task.
    Supports   mixed precision and gradient accumulation.""",
    formatter_class=argparse.ArgumentDefaultsHelpFormatter)
p.add_argument("model_name_or_path", help="model identifier")
p.add_argument("task", choices=["sst2", "mnli", "qqp"], help="GLUE task")
p.add_argument("extra_files", nargs="*", help="extra files")
opt = p.add_argument_group("optimization", "Optimizer and schedule settings.")
opt.add_argument("--learning-rate", type=float, default=5e-5, help="peak learning rate")
opt.add_argument("--weight-decay", type=float, default=0.0, help="weight decay")
opt.add_argument("--warmup-steps", type=int, default=0, help="linear warmup over this many steps")
opt.add_argument("--scheduler", default="linear", choices=["linear", "cosine"], help="schedule: %(choices)s")
prec = p.add_mutually_exclusive_group()
prec.add_argument("--fp16", action="store_true", help="use fp16")
prec.add_argument("--bf16", action="store_true", help="use bf16")
p.add_argument("--compile", action=argparse.BooleanOptionalAction, default=False, help="torch.compile the model")
p.add_argument("--output-dir", required=True, help="where to write checkpoints and logs of the run")
p.add_argument("--max-seq-length", type=int, default=128, help=argparse.SUPPRESS)
p.add_argument("--gradient-accumulation-steps", "--accum", type=int, default=1, metavar="STEPS",
               help="number of updates steps to accumulate before performing a backward/update pass")
p.add_argument("--seed", type=int, default=42)
p.add_argument("--version", action="version", version="%(prog)s 1.2.3")
show(p)
show(p, ["--version"])
show(p, ["bert", "sst2", "--fp16", "--bf16", "--output-dir", "o"])
ns = p.parse_args(["bert", "mnli", "--output-dir", "out", "--no-compile", "--accum", "4", "--bf16"])
print(ns.compile, ns.gradient_accumulation_steps, ns.bf16, ns.fp16, ns.extra_files, ns.max_seq_length)

# Required exclusive group, nargs variants, metavar tuples, long prog forcing the other wrap.
q = argparse.ArgumentParser(prog="a_really_long_program_name_for_distributed_training_launcher_v2.py",
                            epilog="Report bugs to the issue tracker.")
g = q.add_mutually_exclusive_group(required=True)
g.add_argument("--cpu", action="store_true", help="run on CPU")
g.add_argument("--gpu", type=int, metavar="ID", help="GPU index")
q.add_argument("--size", nargs=2, type=int, metavar=("H", "W"), help="image size")
q.add_argument("--opt-arg", nargs="?", const="c", default="d")
q.add_argument("--many", nargs="*")
q.add_argument("--append", action="append", default=[])
q.add_argument("--const", action="store_const", const=42)
q.add_argument("--plus", nargs="+", metavar="P")
q.add_argument("inputs", nargs="+", help="input files")
q.add_argument("output", help="output file")
show(q)
show(q, [])
show(q, ["a"])
ns = q.parse_args(["--gpu", "1", "x", "y", "z", "--append", "1", "--append", "2", "--opt-arg", "--const"])
print(ns.gpu, ns.inputs, ns.output, ns.append, ns.opt_arg, ns.const, ns.many, ns.size)
ns = q.parse_args(["--cpu", "x", "y", "--size", "224", "256", "--opt-arg", "v", "--many", "--plus", "1", "2"])
print(ns.cpu, ns.size, ns.opt_arg, ns.many, ns.plus)

# RawTextHelpFormatter and a formatter_class lambda with a wider help column.
r = argparse.ArgumentParser(prog="raw", formatter_class=argparse.RawTextHelpFormatter,
                            description="Line one.\n  Line two, indented.\n\nAfter a blank line.")
r.add_argument("--mode", help="one of:\n  a - first\n  b - second")
show(r)
w = argparse.ArgumentParser(prog="wide", formatter_class=lambda prog: argparse.HelpFormatter(prog, max_help_position=40))
w.add_argument("--a-fairly-long-option", help="help text lands in column 40 here")
w.add_argument("-x", help="short")
show(w)
n = argparse.ArgumentParser(prog="nohelp", add_help=False, usage="%(prog)s [options] FILE")
n.add_argument("file")
show(n, [])
n.print_help()
print(repr(n.format_usage()))

# Parents.
base = argparse.ArgumentParser(add_help=False)
base.add_argument("--seed", type=int, default=0)
bg = base.add_argument_group("data")
bg.add_argument("--data-dir", default="./data")
child = argparse.ArgumentParser(prog="child", parents=[base])
child.add_argument("--epochs", type=int, default=1)
show(child)
print(child.parse_args(["--seed", "3"]).seed, child.parse_args([]).data_dir)
