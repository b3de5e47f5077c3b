# Not the tiktoken package: a stand-in, so that previous_chapters.py (the book's file, unchanged)
# can run its `import tiktoken` in attn and in the PyTorch that made the expected outputs, where
# tiktoken is not installed either. No cell of the lesson tokenizes: the cells that do are in
# SKIPPED.md, and their token ids are given by substitute cells.
def get_encoding(encoding_name):
    raise NotImplementedError("tiktoken is not installed; this stand-in cannot encode with " + encoding_name)
