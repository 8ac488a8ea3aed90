values = [1, 2, 3]
if (n := len(values)) > 2:
    print(n)
