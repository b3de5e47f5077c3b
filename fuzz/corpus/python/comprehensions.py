d = {k: [j for j in range(k) if j % 2 for i in range(j)] for k in range(10)}
s = {x for x in 'abc'}
l = lambda a, *b, c=1, **d: (a, b, c, d)
print(d[3], s, l(1))
