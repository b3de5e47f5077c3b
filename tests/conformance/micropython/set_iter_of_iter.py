i = iter(iter({1, 2, 3}))
print(sorted(i))
