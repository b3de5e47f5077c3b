# test builtin bin function

print(bin(12345678901234567890))
