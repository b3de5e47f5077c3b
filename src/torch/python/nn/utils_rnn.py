# torch/python/nn/utils_rnn.py: torch.nn.utils.rnn for lesson code: pad_sequence as PyTorch 1.13's
# C++ (aten/src/ATen/native/PackedSequence.cpp) computes it: a tensor full of padding_value, each
# sequence copied into its row or column (so gradients flow back through CopySlices, as in torch).
# pack_padded_sequence and pack_sequence as 1.13 (rnn.py over _VF._pack_padded_sequence): the
# PackedSequence (data, batch_sizes, sorted_indices, unsorted_indices) with the same numbers; tutorials
# use it to drop the padding before a loss (sgrvinod's LabelSmoothedCE).
# pad_packed_sequence and unpack_sequence as 1.13 (ATen's _pad_packed_sequence), for the output of the
# recurrent modules (nn/rnn.py) on packed input.
# What it is not: PackedSequence is a namedtuple without
# PackedSequence's methods (.to, ...); packed data's grad_fn is that of the cat it is made by, not
# PackPaddedSequenceBackward0 (its values and gradients are torch's).
from collections import namedtuple

import torch

PackedSequence = namedtuple('PackedSequence', ['data', 'batch_sizes', 'sorted_indices', 'unsorted_indices'])


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


def invert_permutation(permutation):
    if permutation is None:
        return None
    output = torch.zeros_like(permutation)   # empty_like in torch: every element is written
    output.scatter_(0, permutation, torch.arange(0, permutation.numel()))
    return output


def _pack(input, lengths, batch_first):   # ATen's _pack_padded_sequence: (data, batch_sizes)
    if batch_first:
        input = input.transpose(0, 1)
    batch_size = input.size(1)
    lengths = lengths.tolist()
    if input.numel() == 0:
        raise RuntimeError("Cannot pack empty tensors.")
    if len(lengths) != batch_size:
        raise RuntimeError("Expected `len(lengths)` to be equal to batch_size, but got " + str(len(lengths)) +
                           " (batch_size=" + str(batch_size) + ")")
    if lengths[batch_size - 1] <= 0:
        raise RuntimeError("Length of all samples has to be greater than 0, but found an element in 'lengths' that is <= 0")
    for i in range(batch_size - 1):
        if lengths[batch_size - 1 - i] > lengths[batch_size - 2 - i]:
            raise RuntimeError("`lengths` array must be sorted in decreasing order when `enforce_sorted` is True. You can "
                               "pass `enforce_sorted=False` to pack_padded_sequence and/or pack_sequence to sidestep this "
                               "requirement if you do not need ONNX exportability.")
    steps, batch_sizes, prev = [], [], 0
    for i in range(batch_size):
        length = lengths[batch_size - 1 - i]
        if length > prev:
            current = batch_size - i
            steps.append(input[prev:length, :current].contiguous().view(-1, *input.shape[2:]))
            batch_sizes += [current] * (length - prev)
            prev = length
    return torch.cat(steps), torch.tensor(batch_sizes)


def pack_padded_sequence(input, lengths, batch_first=False, enforce_sorted=True):
    lengths = lengths if isinstance(lengths, torch.Tensor) else torch.tensor(lengths)
    sorted_indices = None
    if not enforce_sorted:
        lengths, sorted_indices = torch.sort(lengths, descending=True)
        input = input[sorted_indices] if batch_first else input[:, sorted_indices]
    data, batch_sizes = _pack(input, lengths, batch_first)
    return PackedSequence(data, batch_sizes, sorted_indices, invert_permutation(sorted_indices))


def pack_sequence(sequences, enforce_sorted=True):
    lengths = torch.tensor([v.size(0) for v in sequences])
    return pack_padded_sequence(pad_sequence(sequences), lengths, enforce_sorted=enforce_sorted)


def _pad_packed(data, batch_sizes, batch_first, padding_value, total_length):
    # ATen's _pad_packed_sequence: a tensor of padding_value, each run of equal batch sizes copied
    # into its block (CopySlices, as torch's slice().copy_()), and the lengths, longest first.
    batch_sizes = batch_sizes.tolist()
    max_batch_size, max_real = batch_sizes[0], len(batch_sizes)
    output = torch.full((total_length, max_batch_size) + tuple(data.shape[1:]), padding_value, dtype=data.dtype)
    lengths = [0] * max_batch_size
    offset, prev_batch, prev_i, slot = 0, max_batch_size, 0, max_batch_size - 1
    for i in range(max_real + 1):
        batch_size = batch_sizes[i] if i != max_real else 0
        if batch_size != prev_batch:
            n = prev_batch * (i - prev_i)
            tmp = data[offset:offset + n].view(i - prev_i, prev_batch, *data.shape[1:])
            output[prev_i:i, :prev_batch] = tmp
            offset += n
            prev_i = i
        for _ in range(prev_batch - batch_size):
            lengths[slot] = i
            slot -= 1
        prev_batch = batch_size
    if batch_first:
        output = output.transpose(0, 1)
    return output, torch.tensor(lengths)


def pad_packed_sequence(sequence, batch_first=False, padding_value=0.0, total_length=None):
    max_seq_length = sequence.batch_sizes.size(0)
    if total_length is not None:
        if total_length < max_seq_length:
            raise ValueError("Expected total_length to be at least the length of the longest sequence in input, but got "
                             "total_length={} and max sequence length being {}".format(total_length, max_seq_length))
        max_seq_length = total_length
    padded_output, lengths = _pad_packed(sequence.data, sequence.batch_sizes, batch_first, padding_value, max_seq_length)
    unsorted_indices = sequence.unsorted_indices
    if unsorted_indices is not None:
        if batch_first:   # index_select along the batch dim: the same values and gradients
            return padded_output[unsorted_indices], lengths[unsorted_indices]
        return padded_output[:, unsorted_indices], lengths[unsorted_indices]
    return padded_output, lengths


def unpack_sequence(packed_sequences):
    padded_sequences, lengths = pad_packed_sequence(packed_sequences, batch_first=True)
    unpacked_sequences = []
    for seq, length in zip(padded_sequences, lengths):
        unpacked_sequences.append(seq[:length])
    return unpacked_sequences
