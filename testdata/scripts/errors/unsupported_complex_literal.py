z = 2 + 3j
print(z)
