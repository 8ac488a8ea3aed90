from pathlib import Path, PurePath, PurePosixPath, PosixPath

p = Path("runs") / "exp1" / "checkpoints" / "model.best.pt"
print(p, repr(p), type(p).__name__, isinstance(p, Path), isinstance(p, PurePath))
print(p.name, p.stem, p.suffix, p.suffixes, p.parent, p.parts)
print(list(p.parents), len(p.parents), p.parents[0], p.parents[-1], p.parents[1:3], repr(p.parents)[:20])
print(p.with_suffix(".onnx"), p.with_suffix(""), p.with_name("last.pt"), p.with_stem("final"))
print(Path("/data/imagenet//train/./n01440764/"), Path("a", "b/c", "d"), Path("/a", "/b", "c"))
print(Path(), Path(""), Path("."), Path("//srv/x"), Path("///srv/x"), Path("a/../b"))
print(Path("/").name == "", Path("/").parent, Path("/").parts, Path(".").parent, Path("x").parent)
print(Path("/abs/path").is_absolute(), Path("rel").is_absolute(), Path("/a").root, Path("a").anchor == "")
print("out" / Path("logs"), Path("a").joinpath("b", Path("c"), "/d/e"))
print(Path("a/b") == Path("a//b/"), Path("a") == "a", Path("a") != Path("b"), Path("A") == Path("a"))
print(hash(Path("a/b")) == hash(Path("a//b")), len({Path("x"), Path("x/"), Path("./x")}))
print(sorted([Path("b"), Path("a/c"), Path("a-c"), Path("a/b"), Path("/z"), Path("a")]))
print(Path("a") < Path("b"), Path("a/b") <= Path("a/b"), Path("b") > Path("a/z"))
print(str(Path("x/y")), Path("x/y").as_posix(), Path("x/y").__fspath__(), Path("/x/y").as_uri())
print(Path(".bashrc").suffix, Path(".bashrc").stem, Path("archive.tar.gz").suffixes, Path("a.").suffixes, Path("a.").suffix)
print(Path("/a/b/c.txt").relative_to("/a"), Path("/a/b").relative_to("/"), Path("a/b").relative_to("a"))
print(Path("a/b").is_relative_to("a"), Path("a/b").is_relative_to("b"))
print(Path("a/b.py").match("*.py"), Path("/a/b/c.py").match("b/*.py"), Path("/a/b/c.py").match("a/*.py"),
      Path("/a/b.py").match("/*.py"), Path("/a/b.py").match("/a/*.py"), Path("b.py").match("/*.py"))
print(PurePath("x"), repr(PurePath("x")), repr(PurePosixPath("y")), PosixPath("z"))
for bad in [lambda: Path("a").with_suffix("txt"), lambda: Path("a").with_suffix("."), lambda: Path("/").with_name("x"),
            lambda: Path("a").with_name("b/c"), lambda: Path("a").with_name(""), lambda: Path("/a/b").relative_to("/c"),
            lambda: Path("a").relative_to("/a"), lambda: Path(1), lambda: Path("a") / 3, lambda: Path("a") < "b",
            lambda: Path("a").match(""), lambda: Path("a").as_uri(), lambda: Path("a").parents[1]]:
    try:
        print("no error", bad())
    except (ValueError, TypeError, IndexError) as e:
        print(type(e).__name__ + ":", e)
