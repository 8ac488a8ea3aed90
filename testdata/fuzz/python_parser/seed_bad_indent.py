if x:
    y
  z
