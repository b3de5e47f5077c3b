# torch.triu_indices / tril_indices (integer positions in row-major order, their errors) and a mask written
# through them, as pbloem/former's mask_ does.
import torch
print(torch.triu_indices(3, 4), torch.tril_indices(3, 3, -1), torch.triu_indices(0, 2), torch.triu_indices(3, 2, 5))
print(torch.triu_indices(3, 4, dtype=torch.int32).dtype, torch.tril_indices(4, 3, 1), torch.tril_indices(3, 3, -5))
try: torch.triu_indices(-1, 2)
except Exception as e: print(type(e).__name__, e)
try: torch.triu_indices(2, 2, dtype=torch.float)
except Exception as e: print(type(e).__name__, e)
torch.manual_seed(0)
m = torch.randn(2, 3, 3, requires_grad=True) * 1
idx = torch.triu_indices(3, 3, offset=1)
m[..., idx[0], idx[1]] = float('-inf')
print(m.softmax(-1))
