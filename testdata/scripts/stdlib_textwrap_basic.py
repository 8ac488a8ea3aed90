import textwrap

text = ("The learning-rate schedule uses a cosine decay with warm-up; see the paper -- "
        "Loshchilov & Hutter -- for details. Weight decay is applied to all non-bias parameters. "
        "Extraordinarily-long-hyphenated-compound-words-appear-sometimes in configs.")
for width in (10, 20, 33, 40, 70, 79):
    print(width, textwrap.wrap(text, width))
print(textwrap.fill(text, 50, initial_indent="  * ", subsequent_indent="    "))
print(textwrap.wrap("a\tb\tc  d", 6))
print(textwrap.wrap("  leading and trailing   ", 8))
print(textwrap.wrap("  leading and trailing   ", 8, drop_whitespace=False))
print(textwrap.wrap("supercalifragilisticexpialidocious word", 10))
print(textwrap.wrap("supercalifragilisticexpialidocious word", 10, break_long_words=False))
print(textwrap.wrap("abc-def-ghi-jkl-mno", 8))
print(textwrap.wrap("abc-def-ghi-jkl-mno", 8, break_on_hyphens=False))
print(textwrap.wrap("x--y a--b 1-2-3 e-mail well-known", 5))
print(textwrap.wrap("Hello there. How are you? Fine!", 15, fix_sentence_endings=True))
print(textwrap.shorten("Hello  world!  This is a long sentence.", width=20))
print(textwrap.shorten("Hello world", width=11))
print(textwrap.shorten("Hello world", width=10, placeholder="..."))
print(textwrap.wrap(text, 30, max_lines=3))
print(textwrap.wrap(text, 30, max_lines=2, placeholder=" ~"))
print(textwrap.wrap("", 10))
print(textwrap.wrap("   ", 10))
try:
    textwrap.wrap("abc", 0)
except ValueError as e:
    print("ValueError:", e)
try:
    textwrap.shorten("abc def", 3)
except ValueError as e:
    print("ValueError:", e)

block = """\
    def train(model):
        for batch in loader:
            loss = model(batch)
    \t
        return loss
    """
print(repr(textwrap.dedent(block)))
print(repr(textwrap.dedent("  a\n    b\n   \n  c")))
print(repr(textwrap.dedent("\ta\n  b")))
print(repr(textwrap.dedent("no indent\n  here")))
print(repr(textwrap.indent("line1\n\nline2\n  \nline3", "> ")))
print(repr(textwrap.indent("a\nb\n", "+", lambda line: True)))
w = textwrap.TextWrapper(width=25, subsequent_indent="  ")
print(w.fill("epoch 1/10 step 100 loss 0.2345 acc 0.91 lr 0.001 grad_norm 1.5"))
