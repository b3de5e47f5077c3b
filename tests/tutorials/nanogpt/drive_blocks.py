# Drives the building blocks of nanoGPT's model.py (the file next to this one, unchanged) on a
# small configuration, as a reader of the file tries them: the config dataclass, the causal
# self-attention (PyTorch >= 2.0's scaled_dot_product_attention path, which model.py takes when
# torch.nn.functional has it), the MLP, and a whole Block with its residual connections. This
# driver is attn's; the code it runs is Andrej Karpathy's. Cells are `# %%` lines.
# %%
import torch
from model import GPTConfig, LayerNorm, CausalSelfAttention, MLP, Block

config = GPTConfig(block_size=8, vocab_size=65, n_layer=2, n_head=4, n_embd=16, dropout=0.0, bias=True)
print(config)

# %%
torch.manual_seed(1337)
x = torch.randn(2, 8, config.n_embd)  # (B, T, C)
ln = LayerNorm(config.n_embd, bias=False)
print(ln(x)[0, :2])

# %%
attn = CausalSelfAttention(config)
print(attn)
print(attn.flash)
y = attn(x)
print(y.shape)
print(y[0])

# %%
mlp = MLP(config)
print(mlp)
print(mlp(x)[1, :3])

# %%
block = Block(config)
print(block)
out = block(x)
print(out[1])

# %%
n_params = sum(p.numel() for p in block.parameters())
print(n_params)
for name, p in block.named_parameters():
    print(name, tuple(p.shape))

# %%
block.eval()
with torch.no_grad():
    print(block(x[:, :5])[0, -1])

# %%
block.train()
loss = block(x).pow(2).mean()
loss.backward()
print(loss)
print(block.attn.c_proj.bias.grad)
print(block.ln_1.weight.grad)
