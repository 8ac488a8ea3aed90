# typing: what PyTorch-style code uses of it at run time (annotations are not evaluated).


class _SpecialForm:
    def __getitem__(self, parameters):
        return self


Union = _SpecialForm()
Optional = _SpecialForm()
Any = _SpecialForm()
Callable = _SpecialForm()
List = _SpecialForm()
Dict = _SpecialForm()
Tuple = _SpecialForm()


def cast(typ, val):
    return val
