x = (-2)**63 // -1 % -1
y = 1 if x else 2
z = not x is not None and x in [1] or x < 2 <= 3 != 4
w @= v; u **= 2; t //= 3; s ^= 1; r |= 2; q &= 3; p <<= 1; o >>= 1
print(x[..., 0], y[1:2:3, ::-1])
