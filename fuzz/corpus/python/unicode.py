ω = 'Life is short, eat dessert first'
print(ω, ' ', '\udcff' if 0 else '√')
