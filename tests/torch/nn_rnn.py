# tests/torch/nn_rnn.py: nn.RNN, nn.LSTM, nn.GRU and their Cell forms as lesson code sees them:
# reprs, parameter names, order and shapes, state_dict keys, all_weights, the argument checks and
# their messages, what forward returns (shapes, grad_fn names), printed as PyTorch 1.13 printed it
# (tests/torch/nn_rnn.expected, tools/make_torch_expected.py).
# What it is not: the bits of the arithmetic (tests/vectors/rnn_programs.txt, test_rnn.cpp).
import torch
import torch.nn as nn


def attempt(f):
    try:
        r = f()
        print("ok", r)
    except Exception as e:
        print(type(e).__name__ + ":", e)


torch.manual_seed(0)
mods = [nn.RNN(10, 20), nn.RNN(3, 4, 2, nonlinearity='relu', bias=False), nn.GRU(10, 20, num_layers=2, batch_first=True),
        nn.LSTM(5, 7, bidirectional=True, dropout=0.25, num_layers=3), nn.GRU(2, 3, 1, True, True, 0.0, True),
        nn.RNNCell(4, 6), nn.RNNCell(4, 6, nonlinearity='relu', bias=False), nn.LSTMCell(3, 5), nn.GRUCell(3, 5, bias=False)]
for m in mods:
    print(m)
    print([(n, tuple(p.shape)) for n, p in m.named_parameters()])
    print(list(m.state_dict().keys()) == [n for n, _ in m.named_parameters()])
print(nn.Sequential(nn.Embedding(5, 4), nn.LSTM(4, 8, batch_first=True)))
print(len(mods[3].all_weights), [tuple(w.shape) for w in mods[3].all_weights[1]])
print(mods[3]._flat_weights_names[:6])
print(mods[2].weight_hh_l1[0, :4])
m = mods[0]
print(m.input_size, m.hidden_size, m.num_layers, m.bias, m.batch_first, m.dropout, m.bidirectional, m.mode, m.nonlinearity)
print(isinstance(mods[2], nn.RNNBase), isinstance(mods[8], nn.RNNCellBase), isinstance(mods[3], nn.Module))

# forward: shapes and grad_fn
x = torch.randn(5, 3, 10)
out, h = nn.GRU(10, 20, num_layers=2)(x)
print(out.shape, h.shape, out.grad_fn.name(), h.grad_fn.name())
out, (h, c) = nn.LSTM(10, 6, bidirectional=True)(x)
print(out.shape, h.shape, c.shape, out.grad_fn.name())
out, h = nn.RNN(10, 4, batch_first=True)(x)
print(out.shape, h.shape)
out, h = nn.GRU(10, 4)(torch.randn(7, 10))
print(out.shape, h.shape)
out, (h, c) = nn.LSTM(10, 4, num_layers=2)(torch.randn(7, 10), (torch.zeros(2, 4), torch.zeros(2, 4)))
print(out.shape, h.shape, c.shape)
print(nn.GRUCell(10, 3)(torch.randn(10)).shape, nn.LSTMCell(10, 3)(torch.randn(2, 10))[1].shape)
with torch.no_grad():
    print(nn.RNN(10, 4)(x)[0].requires_grad)

# errors, with PyTorch's messages
attempt(lambda: nn.GRU(10, 20)(torch.randn(5, 3, 9)))
attempt(lambda: nn.GRU(10, 20)(torch.randn(2, 5, 3, 10)))
attempt(lambda: nn.GRU(10, 20)(x, torch.zeros(1, 2, 20)))
attempt(lambda: nn.GRU(10, 20, num_layers=2)(x, torch.zeros(1, 3, 20)))
attempt(lambda: nn.GRU(10, 20)(x, torch.zeros(3, 20)))
attempt(lambda: nn.RNN(10, 20)(torch.randn(5, 10), torch.zeros(1, 1, 20)))
attempt(lambda: nn.LSTM(10, 20)(x, (torch.zeros(1, 3, 20), torch.zeros(1, 3, 19))))
attempt(lambda: nn.LSTM(10, 20)(x, (torch.zeros(2, 3, 20), torch.zeros(1, 3, 20))))
attempt(lambda: nn.LSTM(10, 20)(x, (torch.zeros(3, 20), torch.zeros(1, 3, 20))))
attempt(lambda: nn.LSTM(10, 20)(torch.randn(5, 10), (torch.zeros(1, 20), torch.zeros(1, 1, 20))))
attempt(lambda: nn.RNN(10, 20, dropout=1.5))
attempt(lambda: nn.RNN(10, 20, dropout=True))
attempt(lambda: nn.RNN(10, 20, nonlinearity='sigmoid'))
attempt(lambda: nn.GRU(10, 20, proj_size=3))
attempt(lambda: nn.LSTM(10, 20, proj_size=-1))
attempt(lambda: nn.LSTM(10, 20, proj_size=20))
attempt(lambda: nn.GRUCell(10, 20)(torch.randn(3, 9)))
attempt(lambda: nn.GRUCell(10, 20)(torch.randn(3, 10), torch.zeros(2, 20)))
attempt(lambda: nn.RNNCell(10, 20)(torch.randn(3, 10), torch.zeros(3, 21)))
attempt(lambda: nn.LSTMCell(10, 20)(torch.randn(3, 10), (torch.zeros(3, 20), torch.zeros(3, 19))))
attempt(lambda: nn.LSTMCell(10, 20)(torch.randn(3, 10), (torch.zeros(3, 20), torch.zeros(4, 20))))
attempt(lambda: nn.GRUCell(10, 20)(torch.randn(2, 3, 10)))
attempt(lambda: nn.RNN(10, 20)(torch.randn(0, 3, 10)))

# packed input: a PackedSequence out, pad_packed_sequence and unpack_sequence back
from torch.nn.utils.rnn import pack_sequence, pad_packed_sequence, unpack_sequence
seqs = [torch.randn(4, 3), torch.randn(2, 3), torch.randn(3, 3)]
packed = pack_sequence(seqs, enforce_sorted=False)
pout, (h, c) = nn.LSTM(3, 2)(packed)
print(type(pout).__name__, pout.data.shape, pout.batch_sizes, pout.sorted_indices, pout.unsorted_indices, h.shape)
padded, lengths = pad_packed_sequence(pout, batch_first=True)
print(padded.shape, lengths, padded[1, 2:].abs().sum().item())
print([tuple(u.shape) for u in unpack_sequence(packed)], torch.equal(unpack_sequence(packed)[2], seqs[2]))
print(pad_packed_sequence(packed, total_length=6, padding_value=-1.0)[0][:, 1, 0])
attempt(lambda: pad_packed_sequence(packed, total_length=3))
attempt(lambda: nn.GRU(3, 2)(packed, torch.zeros(1, 2, 2)))
attempt(lambda: nn.GRU(4, 2)(packed))
print(torch.rand(2))
