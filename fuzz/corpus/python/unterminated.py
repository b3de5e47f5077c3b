x = '''never closed
print((1, [2, {3: 
