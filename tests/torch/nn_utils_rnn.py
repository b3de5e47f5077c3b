# torch.nn.utils.rnn as collate functions and seq2seq tutorials use it: pad_sequence of float and int
# sequences, batch_first, a padding value, trailing dimensions, the gradient back to each sequence,
# torch's errors for an empty list and mismatched trailing sizes; then packing.
import torch
from torch.nn.utils.rnn import pad_sequence
import torch.nn.utils.rnn as rnn_utils

a = torch.tensor([1., 2, 3], requires_grad=True)
b = torch.tensor([4., 5], requires_grad=True)
p = pad_sequence([a, b])
print(p)
print(rnn_utils.pad_sequence((a, b), batch_first=True, padding_value=-1))
print(pad_sequence([torch.ones(2, 3), torch.zeros(1, 3), torch.full((3, 3), 2.)]).shape)
(p * torch.tensor([[1., 2], [3, 4], [5, 6]])).sum().backward()
print(a.grad, b.grad)
print(pad_sequence([torch.tensor([1, 2]), torch.tensor([3])], batch_first=True))
for bad in ([], [torch.ones(2, 3), torch.zeros(1, 2)]):
    try:
        pad_sequence(bad)
    except RuntimeError as e:
        print("RuntimeError:", e)
# pack_padded_sequence (sorted and not) and pack_sequence: data, batch_sizes, indices, gradients.
from torch.nn.utils.rnn import pack_padded_sequence, pack_sequence
x = torch.arange(24.).reshape(3, 4, 2).requires_grad_()
p = pack_padded_sequence(x, torch.tensor([2, 4, 1]), batch_first=True, enforce_sorted=False)
d, b, s, u = p
print(d.detach(), b, s, u, type(p).__name__, p.data.shape)
d.sum().backward()
print(x.grad[:, :, 0])
q = pack_padded_sequence(torch.arange(6).reshape(3, 2), [3, 1])
print(q.data, q.batch_sizes, q.sorted_indices, q.unsorted_indices)
print(pack_sequence([torch.tensor([1, 2, 3]), torch.tensor([4, 5]), torch.tensor([6])]).data)
try:
    pack_padded_sequence(x, [1, 2, 3], batch_first=True)
except RuntimeError as e:
    print("RuntimeError:", e)
