s = r'\d' u'\u00e9' f'''{a
+ b=}''' f'{x:{w}.{p}}' 'x' 'y'
b = b'\x00' rb'\d'
