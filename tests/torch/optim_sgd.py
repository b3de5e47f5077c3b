# torch.optim.SGD as training loops use it: zero_grad(), loss.backward(), step(), with momentum,
# Nesterov, dampening, weight decay and maximize; parameters of 37 x 19 so that every update has
# elements in both ATen's vector body and its scalar tail; the optimizer's repr.
import torch
import torch.nn as nn

torch.manual_seed(123)
model = nn.Sequential(nn.Linear(37, 19), nn.GELU(), nn.Linear(19, 3))
x = torch.randn(8, 37)
t = torch.randn(8, 3)
for kwargs in [dict(lr=0.1), dict(lr=0.05, momentum=0.9), dict(lr=0.01, momentum=0.9, nesterov=True, weight_decay=0.01),
               dict(lr=0.3, momentum=0.5, dampening=0.1, weight_decay=1e-3, maximize=True)]:
    opt = torch.optim.SGD(model.parameters(), **kwargs)
    for step in range(4):
        opt.zero_grad()
        loss = nn.MSELoss()(model(x), t)
        loss.backward()
        opt.step()
        print(step, loss.item())
    print(model[0].weight.reshape(-1)[:5].tolist(), model[2].bias.tolist())
    print(model[0].weight.grad.reshape(-1)[-3:].tolist())
print(opt)
opt.zero_grad(set_to_none=True)
print(model[0].bias.grad)
