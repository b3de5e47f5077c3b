# test builtin oct function

print(oct(12345678901234567890))
print(oct(0o12345670123456701234))
