class Meta(type):
    pass


class Model(metaclass=Meta):
    pass
