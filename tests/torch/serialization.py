# torch.save / torch.load as a tutorial uses them: a state_dict saved, the model changed, the
# state_dict loaded back (load_state_dict), a tensor and a dict of tensors round-tripped, a whole
# module saved and loaded, a name never saved. What PyTorch prints; attn keeps the objects in the
# session's memory (python/serialization.py), PyTorch in files: the printed results are the same.
import torch
import torch.nn as nn

torch.manual_seed(123)
model = nn.Linear(3, 2)
torch.save(model.state_dict(), "attn_test_model.pth")
with torch.no_grad():
    model.weight.fill_(0.5)
print(model.weight)
model.load_state_dict(torch.load("attn_test_model.pth"))
print(model.weight, model.bias)
t = torch.arange(6.).reshape(2, 3)
torch.save({"t": t, "step": 3, "names": ["a", "b"]}, "attn_test_dict.pth")
t.add_(100)
back = torch.load("attn_test_dict.pth", map_location="cpu")
print(back["t"], back["step"], back["names"], back["t"] is t)
torch.save(model, "attn_test_module.pth")
m2 = torch.load("attn_test_module.pth")
print(m2, m2 is model, torch.equal(m2.weight, model.weight), m2.weight.requires_grad)
torch.save(t, "attn_test_dict.pth")
print(torch.load("attn_test_dict.pth"))
try:
    torch.load("attn_test_never_saved.pth")
except FileNotFoundError as e:
    print("FileNotFoundError:", str(e).split(" (attn")[0])   # attn adds why, in parentheses
