print({a for a in range(5)})
