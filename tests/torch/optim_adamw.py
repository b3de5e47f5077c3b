# torch.optim.AdamW as training loops use it (defaults, weight decay, betas/eps, amsgrad): parameters
# of 37 x 19 so that every update has elements in ATen's vector body and in its scalar tail.
import torch
import torch.nn as nn

torch.manual_seed(123)
model = nn.Sequential(nn.Linear(37, 19), nn.GELU(), nn.Linear(19, 3))
x = torch.randn(8, 37)
t = torch.randn(8, 3)
for kwargs in [dict(), dict(lr=0.01, weight_decay=0.1), dict(lr=0.003, betas=(0.8, 0.95), eps=1e-6, amsgrad=True)]:
    opt = torch.optim.AdamW(model.parameters(), **kwargs)
    for step in range(5):
        opt.zero_grad()
        loss = nn.MSELoss()(model(x), t)
        loss.backward()
        opt.step()
        print(step, loss.item())
    print(model[0].weight.reshape(-1)[:5].tolist(), model[2].bias.tolist())
    print(model[0].weight.reshape(-1)[-3:].tolist())
