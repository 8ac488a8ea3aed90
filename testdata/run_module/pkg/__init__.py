print("init", __name__)
