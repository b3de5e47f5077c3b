# A user's optimizer subclassing torch.optim.Optimizer, as tutorials write one: defaults, a
# @torch.no_grad() step over param_groups, p.add_(p.grad, alpha=-lr), self.state[p] as a
# defaultdict; an lr changed by hand in param_groups takes effect; its repr and state_dict.
import torch
import torch.nn as nn


class MySGD(torch.optim.Optimizer):
    def __init__(self, params, lr=0.01, momentum=0.0):
        if lr < 0.0:
            raise ValueError(f"Invalid learning rate: {lr}")
        defaults = dict(lr=lr, momentum=momentum)
        super().__init__(params, defaults)

    @torch.no_grad()
    def step(self, closure=None):
        loss = None
        if closure is not None:
            with torch.enable_grad():
                loss = closure()
        for group in self.param_groups:
            for p in group['params']:
                if p.grad is None:
                    continue
                d_p = p.grad
                if group['momentum'] != 0:
                    state = self.state[p]
                    if 'momentum_buffer' not in state:
                        buf = state['momentum_buffer'] = torch.clone(d_p).detach()
                    else:
                        buf = state['momentum_buffer']
                        buf.mul_(group['momentum']).add_(d_p)
                    d_p = buf
                p.add_(d_p, alpha=-group['lr'])
        return loss


torch.manual_seed(3)
model = nn.Sequential(nn.Linear(5, 7), nn.ReLU(), nn.Linear(7, 1))
x = torch.randn(10, 5)
y = torch.randn(10, 1)
opt = MySGD(model.parameters(), lr=0.1, momentum=0.9)
print(opt)
print(isinstance(opt, torch.optim.Optimizer), opt.defaults, len(opt.param_groups[0]['params']))
for epoch in range(6):
    def closure():
        opt.zero_grad()
        loss = nn.functional.mse_loss(model(x), y)
        loss.backward()
        return loss
    loss = opt.step(closure)
    print(epoch, repr(loss.item()), loss.requires_grad)
    if epoch == 2:
        for g in opt.param_groups:
            g['lr'] = 0.01
print([repr(v) for v in model[2].weight.reshape(-1).tolist()])
print(len(opt.state), sorted(opt.state[model[0].weight].keys()))
print(opt.state_dict()['param_groups'])
print(opt.state_dict()['state'][3])

# the same training with torch.optim.SGD gives the same numbers (PyTorch's SGD with dampening 0)
torch.manual_seed(3)
model2 = nn.Sequential(nn.Linear(5, 7), nn.ReLU(), nn.Linear(7, 1))
opt2 = torch.optim.SGD(model2.parameters(), lr=0.1, momentum=0.9)
for epoch in range(6):
    opt2.zero_grad()
    nn.functional.mse_loss(model2(x), y).backward()
    opt2.step()
    if epoch == 2:
        opt2.param_groups[0]['lr'] = 0.01
print(torch.equal(model[2].weight, model2[2].weight), torch.equal(model[0].bias, model2[0].bias))

try:
    MySGD(model.parameters(), lr=-1)
except ValueError as e:
    print("ValueError:", e)


class NoStep(torch.optim.Optimizer):
    pass


try:
    NoStep(model.parameters(), {}).step(None)
except NotImplementedError as e:
    print("NotImplementedError", repr(str(e)))
h = torch.ones(2, requires_grad=True) * 2
print(h.retains_grad, h.is_leaf, model[0].weight.retains_grad)
h.retain_grad()
print(h.retains_grad, torch.optim.SGD([h], lr=0.1).param_groups[0]['params'][0] is h)
try:
    torch.optim.Optimizer([torch.ones(2, requires_grad=True) * 2], {})
except ValueError as e:
    print("ValueError:", e)
try:
    torch.optim.SGD(model.parameters())
except ValueError as e:
    print("ValueError:", e)
