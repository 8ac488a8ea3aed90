import argparse
import sys

sys.stderr = sys.stdout  # the messages are what this script checks


def attempt(parser, argv):
    print("argv:", argv)
    sys.stderr.write("argv: %r\n" % (argv,))
    try:
        ns = parser.parse_args(argv)
    except SystemExit as e:
        print("  SystemExit", e.args)
        return None
    print("  ok", sorted(vars(ns).items()))
    return ns


def positive_int(text):
    value = int(text)
    if value <= 0:
        raise argparse.ArgumentTypeError("%r is not a positive int" % text)
    return value


p = argparse.ArgumentParser(prog="train.py")
p.add_argument("config")
p.add_argument("--epochs", type=int, default=3)
p.add_argument("--lr", type=float, required=True)
p.add_argument("--opt", choices=["sgd", "adam"], default="sgd")
p.add_argument("--workers", type=positive_int, default=2)
p.add_argument("--gpus", type=int, nargs="+")
p.add_argument("--pair", type=int, nargs=2)
p.add_argument("--flag", action="store_true")
p.add_argument("--level", type=int, choices=range(0, 4))

attempt(p, ["cfg.yaml", "--lr", "0.1"])
attempt(p, [])
attempt(p, ["cfg.yaml"])
attempt(p, ["cfg.yaml", "--lr", "fast"])
attempt(p, ["cfg.yaml", "--lr", "0.1", "--epochs", "3.5"])
attempt(p, ["cfg.yaml", "--lr", "0.1", "--opt", "rmsprop"])
attempt(p, ["cfg.yaml", "--lr", "0.1", "--workers", "-3"])
attempt(p, ["cfg.yaml", "--lr", "0.1", "--workers", "x"])
attempt(p, ["cfg.yaml", "--lr", "0.1", "extra1", "--bogus", "extra2"])
attempt(p, ["cfg.yaml", "--lr"])
attempt(p, ["cfg.yaml", "--lr", "0.1", "--gpus"])
attempt(p, ["cfg.yaml", "--lr", "0.1", "--gpus", "0", "1", "2"])
attempt(p, ["cfg.yaml", "--lr", "0.1", "--pair", "1"])
attempt(p, ["cfg.yaml", "--lr", "0.1", "--pair", "1", "2", "3"])
attempt(p, ["cfg.yaml", "--lr", "0.1", "--flag=yes"])
attempt(p, ["cfg.yaml", "--lr", "0.1", "--level", "7"])
attempt(p, ["cfg.yaml", "--lr", "0.1", "--level", "2"])
attempt(p, ["cfg.yaml", "--lr=-0.5", "--epochs", "-2"])
attempt(p, ["cfg.yaml", "--lr", "-1e-3"])
attempt(p, ["--lr", "0.1", "--", "-weird-config"])
attempt(p, ["cfg.yaml", "--l", "0.1", "--ep", "4", "--fl"])
attempt(p, ["cfg.yaml", "--lr", "0.1", "--e", "4"])

q = argparse.ArgumentParser(prog="q")
q.add_argument("--lr", type=float)
q.add_argument("--lr-decay", type=float)
q.add_argument("-v", action="count", default=0)
q.add_argument("-q", action="store_true")
q.add_argument("-j", type=int, default=1)
attempt(q, ["--lr", "1"])
attempt(q, ["--lr-d", "1"])
attempt(q, ["--l", "1"])
attempt(q, ["-vvv", "-j4"])
attempt(q, ["-vqv", "-j", "8"])
attempt(q, ["-vx"])
attempt(q, ["-j"])
attempt(q, ["-x"])
ns, rest = q.parse_known_args(["-v", "--unknown", "5", "pos", "-j", "2"])
print(ns.v, ns.j, rest)

try:
    q.add_argument("--lr")
except argparse.ArgumentError as e:
    print("ArgumentError:", e)
for bad in [dict(action="store", nargs=0), dict(action="bogus"), dict(type="int"), dict(nargs=2, metavar=("A",))]:
    try:
        q.add_argument("--bad", **bad)
    except (ValueError, TypeError) as e:
        print(type(e).__name__ + ":", e)
try:
    q.add_argument("pos", required=True)
except TypeError as e:
    print("TypeError:", e)

r = argparse.ArgumentParser(prog="r", exit_on_error=False)
r.add_argument("--n", type=int)
try:
    r.parse_args(["--n", "z"])
except argparse.ArgumentError as e:
    print("caught:", e, "|", e.argument_name, "|", e.message)
