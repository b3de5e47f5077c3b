# Every string escape CPython decodes, and raw strings that keep them (ASCII results only:
# attn's str is indexed by UTF-8 byte, so len() of non-ASCII text is a known gap).
print(repr('\a\b\f\n\r\t\v'), len('\a\b\f\n\r\t\v'))
print(repr('\\'), repr('\''), repr("\""), repr('\0'), repr('\x00'))
print(repr('\101\102\103'), repr('\7'), repr('\60\061'))
print(repr('\x41\x62\x7e'), repr('\u0041\u007a'), repr('\U00000041'))
print(repr(r'\n\t\x41'), len(r'\n'), repr(R'\\'))
print(repr('a\
b'))
print(repr('''tri
ple'''), repr("""x"y"z"""))
print('tab\there', 'new\\nline')
print(repr('it\'s'), repr("say \"hi\""), repr('both \' and "'))
print(repr('\d'), repr('\q'))   # an unknown escape keeps its backslash (a DeprecationWarning only)
print(ord('\n'), ord('\x7f'), chr(65), chr(0x30))
print(repr(''.join([chr(c) for c in range(32, 40)])))
s = 'abc' 'def' "ghi"
print(s, len(s))
print(f'{"q"!r} {1+1} {{}}')
