def main(argv=None):
    return 1


def gui_main():
    return main([])
