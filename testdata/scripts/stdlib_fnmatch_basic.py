import fnmatch

names = ["model.pt", "model_best.pt", "model.PT", "ckpt-001.pt", "ckpt-010.pth", "log.txt", ".hidden.pt",
         "a-b", "a]b", "[x]", "data[1].csv", "x-9", "z", "-", "!", "^", "a\\b", "abc", "abd", "ab", "a/b.pt"]
patterns = ["*.pt", "*.p?", "model*", "ckpt-0[0-9][0-9].pt*", "*[!t]", "[a-c]*", "[!a-c]*", "[]]*", "a[]]b",
            "[!]]*", "*[", "[", "data[[]1].csv", "[a-]*", "[-a]*", "[z-a]", "[a-z-9]*", "[!]", "[^]", "*",
            "?", "??", "a*b*", "*b", "a?c", "ab[cd]", "a\\b", "*/*.pt", "[a-z0-9_]*.pt", "[!a-z]*", "**", ""]
for pat in patterns:
    print(repr(pat), fnmatch.filter(names, pat))
print(fnmatch.fnmatch("Model.PT", "*.pt"), fnmatch.fnmatchcase("x.PT", "*.PT"))
print(fnmatch.fnmatch("", ""), fnmatch.fnmatch("", "*"), fnmatch.fnmatch("a", ""))
