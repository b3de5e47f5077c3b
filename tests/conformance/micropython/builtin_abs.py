# test builtin abs

print(abs(False))
print(abs(True))
print(abs(1))
print(abs(-1))
