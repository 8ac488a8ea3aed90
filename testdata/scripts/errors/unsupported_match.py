match 1:
    case 1:
        pass
