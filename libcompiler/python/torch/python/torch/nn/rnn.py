# nn.RNN, nn.LSTM, nn.GRU and their cells, computed step by step as ATen's CPU kernels compute
# them (the input projection of a whole sequence in one linear, then per step the hidden
# projection plus that input's slice, gates by chunk), so their numbers agree with PyTorch's.
import math

import torch
import torch.nn.functional as F
from torch import Parameter
from torch.nn import Module
import torch.nn.init as init


def _simple_step(nonlinearity):
    def step(input_gates, hidden, w_hh, b_hh):
        return nonlinearity(F.linear(hidden, w_hh, b_hh) + input_gates)
    return step


def _lstm_step(input_gates, state, w_hh, b_hh):
    hx, cx = state
    gates = F.linear(hx, w_hh, b_hh) + input_gates
    ingate, forgetgate, cellgate, outgate = gates.chunk(4, 1)
    ingate, forgetgate, cellgate, outgate = ingate.sigmoid(), forgetgate.sigmoid(), cellgate.tanh(), outgate.sigmoid()
    cy = forgetgate * cx + ingate * cellgate
    return outgate * cy.tanh(), cy


def _gru_step(input_gates, hidden, w_hh, b_hh):
    i_r, i_z, i_n = input_gates.chunk(3, 1)
    h_r, h_z, h_n = F.linear(hidden, w_hh, b_hh).chunk(3, 1)
    reset_gate = (h_r + i_r).sigmoid()
    input_gate = (h_z + i_z).sigmoid()
    new_gate = (i_n + h_n * reset_gate).tanh()
    return (hidden - new_gate) * input_gate + new_gate


def _uniform_by_hidden_size(module):
    # Every parameter from U(-1/sqrt(hidden_size), 1/sqrt(hidden_size)), in registration order.
    stdv = 1.0 / math.sqrt(module.hidden_size) if module.hidden_size > 0 else 0
    for weight in module.parameters():
        init.uniform_(weight, -stdv, stdv)


class RNNBase(Module):
    _GATES = {"LSTM": 4, "GRU": 3, "RNN_TANH": 1, "RNN_RELU": 1}

    def __init__(self, mode, input_size, hidden_size, num_layers=1, bias=True, batch_first=False, dropout=0.0,
                 bidirectional=False, proj_size=0, device=None, dtype=None):
        super().__init__()
        if not 0 <= dropout <= 1 or isinstance(dropout, bool):
            raise ValueError("dropout should be a number in range [0, 1] representing the probability of an "
                             "element being zeroed")
        if proj_size != 0:
            raise NotImplementedError("kiln's nn.LSTM does not implement proj_size")
        if hidden_size <= 0:
            raise ValueError("hidden_size must be greater than zero")
        if num_layers <= 0:
            raise ValueError("num_layers must be greater than zero")
        self.mode = mode
        self.input_size = input_size
        self.hidden_size = hidden_size
        self.num_layers = num_layers
        self.bias = bias
        self.batch_first = batch_first
        self.dropout = float(dropout)
        self.bidirectional = bidirectional
        self.proj_size = proj_size
        directions = 2 if bidirectional else 1
        gate_size = self._GATES[mode] * hidden_size
        self._flat_weights_names = []
        self._all_weights = []
        for layer in range(num_layers):
            for direction in range(directions):
                layer_input_size = input_size if layer == 0 else hidden_size * directions
                params = [Parameter(torch.empty(gate_size, layer_input_size, dtype=dtype)),
                          Parameter(torch.empty(gate_size, hidden_size, dtype=dtype))]
                names = ["weight_ih_l{}{}", "weight_hh_l{}{}"]
                if bias:
                    params += [Parameter(torch.empty(gate_size, dtype=dtype)), Parameter(torch.empty(gate_size, dtype=dtype))]
                    names += ["bias_ih_l{}{}", "bias_hh_l{}{}"]
                suffix = "_reverse" if direction == 1 else ""
                names = [n.format(layer, suffix) for n in names]
                for name, param in zip(names, params):
                    setattr(self, name, param)
                self._flat_weights_names.extend(names)
                self._all_weights.append(names)
        self.reset_parameters()

    @property
    def _flat_weights(self):
        return [getattr(self, name) for name in self._flat_weights_names]

    @property
    def all_weights(self):
        return [[getattr(self, name) for name in names] for names in self._all_weights]

    def reset_parameters(self):
        _uniform_by_hidden_size(self)

    def _step(self):
        if self.mode == "LSTM":
            return _lstm_step
        if self.mode == "GRU":
            return _gru_step
        return _simple_step(torch.tanh if self.mode == "RNN_TANH" else torch.relu)

    def _run_direction(self, inputs, state, names, reverse):
        w_ih, w_hh = getattr(self, names[0]), getattr(self, names[1])
        b_ih = getattr(self, names[2]) if self.bias else None
        b_hh = getattr(self, names[3]) if self.bias else None
        input_gates = F.linear(inputs, w_ih, b_ih)
        step = self._step()
        outputs = [None] * inputs.size(0)
        order = range(inputs.size(0) - 1, -1, -1) if reverse else range(inputs.size(0))
        for t in order:
            state = step(input_gates[t], state, w_hh, b_hh)
            outputs[t] = state[0] if self.mode == "LSTM" else state
        return torch.stack(outputs, 0), state

    def _run(self, input, hx):
        directions = 2 if self.bidirectional else 1
        is_lstm = self.mode == "LSTM"
        finals_h, finals_c = [], []
        layer_input = input
        for layer in range(self.num_layers):
            outputs = []
            for direction in range(directions):
                index = layer * directions + direction
                state = (hx[0][index], hx[1][index]) if is_lstm else hx[index]
                out, state = self._run_direction(layer_input, state, self._all_weights[index], direction == 1)
                outputs.append(out)
                finals_h.append(state[0] if is_lstm else state)
                if is_lstm:
                    finals_c.append(state[1])
            layer_input = outputs[0] if directions == 1 else torch.cat(outputs, -1)
            if self.dropout != 0 and self.training and layer < self.num_layers - 1:
                layer_input = F.dropout(layer_input, self.dropout, True)
        h_n = torch.stack(finals_h, 0)
        return layer_input, ((h_n, torch.stack(finals_c, 0)) if is_lstm else h_n)

    def forward(self, input, hx=None):
        batched = input.dim() == 3
        if input.dim() not in (2, 3):
            raise ValueError(f"{self._get_name()}: Expected input to be 2D or 3D, got {input.dim()}D instead")
        if not batched:
            input = input.unsqueeze(1)
        elif self.batch_first:
            input = input.transpose(0, 1)
        directions = 2 if self.bidirectional else 1
        shape = (self.num_layers * directions, input.size(1), self.hidden_size)
        if hx is None:
            zeros = torch.zeros(*shape, dtype=input.dtype, device=input.device)
            hx = (zeros, zeros) if self.mode == "LSTM" else zeros
        elif not batched:
            hx = (hx[0].unsqueeze(1), hx[1].unsqueeze(1)) if self.mode == "LSTM" else hx.unsqueeze(1)
        output, hidden = self._run(input, hx if self.mode == "LSTM" else hx)
        if not batched:
            output = output.squeeze(1)
            hidden = (hidden[0].squeeze(1), hidden[1].squeeze(1)) if self.mode == "LSTM" else hidden.squeeze(1)
        elif self.batch_first:
            output = output.transpose(0, 1)
        return output, hidden

    def extra_repr(self):
        s = f"{self.input_size}, {self.hidden_size}"
        if self.num_layers != 1:
            s += f", num_layers={self.num_layers}"
        if self.bias is not True:
            s += f", bias={self.bias}"
        if self.batch_first is not False:
            s += f", batch_first={self.batch_first}"
        if self.dropout != 0:
            s += f", dropout={self.dropout}"
        if self.bidirectional is not False:
            s += f", bidirectional={self.bidirectional}"
        return s


class RNN(RNNBase):
    def __init__(self, input_size, hidden_size, num_layers=1, nonlinearity="tanh", bias=True, batch_first=False,
                 dropout=0.0, bidirectional=False, device=None, dtype=None):
        if nonlinearity == "tanh":
            mode = "RNN_TANH"
        elif nonlinearity == "relu":
            mode = "RNN_RELU"
        else:
            raise ValueError(f"Unknown nonlinearity '{nonlinearity}'. Select from 'tanh' or 'relu'.")
        self.nonlinearity = nonlinearity
        super().__init__(mode, input_size, hidden_size, num_layers, bias, batch_first, dropout, bidirectional,
                         device=device, dtype=dtype)


class LSTM(RNNBase):
    def __init__(self, input_size, hidden_size, num_layers=1, bias=True, batch_first=False, dropout=0.0,
                 bidirectional=False, proj_size=0, device=None, dtype=None):
        super().__init__("LSTM", input_size, hidden_size, num_layers, bias, batch_first, dropout, bidirectional,
                         proj_size, device, dtype)


class GRU(RNNBase):
    def __init__(self, input_size, hidden_size, num_layers=1, bias=True, batch_first=False, dropout=0.0,
                 bidirectional=False, device=None, dtype=None):
        super().__init__("GRU", input_size, hidden_size, num_layers, bias, batch_first, dropout, bidirectional,
                         device=device, dtype=dtype)


class RNNCellBase(Module):
    def __init__(self, input_size, hidden_size, bias, num_chunks, device=None, dtype=None):
        super().__init__()
        self.input_size = input_size
        self.hidden_size = hidden_size
        self.bias = bias
        self.weight_ih = Parameter(torch.empty(num_chunks * hidden_size, input_size, dtype=dtype))
        self.weight_hh = Parameter(torch.empty(num_chunks * hidden_size, hidden_size, dtype=dtype))
        if bias:
            self.bias_ih = Parameter(torch.empty(num_chunks * hidden_size, dtype=dtype))
            self.bias_hh = Parameter(torch.empty(num_chunks * hidden_size, dtype=dtype))
        else:
            self.bias_ih = None
            self.bias_hh = None
        self.reset_parameters()

    def reset_parameters(self):
        _uniform_by_hidden_size(self)

    def extra_repr(self):
        s = f"{self.input_size}, {self.hidden_size}"
        if self.bias is not True:
            s += f", bias={self.bias}"
        return s


class LSTMCell(RNNCellBase):
    def __init__(self, input_size, hidden_size, bias=True, device=None, dtype=None):
        super().__init__(input_size, hidden_size, bias, 4, device, dtype)

    def forward(self, input, hx=None):
        if hx is None:
            zeros = torch.zeros(input.size(0), self.hidden_size, dtype=input.dtype)
            hx = (zeros, zeros)
        return _lstm_step(F.linear(input, self.weight_ih, self.bias_ih), hx, self.weight_hh, self.bias_hh)


class GRUCell(RNNCellBase):
    def __init__(self, input_size, hidden_size, bias=True, device=None, dtype=None):
        super().__init__(input_size, hidden_size, bias, 3, device, dtype)

    def forward(self, input, hx=None):
        if hx is None:
            hx = torch.zeros(input.size(0), self.hidden_size, dtype=input.dtype)
        return _gru_step(F.linear(input, self.weight_ih, self.bias_ih), hx, self.weight_hh, self.bias_hh)
