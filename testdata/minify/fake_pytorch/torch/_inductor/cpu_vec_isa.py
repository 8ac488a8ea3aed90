def pick_vec_isa():
    return None
