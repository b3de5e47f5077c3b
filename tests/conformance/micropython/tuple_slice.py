# tuple slicing

x = (1, 2, 3 * 4)

print(x[1:])
print(x[:-1])
print(x[2:3])
