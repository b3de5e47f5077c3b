print(b"1" == 1)
