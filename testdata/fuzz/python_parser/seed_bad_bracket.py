x = (1,
  2
y = "abc
