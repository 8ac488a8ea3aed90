steps = 2 ** 40
print(steps * steps)
