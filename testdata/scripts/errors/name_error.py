def f():
    return undefined_name + 1


f()
