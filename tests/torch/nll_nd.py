# F.nll_loss / F.cross_entropy over K-dimensional input (N, C, d1, ...): 1.13's nll_loss2d loop and cascade,
# every reduction, weights, ignore_index, gradients (pbloem/former's nll_loss(output.transpose(2, 1), target)).
import torch
import torch.nn.functional as F
torch.manual_seed(0)
for shape in [(2, 5, 7), (3, 4, 2, 3), (4, 6, 700), (1, 3, 1), (2, 3, 5, 1, 2)]:
    x = torch.randn(*shape, requires_grad=True)
    t = torch.randint(0, shape[1], (shape[0],) + shape[2:])
    t.view(-1)[::7] = 1 if shape[1] > 1 else 0
    w = torch.rand(shape[1])
    for kw in [dict(), dict(reduction='sum'), dict(weight=w), dict(ignore_index=1), dict(weight=w, reduction='none'), dict(reduction='none')]:
        lp = F.log_softmax(x, dim=1)
        loss = F.nll_loss(lp, t, **kw)
        g, = torch.autograd.grad(loss.sum(), x)
        print(shape, sorted(kw), loss.sum().item(), g.sum().item(), g.abs().sum().item(), loss.grad_fn.name() if shape[2:] and kw.get('reduction') != 'none' else '')
    ce = F.cross_entropy(x, t, label_smoothing=0.0)
    print(ce.item())
try:
    F.nll_loss(torch.randn(2, 3, 4), torch.zeros(2, 5, dtype=torch.long))
except RuntimeError as e:
    print(e)
try:
    F.nll_loss(torch.randn(2, 3, 4), torch.zeros(3, 4, dtype=torch.long))
except ValueError as e:
    print(e)
