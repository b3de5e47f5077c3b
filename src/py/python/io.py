# src/py/python/io.py: the io module for lesson code, in attn's Python: StringIO (an in-memory text
# stream: write, read, readline, readlines, iteration, seek, tell, getvalue, truncate, close, with),
# as CPython 3.11's for str data, and BytesIO (the same over a bytearray: what pickle.dump writes to).
# What it is not: files. Lesson code runs without file access, so io.open (what `from io import open`
# gives) raises PermissionError naming itself; BytesIO has no getbuffer/readinto (no memoryview).
from _attn_stdlib import refusal as _refusal

open = _refusal("io.open", "attn runs lesson code without file access: io.open is not available")
SEEK_SET = 0
SEEK_CUR = 1
SEEK_END = 2


class StringIO:
    def __init__(self, initial_value='', newline='\n'):
        if initial_value is None:
            initial_value = ''
        if not isinstance(initial_value, str):
            raise TypeError("initial_value must be str or None, not " + type(initial_value).__name__)
        self._text = initial_value
        self._chunks = []          # writes at the end, joined when the text is next read: O(n) in all
        self._length = len(initial_value)
        self._pos = 0
        self.closed = False

    def _joined(self):
        if self._chunks:
            self._text = self._text + ''.join(self._chunks)
            self._chunks = []
        return self._text

    def _check(self):
        if self.closed:
            raise ValueError("I/O operation on closed file")

    def write(self, s):
        self._check()
        if not isinstance(s, str):
            raise TypeError("string argument expected, got '" + type(s).__name__ + "'")
        if self._pos == self._length:
            self._chunks.append(s)
        else:
            text = self._joined()
            if self._pos > len(text):
                text += '\0' * (self._pos - len(text))
            self._text = text[:self._pos] + s + text[self._pos + len(s):]
        self._pos += len(s)
        self._length = max(self._length, self._pos)
        return len(s)

    def writelines(self, lines):
        for line in lines:
            self.write(line)

    def read(self, size=-1):
        self._check()
        text = self._joined()
        end = len(text) if size is None or size < 0 else min(len(text), self._pos + size)
        out = text[self._pos:end]
        self._pos = max(self._pos, end)
        return out

    def readline(self, size=-1):
        self._check()
        text = self._joined()
        end = text.find('\n', self._pos)
        end = len(text) if end < 0 else end + 1
        if size is not None and size >= 0:
            end = min(end, self._pos + size)
        out = text[self._pos:end]
        self._pos = max(self._pos, end)
        return out

    def readlines(self, hint=-1):
        return list(self)

    def __iter__(self):
        return self

    def __next__(self):
        line = self.readline()
        if not line:
            raise StopIteration
        return line

    def getvalue(self):
        self._check()
        return self._joined()

    def seek(self, pos, whence=0):
        self._check()
        if whence == 1:
            pos = self._pos + pos
        elif whence == 2:
            pos = self._length + pos
        if pos < 0:
            raise ValueError("Negative seek position " + str(pos))
        self._pos = pos
        return pos

    def tell(self):
        self._check()
        return self._pos

    def truncate(self, size=None):
        self._check()
        size = self._pos if size is None else size
        self._text = self._joined()[:size]
        self._length = len(self._text)
        return size

    def close(self):
        self.closed = True

    def flush(self):
        pass

    def readable(self):
        return True

    def writable(self):
        return True

    def seekable(self):
        return True

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


class BytesIO:
    def __init__(self, initial_bytes=b''):
        self._data = bytearray(initial_bytes if initial_bytes is not None else b'')
        self._pos = 0
        self.closed = False

    def _check(self):
        if self.closed:
            raise ValueError("I/O operation on closed file.")

    def write(self, b):
        self._check()
        if isinstance(b, str):
            raise TypeError("a bytes-like object is required, not 'str'")
        b = bytes(b)
        if self._pos > len(self._data):
            self._data.extend(bytes(self._pos - len(self._data)))
        self._data[self._pos:self._pos + len(b)] = b
        self._pos += len(b)
        return len(b)

    def writelines(self, lines):
        for line in lines:
            self.write(line)

    def read(self, size=-1):
        self._check()
        end = len(self._data) if size is None or size < 0 else min(len(self._data), self._pos + size)
        out = bytes(self._data[self._pos:end])
        self._pos = max(self._pos, end)
        return out

    def readline(self, size=-1):
        self._check()
        end = self._data.find(b'\n', self._pos)
        end = len(self._data) if end < 0 else end + 1
        if size is not None and size >= 0:
            end = min(end, self._pos + size)
        out = bytes(self._data[self._pos:end])
        self._pos = max(self._pos, end)
        return out

    def getvalue(self):
        self._check()
        return bytes(self._data)

    def seek(self, pos, whence=0):
        self._check()
        if whence == 0:
            if pos < 0:
                raise ValueError("negative seek value %d" % pos)
            self._pos = pos
        elif whence == 1:
            self._pos = max(0, self._pos + pos)
        else:
            self._pos = max(0, len(self._data) + pos)
        return self._pos

    def tell(self):
        self._check()
        return self._pos

    def close(self):
        self.closed = True

    def readable(self):
        return True

    def writable(self):
        return True

    def seekable(self):
        return True

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
