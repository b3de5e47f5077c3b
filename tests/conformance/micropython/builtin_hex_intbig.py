# test builtin hex function

print(hex(12345678901234567890))
print(hex(0x12345678901234567890))
