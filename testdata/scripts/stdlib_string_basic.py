import string
from string import Template

for name in ["ascii_letters", "ascii_lowercase", "ascii_uppercase", "digits", "hexdigits", "octdigits",
             "punctuation", "whitespace", "printable"]:
    print(name, repr(getattr(string, name)))
print(string.capwords("  hello   big  world "), string.capwords("a-b-c", "-"))
t = Template("run=$run lr=${lr} cost=$$5 path=$dir/ckpt_${step}.pt")
print(t.substitute(run="exp1", lr=0.1, dir="/out", step=100))
print(t.substitute({"run": "m", "lr": 1, "dir": "d", "step": 2}, lr=3))
print(t.safe_substitute(run="partial"))
print(t.get_identifiers(), t.is_valid(), t.template)
try:
    t.substitute(run="x")
except KeyError as e:
    print("KeyError:", e)
for bad in ["cost $5", "line1\nline two $", "ok ${1x} no", "${unclosed"]:
    bt = Template(bad)
    try:
        bt.substitute(x=1)
    except ValueError as e:
        print("ValueError:", e)
    print(repr(bt.safe_substitute(x=1)), bt.is_valid())
print(Template("$x$y ${x}_$y_").safe_substitute(x="A", y="B"))

class Percent(Template):
    delimiter = "%"

print(Percent("%who likes %%what %{what}").substitute(who="tim", what="kung pao"))
