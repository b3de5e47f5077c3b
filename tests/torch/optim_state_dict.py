# Optimizer.state_dict() and load_state_dict() as PyTorch 1.13 writes them: state keyed by
# integer ids in parameter order, param_groups with 'params' as index lists, the printed dicts;
# a round trip into a fresh optimizer continues exactly where the first left off (Adam, AdamW,
# SGD with momentum); the errors for a state dict that does not fit.
import copy
import torch
import torch.nn as nn


def train(model, opt, x, t, steps):
    for _ in range(steps):
        opt.zero_grad()
        loss = nn.MSELoss()(model(x), t)
        loss.backward()
        opt.step()
    return loss.item()


torch.manual_seed(1)
x = torch.randn(6, 4)
t = torch.randn(6, 2)
model = nn.Linear(4, 2)
opt = torch.optim.Adam(model.parameters(), lr=0.01, amsgrad=True)
print(opt.state_dict())
train(model, opt, x, t, 3)
sd = opt.state_dict()
print(sd)
print(list(sd['state'].keys()), sd['param_groups'][0]['params'], type(opt.state).__name__)
print(sd['state'][0]['exp_avg'] is opt.state[model.weight]['exp_avg'])

for make in [lambda p: torch.optim.Adam(p, lr=0.01, amsgrad=True), lambda p: torch.optim.AdamW(p, lr=0.02, weight_decay=0.1),
             lambda p: torch.optim.SGD(p, lr=0.05, momentum=0.9, nesterov=True)]:
    torch.manual_seed(2)
    a = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 2))
    b = copy.deepcopy(a)
    opt_a = make(a.parameters())
    train(a, opt_a, x, t, 3)
    saved = copy.deepcopy(opt_a.state_dict())
    b.load_state_dict(a.state_dict())
    opt_b = make(b.parameters())
    opt_b.load_state_dict(saved)
    la = train(a, opt_a, x, t, 4)
    lb = train(b, opt_b, x, t, 4)
    print(type(opt_a).__name__, repr(la), repr(lb), la == lb, torch.equal(a[0].weight, b[0].weight), torch.equal(a[2].bias, b[2].bias))
    print(repr(a[2].bias.tolist()[0]), opt_b.state_dict()['state'][1], opt_b.defaults)
    print(opt_b.state_dict()['param_groups'])
    saved['state'][0]['step' if 'step' in saved['state'][0] else 'momentum_buffer'].zero_()
    print(repr(a[0].bias.tolist()[0]))   # loading copied the tensors: changing the saved ones changes nothing

# two groups: indices run on through the groups
m1, m2 = nn.Linear(2, 2), nn.Linear(2, 1)
opt = torch.optim.SGD([{'params': m1.parameters()}, {'params': m2.parameters(), 'lr': 0.5}], lr=0.1, momentum=0.5)
m2(m1(torch.ones(1, 2))).sum().backward()
opt.step()
sd = opt.state_dict()
print(sd['param_groups'])
print(sorted(sd['state'].keys()), sd['state'][3])

# what does not fit
for bad in [{'state': {}, 'param_groups': []}, {'state': {}, 'param_groups': [{'params': [0]}, {'params': [1, 2, 3]}]}]:
    try:
        opt.load_state_dict(bad)
    except ValueError as e:
        print("ValueError:", e)
