class cpp:
    inject_relu_bug_TESTING_ONLY = None
