# torch.nn.utils.rnn.pad_sequence as collate functions and seq2seq tutorials use it: float and int
# sequences, batch_first, a padding value, trailing dimensions, the gradient back to each sequence,
# and torch's errors for an empty list and mismatched trailing sizes.
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
