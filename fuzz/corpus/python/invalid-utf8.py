x = 'ÿşÃ'
print(x)
