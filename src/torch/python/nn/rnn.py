# torch/python/nn/rnn.py: RNN, LSTM, GRU and RNNCell, LSTMCell, GRUCell (torch/nn/modules/rnn.py),
# with the arithmetic of PyTorch 1.13's CPU path (aten/src/ATen/native/RNN.cpp, no MKLDNN: Debian's
# build takes the native one): each layer's input projection for all time steps in one F.linear,
# then per step linear_hh(h) + that step's part; the gates as chunk views of the sums, so sigmoid
# and tanh see ATen's per-row runs (their vector body and scalar tail round differently); dropout
# between layers in training mode; a PackedSequence as RNN.cpp's PackedLayer and its reverse.
# Parameters, their order, names, init draws and repr as torch.
# What it is not: LSTM's proj_size (refused in one line), cuDNN's flatten_parameters (a no-op, as on
# CPU), the device/dtype arguments beyond float32 on the CPU.
import math
import warnings

import torch
import torch.nn.functional as F
from torch.nn import init
from torch.nn.parameter import Parameter
from torch.nn.modules.module import Module
from torch.nn.utils.rnn import PackedSequence
from _attn_stdlib import refusal as _refusal

__all__ = ['RNNBase', 'RNN', 'LSTM', 'GRU', 'RNNCellBase', 'RNNCell', 'LSTMCell', 'GRUCell']

# One step of each cell (RNN.cpp's SimpleCell, LSTMCell, GRUCell). `gi` is the input's projection
# (precomputed for a full layer); the hidden projection comes first, as linear_hh(h).add_(gi).

def _rnn_step(act, gi, h, w_hh, b_hh):
    return act(F.linear(h, w_hh, b_hh) + gi)


def _lstm_step_from_gates(gates, cx):
    # LSTMCell: sigmoid_/tanh_ on the chunks of the gates (per-row runs), cy = (f * cx).add_(i * g),
    # hy = o * cy.tanh().
    i, f, g, o = gates.chunk(4, 1)
    ingate = torch.sigmoid(i)
    forgetgate = torch.sigmoid(f)
    cellgate = torch.tanh(g)
    outgate = torch.sigmoid(o)
    cy = forgetgate * cx
    cy = cy + ingate * cellgate
    return outgate * torch.tanh(cy), cy


def _lstm_step(gi, hidden, w_hh, b_hh):
    hx, cx = hidden
    gates = F.linear(hx, w_hh, b_hh) + gi
    return _lstm_step_from_gates(gates, cx)


def _gru_step(gi, h, w_hh, b_hh):
    gh = F.linear(h, w_hh, b_hh)
    i_r, i_z, i_n = gi.chunk(3, 1)
    h_r, h_z, h_n = gh.chunk(3, 1)
    # torch add_s each chunk in place and runs sigmoid_ on the (B, H) view of the (B, 3H) gates, one
    # vector loop per row; the sums side by side in a (B, 2H) tensor give sigmoid the same rows.
    r_pre, z_pre = torch.cat([h_r + i_r, h_z + i_z], 1).chunk(2, 1)
    reset_gate = torch.sigmoid(r_pre)
    input_gate = torch.sigmoid(z_pre)
    new_gate = torch.tanh(i_n + h_n * reset_gate)
    hy = (h - new_gate) * input_gate
    return hy + new_gate


def _relu(x):
    return torch.relu(x)


def _cell_fn(mode):
    if mode == 'LSTM':
        return _lstm_step
    if mode == 'GRU':
        return _gru_step
    act = torch.tanh if mode == 'RNN_TANH' else _relu
    return lambda gi, h, w_hh, b_hh: _rnn_step(act, gi, h, w_hh, b_hh)


def _full_layer(step, inputs_w, hidden, w_hh, b_hh):
    # FullLayer: the steps over the precomputed projections; outputs are the hidden states (hy for LSTM).
    outputs = []
    for gi in inputs_w:
        hidden = step(gi, hidden, w_hh, b_hh)
        outputs.append(hidden[0] if isinstance(hidden, tuple) else hidden)
    if len(outputs) == 0:
        raise RuntimeError("Expected sequence length to be larger than 0 in RNN")
    return outputs, hidden


def _run_direction(step, layer_input, hidden, params, reverse):
    w_ih, w_hh, b_ih, b_hh = params
    steps = list(F.linear(layer_input, w_ih, b_ih).unbind(0))
    if reverse:
        steps.reverse()
    outputs, hidden = _full_layer(step, steps, hidden, w_hh, b_hh)
    if reverse:
        outputs.reverse()
    return torch.stack(outputs, 0), hidden


def _hidden_slice(hidden, start, end):
    if isinstance(hidden, tuple):
        return (hidden[0][start:end], hidden[1][start:end])   # RNN.cpp's narrow of dim 0
    return hidden[start:end]


def _hidden_concat(hiddens):
    if isinstance(hiddens[0], tuple):
        return (torch.cat([h[0] for h in hiddens], 0), torch.cat([h[1] for h in hiddens], 0))
    return torch.cat(hiddens, 0)


def _packed_forward(step, data, batch_sizes, hidden, params):
    # PackedLayer: the projection of all packed rows at once, then each step's rows; the hidden
    # states of sequences that ended are set aside and concatenated (longest last) at the end.
    w_ih, w_hh, b_ih, b_hh = params
    input_w = F.linear(data, w_ih, b_ih)
    outputs, hiddens, offset, last = [], [], 0, batch_sizes[0]
    for batch_size in batch_sizes:
        gi = input_w[offset:offset + batch_size]
        offset += batch_size
        dec = last - batch_size
        if dec > 0:
            hiddens.append(_hidden_slice(hidden, last - dec, last))
            hidden = _hidden_slice(hidden, 0, last - dec)
        last = batch_size
        hidden = step(gi, hidden, w_hh, b_hh)
        outputs.append(hidden[0] if isinstance(hidden, tuple) else hidden)
    hiddens.append(hidden)
    hiddens.reverse()
    return torch.cat(outputs, 0), _hidden_concat(hiddens)


def _packed_reverse(step, data, batch_sizes, input_hidden, params):
    # ReversedPackedLayer: from the last step back, the hidden state growing as sequences start.
    w_ih, w_hh, b_ih, b_hh = params
    input_w = F.linear(data, w_ih, b_ih)
    offset, last = data.size(0), batch_sizes[-1]
    hidden = _hidden_slice(input_hidden, 0, last)
    outputs = []
    for batch_size in reversed(batch_sizes):
        if batch_size > last:
            hidden = _hidden_concat([hidden, _hidden_slice(input_hidden, last, batch_size)])
        gi = input_w[offset - batch_size:offset]
        offset -= batch_size
        last = batch_size
        hidden = step(gi, hidden, w_hh, b_hh)
        outputs.append(hidden[0] if isinstance(hidden, tuple) else hidden)
    outputs.reverse()
    return torch.cat(outputs, 0), hidden


def _run_layers(mode, input, hiddens, params, num_layers, dropout, train, bidirectional, batch_sizes=None):
    # apply_layer_stack: each layer (both directions, outputs concatenated), dropout between layers.
    # With batch_sizes, input is a PackedSequence's data (PackedLayer and its reverse).
    step = _cell_fn(mode)
    dirs = 2 if bidirectional else 1
    layer_input = input
    finals = []
    for layer in range(num_layers):
        k = layer * dirs
        if batch_sizes is None:
            out, h = _run_direction(step, layer_input, hiddens[k], params[k], False)
        else:
            out, h = _packed_forward(step, layer_input, batch_sizes, hiddens[k], params[k])
        finals.append(h)
        if bidirectional:
            if batch_sizes is None:
                rev, hr = _run_direction(step, layer_input, hiddens[k + 1], params[k + 1], True)
            else:
                rev, hr = _packed_reverse(step, layer_input, batch_sizes, hiddens[k + 1], params[k + 1])
            finals.append(hr)
            out = torch.cat([out, rev], out.dim() - 1)
        layer_input = out
        if dropout != 0 and train and layer < num_layers - 1:
            layer_input = F.dropout(layer_input, dropout, True)
    return layer_input, finals


def _index_select1(t, permutation):
    # t.index_select(1, permutation) with its CPU error; indexing gives the same values and gradients.
    for i in permutation.tolist():
        if i >= t.size(1):
            raise RuntimeError("INDICES element is out of DATA bounds, id={} axis_dim={}".format(i, t.size(1)))
    return t[:, permutation]


class RNNBase(Module):

    def __init__(self, mode, input_size, hidden_size, num_layers=1, bias=True, batch_first=False, dropout=0.,
                 bidirectional=False, proj_size=0, device=None, dtype=None):
        super().__init__()
        self.mode = mode
        self.input_size = input_size
        self.hidden_size = hidden_size
        self.num_layers = num_layers
        self.bias = bias
        self.batch_first = batch_first
        self.dropout = float(dropout)
        self.bidirectional = bidirectional
        self.proj_size = proj_size
        num_directions = 2 if bidirectional else 1
        if not isinstance(dropout, (int, float)) or not 0 <= dropout <= 1 or isinstance(dropout, bool):
            raise ValueError("dropout should be a number in range [0, 1] representing the probability of an element being "
                             "zeroed")
        if dropout > 0 and num_layers == 1:
            warnings.warn("dropout option adds dropout after all but last recurrent layer, so non-zero dropout expects "
                          "num_layers greater than 1, but got dropout={} and num_layers={}".format(dropout, num_layers))
        if proj_size < 0:
            raise ValueError("proj_size should be a positive integer or zero to disable projections")
        if proj_size >= hidden_size:
            raise ValueError("proj_size has to be smaller than hidden_size")
        if proj_size > 0:
            _refusal("LSTM's proj_size", "attn's LSTM has no projections (proj_size)", "NotImplementedError")()
        gate_size = {'LSTM': 4, 'GRU': 3, 'RNN_TANH': 1, 'RNN_RELU': 1}.get(mode)
        if gate_size is None:
            raise ValueError("Unrecognized RNN mode: " + mode)
        gate_size *= hidden_size
        self._flat_weights_names = []
        self._all_weights = []
        for layer in range(num_layers):
            for direction in range(num_directions):
                layer_input_size = input_size if layer == 0 else hidden_size * num_directions
                self._add_layer(layer, direction, gate_size, layer_input_size, device, dtype)
        self.reset_parameters()

    def _add_layer(self, layer, direction, gate_size, layer_input_size, device, dtype):
        w_ih = Parameter(torch.empty((gate_size, layer_input_size), device=device, dtype=dtype))
        w_hh = Parameter(torch.empty((gate_size, self.hidden_size), device=device, dtype=dtype))
        b_ih = Parameter(torch.empty(gate_size, device=device, dtype=dtype))
        b_hh = Parameter(torch.empty(gate_size, device=device, dtype=dtype))
        layer_params = (w_ih, w_hh, b_ih, b_hh) if self.bias else (w_ih, w_hh)
        suffix = '_reverse' if direction == 1 else ''
        param_names = ['weight_ih_l{}{}', 'weight_hh_l{}{}']
        if self.bias:
            param_names += ['bias_ih_l{}{}', 'bias_hh_l{}{}']
        param_names = [x.format(layer, suffix) for x in param_names]
        for name, param in zip(param_names, layer_params):
            setattr(self, name, param)
        self._flat_weights_names.extend(param_names)
        self._all_weights.append(param_names)

    @property
    def _flat_weights(self):
        return [getattr(self, wn) if hasattr(self, wn) else None for wn in self._flat_weights_names]

    @property
    def all_weights(self):
        return [[getattr(self, weight) for weight in weights] for weights in self._all_weights]

    def flatten_parameters(self):
        return None   # cuDNN's weight buffer; a no-op on CPU, as in torch

    def reset_parameters(self):
        stdv = 1.0 / math.sqrt(self.hidden_size) if self.hidden_size > 0 else 0
        for weight in self.parameters():
            init.uniform_(weight, -stdv, stdv)

    def check_input(self, input, batch_sizes):
        expected_input_dim = 2 if batch_sizes is not None else 3
        if input.dim() != expected_input_dim:
            raise RuntimeError('input must have {} dimensions, got {}'.format(expected_input_dim, input.dim()))
        if self.input_size != input.size(-1):
            raise RuntimeError('input.size(-1) must be equal to input_size. Expected {}, got {}'.format(
                self.input_size, input.size(-1)))

    def get_expected_hidden_size(self, input, batch_sizes):
        if batch_sizes is not None:
            mini_batch = int(batch_sizes[0])
        else:
            mini_batch = input.size(0) if self.batch_first else input.size(1)
        num_directions = 2 if self.bidirectional else 1
        return (self.num_layers * num_directions, mini_batch, self.hidden_size)

    def check_hidden_size(self, hx, expected_hidden_size, msg='Expected hidden size {}, got {}'):
        if hx.size() != expected_hidden_size:
            raise RuntimeError(msg.format(expected_hidden_size, list(hx.size())))

    def check_forward_args(self, input, hidden, batch_sizes):
        self.check_input(input, batch_sizes)
        self.check_hidden_size(hidden, self.get_expected_hidden_size(input, batch_sizes))

    def permute_hidden(self, hx, permutation):
        if permutation is None:
            return hx
        return _index_select1(hx, permutation)

    def extra_repr(self):
        s = '{input_size}, {hidden_size}'
        if self.proj_size != 0:
            s += ', proj_size={proj_size}'
        if self.num_layers != 1:
            s += ', num_layers={num_layers}'
        if self.bias is not True:
            s += ', bias={bias}'
        if self.batch_first is not False:
            s += ', batch_first={batch_first}'
        if self.dropout != 0:
            s += ', dropout={dropout}'
        if self.bidirectional is not False:
            s += ', bidirectional={bidirectional}'
        return s.format(**self.__dict__)

    def _layer_params(self):
        # (w_ih, w_hh, b_ih, b_hh) per layer and direction, None for the biases when bias=False.
        out = []
        for names in self._all_weights:
            ws = [getattr(self, n) for n in names]
            out.append((ws[0], ws[1], ws[2], ws[3]) if len(ws) == 4 else (ws[0], ws[1], None, None))
        return out

    def _batched(self, input, hx):
        # The unbatched 2-D input and hx checks of RNN's and GRU's forward.
        is_batched = input.dim() == 3
        batch_dim = 0 if self.batch_first else 1
        if not is_batched:
            input = input.unsqueeze(batch_dim)
            if hx is not None:
                if hx.dim() != 2:
                    raise RuntimeError(f"For unbatched 2-D input, hx should also be 2-D but got {hx.dim()}-D tensor")
                hx = hx.unsqueeze(1)
        elif hx is not None and hx.dim() != 3:
            raise RuntimeError(f"For batched 3-D input, hx should also be 3-D but got {hx.dim()}-D tensor")
        if hx is None:
            num_directions = 2 if self.bidirectional else 1
            max_batch_size = input.size(0) if self.batch_first else input.size(1)
            hx = torch.zeros(self.num_layers * num_directions, max_batch_size, self.hidden_size, dtype=input.dtype)
        self.check_forward_args(input, hx, None)
        return input, hx, is_batched, batch_dim

    def _forward_simple(self, input, hx):
        # RNN and GRU: _rnn_impl over hx.unbind(0), the final hidden states stacked.
        if isinstance(input, PackedSequence):
            return self._forward_packed(input, hx)
        input, hx, is_batched, batch_dim = self._batched(input, hx)
        x = input.transpose(0, 1) if self.batch_first else input
        output, finals = _run_layers(self.mode, x, hx.unbind(0), self._layer_params(), self.num_layers,
                                     self.dropout, self.training, self.bidirectional)
        hidden = torch.stack(finals, 0)
        if self.batch_first:
            output.transpose_(0, 1)   # _rnn_impl's, in place: TransposeBackward1 (LSTM's is out of place)
        if not is_batched:
            output = output.squeeze(batch_dim)
            hidden = hidden.squeeze(1)
        return output, hidden


    def _forward_packed(self, input, hx):
        data, batch_sizes, sorted_indices, unsorted_indices = input
        max_batch_size = int(batch_sizes[0])
        if hx is None:
            num_directions = 2 if self.bidirectional else 1
            hx = torch.zeros(self.num_layers * num_directions, max_batch_size, self.hidden_size, dtype=data.dtype)
        else:
            hx = self.permute_hidden(hx, sorted_indices)
        self.check_forward_args(data, hx, batch_sizes)
        output, finals = _run_layers(self.mode, data, hx.unbind(0), self._layer_params(), self.num_layers, self.dropout,
                                     self.training, self.bidirectional, batch_sizes.tolist())
        hidden = torch.stack(finals, 0)
        return PackedSequence(output, batch_sizes, sorted_indices, unsorted_indices), self.permute_hidden(hidden, unsorted_indices)


class RNN(RNNBase):

    def __init__(self, *args, **kwargs):
        if 'proj_size' in kwargs:
            raise ValueError("proj_size argument is only supported for LSTM, not RNN or GRU")
        self.nonlinearity = kwargs.pop('nonlinearity', 'tanh')
        if self.nonlinearity == 'tanh':
            mode = 'RNN_TANH'
        elif self.nonlinearity == 'relu':
            mode = 'RNN_RELU'
        else:
            raise ValueError("Unknown nonlinearity '{}'".format(self.nonlinearity))
        super().__init__(mode, *args, **kwargs)

    def forward(self, input, hx=None):
        return self._forward_simple(input, hx)


class GRU(RNNBase):

    def __init__(self, *args, **kwargs):
        if 'proj_size' in kwargs:
            raise ValueError("proj_size argument is only supported for LSTM, not RNN or GRU")
        super().__init__('GRU', *args, **kwargs)

    def forward(self, input, hx=None):
        return self._forward_simple(input, hx)


class LSTM(RNNBase):

    def __init__(self, *args, **kwargs):
        super().__init__('LSTM', *args, **kwargs)

    def get_expected_cell_size(self, input, batch_sizes):
        if batch_sizes is not None:
            mini_batch = int(batch_sizes[0])
        else:
            mini_batch = input.size(0) if self.batch_first else input.size(1)
        num_directions = 2 if self.bidirectional else 1
        return (self.num_layers * num_directions, mini_batch, self.hidden_size)

    def check_forward_args(self, input, hidden, batch_sizes):
        self.check_input(input, batch_sizes)
        self.check_hidden_size(hidden[0], self.get_expected_hidden_size(input, batch_sizes), 'Expected hidden[0] size {}, got {}')
        self.check_hidden_size(hidden[1], self.get_expected_cell_size(input, batch_sizes), 'Expected hidden[1] size {}, got {}')

    def permute_hidden(self, hx, permutation):
        if permutation is None:
            return hx
        return _index_select1(hx[0], permutation), _index_select1(hx[1], permutation)

    def _lstm_hx(self, input, hx, is_batched):
        if hx is None:
            num_directions = 2 if self.bidirectional else 1
            max_batch_size = input.size(0) if self.batch_first else input.size(1)
            shape = (self.num_layers * num_directions, max_batch_size, self.hidden_size)
            return (torch.zeros(shape, dtype=input.dtype), torch.zeros(shape, dtype=input.dtype))
        if is_batched:
            if hx[0].dim() != 3 or hx[1].dim() != 3:
                raise RuntimeError("For batched 3-D input, hx and cx should also be 3-D but got "
                                   f"({hx[0].dim()}-D, {hx[1].dim()}-D) tensors")
            return hx
        if hx[0].dim() != 2 or hx[1].dim() != 2:
            raise RuntimeError("For unbatched 2-D input, hx and cx should also be 2-D but got "
                               f"({hx[0].dim()}-D, {hx[1].dim()}-D) tensors")
        return (hx[0].unsqueeze(1), hx[1].unsqueeze(1))

    def forward(self, input, hx=None):
        if isinstance(input, PackedSequence):
            return self._forward_packed(input, hx)
        is_batched = input.dim() == 3
        batch_dim = 0 if self.batch_first else 1
        if not is_batched:
            input = input.unsqueeze(batch_dim)
        hx = self._lstm_hx(input, hx, is_batched)
        self.check_forward_args(input, hx, None)
        if len(hx) != 2:
            raise RuntimeError("lstm expects two hidden states")
        x = input.transpose(0, 1) if self.batch_first else input
        hiddens = list(zip(hx[0].unbind(0), hx[1].unbind(0)))
        output, finals = _run_layers('LSTM', x, hiddens, self._layer_params(), self.num_layers,
                                     self.dropout, self.training, self.bidirectional)
        hy = torch.stack([h for h, c in finals], 0)
        cy = torch.stack([c for h, c in finals], 0)
        if self.batch_first:
            output = output.transpose(0, 1)
        if not is_batched:
            return output.squeeze(batch_dim), (hy.squeeze(1), cy.squeeze(1))
        return output, (hy, cy)

    def _forward_packed(self, input, hx):
        data, batch_sizes, sorted_indices, unsorted_indices = input
        if hx is None:
            num_directions = 2 if self.bidirectional else 1
            shape = (self.num_layers * num_directions, int(batch_sizes[0]), self.hidden_size)
            hx = (torch.zeros(shape, dtype=data.dtype), torch.zeros(shape, dtype=data.dtype))
        else:
            hx = self.permute_hidden(hx, sorted_indices)
        self.check_forward_args(data, hx, batch_sizes)
        hiddens = list(zip(hx[0].unbind(0), hx[1].unbind(0)))
        output, finals = _run_layers('LSTM', data, hiddens, self._layer_params(), self.num_layers, self.dropout,
                                     self.training, self.bidirectional, batch_sizes.tolist())
        hy = torch.stack([h for h, c in finals], 0)
        cy = torch.stack([c for h, c in finals], 0)
        output = PackedSequence(output, batch_sizes, sorted_indices, unsorted_indices)
        return output, self.permute_hidden((hy, cy), unsorted_indices)


def _check_cell_input(input, input_size):
    if input.size(1) != input_size:
        raise RuntimeError("input has inconsistent input_size: got {} expected {}".format(input.size(1), input_size))


def _check_cell_hidden(input, hx, hidden_size, label):
    if input.size(0) != hx.size(0):
        raise RuntimeError("Input batch size {} doesn't match hidden{} batch size {}".format(input.size(0), label, hx.size(0)))
    if hx.size(1) != hidden_size:
        raise RuntimeError("hidden{} has inconsistent hidden_size: got {}, expected {}".format(label, hx.size(1), hidden_size))


class RNNCellBase(Module):

    def __init__(self, input_size, hidden_size, bias, num_chunks, device=None, dtype=None):
        super().__init__()
        self.input_size = input_size
        self.hidden_size = hidden_size
        self.bias = bias
        self.weight_ih = Parameter(torch.empty((num_chunks * hidden_size, input_size), device=device, dtype=dtype))
        self.weight_hh = Parameter(torch.empty((num_chunks * hidden_size, hidden_size), device=device, dtype=dtype))
        if bias:
            self.bias_ih = Parameter(torch.empty(num_chunks * hidden_size, device=device, dtype=dtype))
            self.bias_hh = Parameter(torch.empty(num_chunks * hidden_size, device=device, dtype=dtype))
        else:
            self.register_parameter('bias_ih', None)
            self.register_parameter('bias_hh', None)
        self.reset_parameters()

    def extra_repr(self):
        s = '{input_size}, {hidden_size}'
        if 'bias' in self.__dict__ and self.bias is not True:
            s += ', bias={bias}'
        if 'nonlinearity' in self.__dict__ and self.nonlinearity != "tanh":
            s += ', nonlinearity={nonlinearity}'
        return s.format(**self.__dict__)

    def reset_parameters(self):
        stdv = 1.0 / math.sqrt(self.hidden_size) if self.hidden_size > 0 else 0
        for weight in self.parameters():
            init.uniform_(weight, -stdv, stdv)

    def _cell_input(self, name, input, hx, pair):
        # The Cell forwards' unbatched handling and default zeros; returns (input, hx, is_batched).
        assert input.dim() in (1, 2), f"{name}: Expected input to be 1-D or 2-D but received {input.dim()}-D tensor"
        is_batched = input.dim() == 2
        if not is_batched:
            input = input.unsqueeze(0)
        if hx is None:
            zeros = torch.zeros(input.size(0), self.hidden_size, dtype=input.dtype)
            hx = (zeros, zeros) if pair else zeros
        elif not is_batched:
            hx = (hx[0].unsqueeze(0), hx[1].unsqueeze(0)) if pair else hx.unsqueeze(0)
        return input, hx, is_batched


class RNNCell(RNNCellBase):

    def __init__(self, input_size, hidden_size, bias=True, nonlinearity="tanh", device=None, dtype=None):
        super().__init__(input_size, hidden_size, bias, num_chunks=1, device=device, dtype=dtype)
        self.nonlinearity = nonlinearity

    def forward(self, input, hx=None):
        input, hx, is_batched = self._cell_input("RNNCell", input, hx, False)
        if self.nonlinearity == "tanh":
            act = torch.tanh
        elif self.nonlinearity == "relu":
            act = _relu
        else:
            raise RuntimeError("Unknown nonlinearity: {}".format(self.nonlinearity))
        _check_cell_input(input, self.weight_ih.size(1))
        _check_cell_hidden(input, hx, self.weight_hh.size(1), 0)
        gh = F.linear(hx, self.weight_hh, self.bias_hh)   # rnn_*_cell: linear_hh(hx).add_(linear_ih(input))
        ret = act(gh + F.linear(input, self.weight_ih, self.bias_ih))
        return ret if is_batched else ret.squeeze(0)


class LSTMCell(RNNCellBase):

    def __init__(self, input_size, hidden_size, bias=True, device=None, dtype=None):
        super().__init__(input_size, hidden_size, bias, num_chunks=4, device=device, dtype=dtype)

    def forward(self, input, hx=None):
        input, hx, is_batched = self._cell_input("LSTMCell", input, hx, True)
        if len(hx) != 2:
            raise RuntimeError("lstm_cell expects two hidden states")
        _check_cell_input(input, self.weight_ih.size(1))
        _check_cell_hidden(input, hx[0], self.weight_hh.size(1), 0)
        _check_cell_hidden(input, hx[1], self.weight_hh.size(1), 0)   # 1.13 labels cx "hidden0" too
        hx0, cx = hx
        gates = F.linear(hx0, self.weight_hh, self.bias_hh)   # lstm_cell: linear_hh(hx).add_(linear_ih(input))
        gates = gates + F.linear(input, self.weight_ih, self.bias_ih)
        hy, cy = _lstm_step_from_gates(gates, cx)
        return (hy, cy) if is_batched else (hy.squeeze(0), cy.squeeze(0))


class GRUCell(RNNCellBase):

    def __init__(self, input_size, hidden_size, bias=True, device=None, dtype=None):
        super().__init__(input_size, hidden_size, bias, num_chunks=3, device=device, dtype=dtype)

    def forward(self, input, hx=None):
        input, hx, is_batched = self._cell_input("GRUCell", input, hx, False)
        _check_cell_input(input, self.weight_ih.size(1))
        _check_cell_hidden(input, hx, self.weight_hh.size(1), 0)
        gi = F.linear(input, self.weight_ih, self.bias_ih)   # gru_cell: linear_ih(input) first, then linear_hh(hx)
        ret = _gru_step(gi, hx, self.weight_hh, self.bias_hh)
        return ret if is_batched else ret.squeeze(0)
