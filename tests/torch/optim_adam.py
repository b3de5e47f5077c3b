# torch.optim.Adam as training loops use it: defaults, L2 weight decay (grad.add(param, alpha=wd)),
# betas/eps, amsgrad, maximize, two parameter groups; parameters of 37 x 19 so that every update
# has elements in ATen's vector body and in its scalar tail; full-precision values printed.
import torch
import torch.nn as nn

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(37, 19), nn.Tanh(), nn.Linear(19, 3))
x = torch.randn(16, 37)
t = torch.randn(16, 3)
variants = [dict(), dict(lr=0.01, weight_decay=0.1), dict(lr=0.003, betas=(0.8, 0.95), eps=1e-6, amsgrad=True),
            dict(lr=0.02, weight_decay=0.05, amsgrad=True), dict(lr=1e-3, maximize=True, weight_decay=1e-2)]
for kwargs in variants:
    opt = torch.optim.Adam(model.parameters(), **kwargs)
    for step in range(5):
        opt.zero_grad()
        loss = nn.MSELoss()(model(x), t)
        loss.backward()
        opt.step()
        print(step, repr(loss.item()))
    print([repr(v) for v in model[0].weight.reshape(-1)[:4].tolist()], [repr(v) for v in model[2].bias.tolist()])
    print([repr(v) for v in model[0].weight.reshape(-1)[-3:].tolist()])
    state = opt.state[model[0].bias]
    print(sorted(state.keys()), state['step'], repr(state['exp_avg_sq'].sum().item()))

torch.set_printoptions(precision=8)
print(model[2].weight)
print(model[2].bias)
torch.set_printoptions(profile="default")

# two groups with their own settings, and an lr changed by hand between steps
opt = torch.optim.Adam([{'params': model[0].parameters()}, {'params': model[2].parameters(), 'lr': 0.05, 'amsgrad': True}],
                       lr=0.002, weight_decay=0.01)
print(opt)
for step in range(4):
    opt.zero_grad()
    loss = nn.MSELoss()(model(x), t)
    loss.backward()
    opt.step()
    opt.param_groups[0]['lr'] *= 0.5
    print(step, repr(loss.item()), opt.param_groups[0]['lr'])
print([repr(v) for v in model[0].bias.tolist()[:5]], [repr(v) for v in model[2].weight.reshape(-1).tolist()[-4:]])

# a parameter with no .grad is skipped and gets no state
w = nn.Parameter(torch.ones(3))
u = nn.Parameter(torch.ones(3))
opt = torch.optim.Adam([w, u], lr=0.1)
(w * torch.tensor([1.0, -2.0, 3.0])).sum().backward()
opt.step()
print(w, u, len(opt.state), u in opt.state)

# PyTorch's argument errors
for bad in [dict(lr=-1.0), dict(eps=-1e-3), dict(betas=(1.0, 0.9)), dict(betas=(0.9, -0.1)), dict(weight_decay=-0.5)]:
    try:
        torch.optim.Adam(model.parameters(), **bad)
    except ValueError as e:
        print("ValueError:", e)
for bad in [torch.ones(2), []]:
    try:
        torch.optim.Adam(bad)
    except (TypeError, ValueError) as e:
        print(type(e).__name__ + ":", e)
