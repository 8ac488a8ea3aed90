# json.dumps/loads/dump/load: CPython's formatting (indent, separators, sort_keys, ensure_ascii,
# default), parsing (nesting, escapes, numbers), the errors of both directions; and
# str.startswith/endswith with start and end (kiln ignored them).
import json
import os

config = {"lr": 3e-4, "layers": [64, 32], "name": "run \"a\"\n", "flags": {"amp": True, "seed": None},
          "ratio": 0.1, "big": 2**62, "neg": -2.5e-8, "tuple": (1, 2), "unicode": "caf\u00e9 \u2713", 3: "int key"}
print(json.dumps(config))
print(json.dumps(config, indent=2, sort_keys=False))
print(json.dumps({"b": 1, "a": [1, {"c": []}], "d": {}}, sort_keys=True, indent=4))
print(json.dumps([1, 2], separators=(",", ":")), json.dumps("\u00e9", ensure_ascii=False), json.dumps(float("inf")))
print(json.dumps({"x": {1, 2}} if False else {"x": 1.5}, default=str))
text = '{"a": [1, 2.5, -3e2, true, false, null], "s": "tab\\tquote\\" \\u00e9\\ud83d\\ude00", "nested": {"k": {}}}'
print(json.loads(text), json.loads("  [ ]  "), json.loads("12"), json.loads('"x"'))
round_trip = json.loads(json.dumps(config))
print(round_trip == {str(k): list(v) if isinstance(v, tuple) else v for k, v in config.items()})
path = os.path.join(os.environ.get("TMPDIR", "/tmp"), "kiln_json_" + str(os.getpid()) + ".json")
with open(path, "w") as f:
    json.dump({"epoch": 3, "loss": [0.5, 0.25]}, f, indent=1)
with open(path) as f:
    print(json.load(f))
os.remove(path)
for bad in ['{"a": 1,}', "[1, 2", '{"a" 1}', "tru", '{"a": 1} x', ""]:
    try:
        json.loads(bad)
    except json.JSONDecodeError as error:
        print("JSONDecodeError", error, error.pos, isinstance(error, ValueError))
try:
    json.dumps({"x": object()})
except TypeError as error:
    print("TypeError", error)
print("abc".startswith("b", 1), "abc".startswith("a", 1), "abc".endswith("b", 0, 2), "abc".find("c", 1))
print("héllo".startswith("l", 2), "abc".startswith("c", -1), "abc".endswith("a", 0, -2), "abc".startswith("", 5), "abc".startswith(("x", "b"), 1))
