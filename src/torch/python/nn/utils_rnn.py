# torch/python/nn/utils_rnn.py: torch.nn.utils.rnn for lesson code: pad_sequence as PyTorch 1.13's
# C++ (aten/src/ATen/native/PackedSequence.cpp) computes it: a tensor full of padding_value, each
# sequence copied into its row or column (so gradients flow back through CopySlices, as in torch).
# What it is not: packed sequences. attn has no recurrent modules, so PackedSequence,
# pack_padded_sequence, pad_packed_sequence, pack_sequence and unpack_sequence raise
# NotImplementedError naming themselves when called (importing them, as model files do, works).
import torch
from _attn_stdlib import refusal


def pad_sequence(sequences, batch_first=False, padding_value=0.0):
    sequences = list(sequences)
    if len(sequences) == 0:
        raise RuntimeError("received an empty list of sequences")
    max_len = max([s.size(0) for s in sequences])
    trailing = tuple(sequences[0].shape[1:])
    dims = (len(sequences), max_len) if batch_first else (max_len, len(sequences))
    out = torch.full(dims + trailing, padding_value, dtype=sequences[0].dtype)
    for i, seq in enumerate(sequences):
        length = seq.size(0)
        if seq.shape[1:] != trailing:   # copy_'s broadcast check, with its message
            torch.zeros(length, *trailing) + torch.zeros(seq.shape)
        if batch_first:
            out[i, :length] = seq
        else:
            out[:length, i] = seq
    return out


def _not_implemented(name):
    return refusal("torch.nn.utils.rnn." + name, "attn does not implement torch.nn.utils.rnn." + name +
                   " (packed sequences are for recurrent modules, which attn does not have)", "NotImplementedError")


PackedSequence = _not_implemented('PackedSequence')
pack_padded_sequence = _not_implemented('pack_padded_sequence')
pad_packed_sequence = _not_implemented('pad_packed_sequence')
pack_sequence = _not_implemented('pack_sequence')
unpack_sequence = _not_implemented('unpack_sequence')
