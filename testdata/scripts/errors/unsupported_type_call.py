Point = type("Point", (), {"x": 0})
print(Point.x)
