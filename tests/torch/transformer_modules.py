# nn.TransformerEncoder(Layer), nn.TransformerDecoder(Layer) and nn.Transformer (1.13's
# torch/nn/modules/transformer.py): PyTorch's transformer_tutorial encoder (2 layers, causal mask
# from generate_square_subsequent_mask) in train mode with dropout and in eval mode under no_grad,
# a backward, the reprs, batch_first, norm_first, gelu and callable activations, a decoder step,
# a small nn.Transformer, and the errors for bad arguments. Only the slow path: eval mode with
# batch_first under no_grad takes 1.13's fast path, which attn refuses.
import math
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.modules.transformer import _get_clones, _get_activation_fn

torch.set_printoptions(precision=8)
torch.manual_seed(0)

# The tutorial's TransformerModel, small: embedding, encoder, decoder to the vocabulary.
class TransformerModel(nn.Module):
    def __init__(self, ntoken, d_model, nhead, d_hid, nlayers, dropout=0.1):
        super().__init__()
        self.model_type = 'Transformer'
        encoder_layers = nn.TransformerEncoderLayer(d_model, nhead, d_hid, dropout)
        self.transformer_encoder = nn.TransformerEncoder(encoder_layers, nlayers)
        self.encoder = nn.Embedding(ntoken, d_model)
        self.d_model = d_model
        self.decoder = nn.Linear(d_model, ntoken)
        initrange = 0.1
        self.encoder.weight.data.uniform_(-initrange, initrange)
        self.decoder.bias.data.zero_()
        self.decoder.weight.data.uniform_(-initrange, initrange)

    def forward(self, src, src_mask):
        src = self.encoder(src) * math.sqrt(self.d_model)
        output = self.transformer_encoder(src, src_mask)
        return self.decoder(output)

model = TransformerModel(ntoken=11, d_model=8, nhead=2, d_hid=16, nlayers=2, dropout=0.1)
print(model)
src = torch.randint(0, 11, (6, 3))
mask = nn.Transformer.generate_square_subsequent_mask(6)
print(mask)
model.train()
out = model(src, mask)
print(out[:, 0])
loss = F.cross_entropy(out.view(-1, 11), torch.randint(0, 11, (18,)))
print(loss)
loss.backward()
print(model.transformer_encoder.layers[0].self_attn.in_proj_weight.grad[:4])
print(model.transformer_encoder.layers[1].linear1.bias.grad)
model.eval()
with torch.no_grad():
    print(model(src, mask)[:, 1])
print(model(src, mask)[-1])   # eval, grad enabled

# batch_first=True in train mode, norm_first, gelu, a callable activation.
for name, kwargs in (('batch_first', {'batch_first': True}), ('norm_first', {'norm_first': True}),
                     ("'gelu'", {'activation': 'gelu'}), ('GELU(tanh)', {'activation': nn.GELU(approximate='tanh')}),
                     ('torch.tanh', {'activation': torch.tanh}),
                     ('F.gelu, eps 1e-3', {'activation': F.gelu, 'layer_norm_eps': 1e-3})):
    layer = nn.TransformerEncoderLayer(8, 2, 16, 0.1, **kwargs)
    print(name, layer.activation_relu_or_gelu)
    x = torch.randn(2, 4, 8) if kwargs.get('batch_first') else torch.randn(4, 2, 8)
    y = layer(x)
    print(y[0])
    layer.eval()
    print(layer(x, src_mask=nn.Transformer.generate_square_subsequent_mask(4))[1])
    print(layer(x)[1])   # batch_first: grad is enabled, so the slow path
print(nn.TransformerEncoderLayer(8, 2, 16, activation=nn.GELU()))

# A padded batch: key padding masks.
enc = nn.TransformerEncoder(nn.TransformerEncoderLayer(8, 2, 16, 0.0), 2, norm=nn.LayerNorm(8))
x = torch.randn(5, 2, 8)
pad = torch.tensor([[False, False, False, True, True], [False, False, False, False, False]])
print(enc(x, src_key_padding_mask=pad)[:, 0])
print(enc)

# A decoder step.
dec_layer = nn.TransformerDecoderLayer(d_model=8, nhead=2, dim_feedforward=16)
print(dec_layer)
dec = nn.TransformerDecoder(dec_layer, num_layers=2, norm=nn.LayerNorm(8))
memory = torch.randn(5, 2, 8)
tgt = torch.randn(3, 2, 8)
y = dec(tgt, memory, tgt_mask=nn.Transformer.generate_square_subsequent_mask(3))
print(y)
y.pow(2).mean().backward()
print(dec.layers[1].multihead_attn.out_proj.weight.grad[0])
dec.eval()
print(dec(tgt, memory, tgt_key_padding_mask=torch.tensor([[False, False, True], [False, False, False]]))[2])
dec_nf = nn.TransformerDecoderLayer(8, 2, 16, 0.1, activation='gelu', batch_first=True, norm_first=True)
print(dec_nf(tgt.transpose(0, 1), memory.transpose(0, 1))[1])

# nn.Transformer, small.
tf = nn.Transformer(d_model=8, nhead=2, num_encoder_layers=1, num_decoder_layers=1, dim_feedforward=16)
print(tf)
print(sum(p.numel() for p in tf.parameters()))
src = torch.randn(4, 2, 8)
tgt = torch.randn(3, 2, 8)
out = tf(src, tgt, tgt_mask=tf.generate_square_subsequent_mask(3))
print(out)
tf.eval()
with torch.no_grad():
    print(tf(src, tgt)[0])
tfb = nn.Transformer(8, 2, 1, 1, 16, 0.0, batch_first=True)
print(tfb(src.transpose(0, 1), tgt.transpose(0, 1))[1])

# _get_clones copies; _get_activation_fn.
clones = _get_clones(nn.Linear(2, 2), 3)
print(len(clones), clones[0].weight is clones[1].weight, torch.equal(clones[0].weight, clones[2].weight))
print(_get_activation_fn('relu') is F.relu, _get_activation_fn('gelu') is F.gelu)

# Errors.
def error(f):
    try:
        f()
    except Exception as e:
        print(type(e).__name__ + ':', e)

error(lambda: nn.TransformerEncoderLayer(8, 3))
error(lambda: nn.TransformerDecoderLayer(6, 4))
error(lambda: nn.Transformer(10, 4))
error(lambda: nn.TransformerEncoderLayer(8, 2, activation='tanh'))
error(lambda: _get_activation_fn('swish'))
error(lambda: tf(torch.randn(4, 2, 8), torch.randn(3, 3, 8)))
error(lambda: tfb(torch.randn(2, 4, 8), torch.randn(3, 3, 8)))
error(lambda: tf(torch.randn(4, 2, 8), torch.randn(3, 2, 6)))
error(lambda: enc(x, src_key_padding_mask=pad.long()))
error(lambda: nn.TransformerEncoderLayer(8, 2)(torch.randn(5, 2, 8), src_key_padding_mask=torch.zeros(2, 5, dtype=torch.int32)))
