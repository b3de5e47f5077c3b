# test construction of bytes from bytearray

print(bytes(bytearray(4)))
