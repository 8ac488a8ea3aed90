import argparse
import sys

sys.argv = ["train.py"] + ['--lr', '3e-4', '--epochs=5', '-b', '64', '--model', 'resnet50', 'data/train', 'data/val', '--tags', 'a', 'b', '--amp', '-vv']


def build_parser():
    parser = argparse.ArgumentParser(description="Train an image classifier on a folder of images.",
                                     epilog="Example: train.py data/train data/val --lr 0.1")
    parser.add_argument("train_dir", help="training data directory")
    parser.add_argument("val_dir", nargs="?", default="data/val", help="validation data directory")
    parser.add_argument("--lr", "--learning-rate", type=float, default=0.1, help="initial learning rate")
    parser.add_argument("--epochs", type=int, default=90, help="number of total epochs to run")
    parser.add_argument("-b", "--batch-size", type=int, default=256, metavar="N",
                        help="mini-batch size (default: 256), this is the total batch size of all GPUs on the "
                             "current node when using Data Parallel or Distributed Data Parallel")
    parser.add_argument("--model", choices=["resnet18", "resnet50", "vit_b_16"], default="resnet18")
    parser.add_argument("--tags", nargs="*", default=[])
    parser.add_argument("--amp", action="store_true", help="use automatic mixed precision")
    parser.add_argument("--no-pin-memory", dest="pin_memory", action="store_false")
    parser.add_argument("-v", "--verbose", action="count", default=0)
    parser.add_argument("--seed", type=int)
    parser.add_argument("--resume", default="", type=str, metavar="PATH", help="path to latest checkpoint")
    return parser


parser = build_parser()
args = parser.parse_args()
print(args.train_dir, args.val_dir, args.lr, args.epochs, args.batch_size, args.model)
print(args.tags, args.amp, args.pin_memory, args.verbose, args.seed, repr(args.resume))
print(type(args).__name__, "lr" in args, "momentum" in args)
print(parser.get_default("lr"), parser.get_default("nothing"))
parser.set_defaults(epochs=10, extra="x")
args2 = parser.parse_args(["only_train"])
print(args2.train_dir, args2.val_dir, args2.epochs, args2.extra)
print(args2 == parser.parse_args(["only_train"]), args2 == args)
print(parser.prog)
parser.print_usage()
parser.print_help()
