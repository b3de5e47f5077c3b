# torch.distributions (Categorical, Normal, Uniform), and what they draw with:
# torch.multinomial with replacement (one sample too), torch.normal with tensor mean/std, and
# PyTorch's NumPy-style keyword names (axis=, keepdims=).
import torch
from torch.distributions import Categorical
import torch.distributions as dist
torch.manual_seed(0)
p = torch.tensor([0.1, 0.2, 0.3, 0.4])
c = Categorical(p)
print(c, c.batch_shape, c.event_shape)
print(c.sample(), c.sample((5,)), c.sample((2, 3)))
print(c.probs, c.logits)
print(c.log_prob(torch.tensor([0, 3])), c.entropy())
c2 = Categorical(probs=torch.rand(3, 5))
print(c2, c2.sample(), c2.sample((2,)).shape)
print(c2.entropy(), c2.log_prob(torch.tensor([1, 2, 4])))
n = dist.Normal(torch.zeros(3), torch.ones(3) * 2)
print(n, n.sample(), n.rsample((2,)), n.log_prob(torch.tensor([0.5, -1.0, 2.0])), n.entropy(), n.cdf(torch.zeros(3)))
n1 = dist.Normal(0.0, 1.0)
print(n1, n1.sample(), n1.sample((3,)), n1.mean, n1.stddev, n1.variance)
u = dist.Uniform(torch.tensor([0.0, 1.0]), torch.tensor([1.0, 3.0]))
print(u, u.sample(), u.rsample((2,)), u.entropy(), u.mean, u.variance, u.cdf(torch.tensor([0.5, 2.0])))
print(dist.constraints.simplex, dist.constraints.positive, dist.constraints.real_vector, dist.constraints.unit_interval)
try:
    Categorical(torch.tensor([0.5, -0.1]))
except ValueError as e:
    print("ValueError:", e)
try:
    Categorical()
except ValueError as e:
    print("ValueError:", e)
try:
    dist.Normal(torch.zeros(2), torch.tensor([1.0, -1.0]))
except ValueError as e:
    print("ValueError:", e)
try:
    c.log_prob(torch.tensor([5]))
except ValueError as e:
    print("ValueError:", e)
try:
    dist.Uniform(1.0, 0.0)
except ValueError as e:
    print("ValueError:", e)
print(Categorical(p, validate_args=False).log_prob(torch.tensor(2)))
print(c.enumerate_support(), c.mode, c.mean, c.perplexity())
logits = torch.randn(2, 6)
cl = Categorical(logits=logits)
print(cl, cl.logits, cl.probs, cl.sample((3,)), cl.entropy(), cl.log_prob(torch.tensor([5, 0])))
for seed in range(3):
    torch.manual_seed(seed)
    p = torch.rand(3, 7)
    print(torch.multinomial(p, 1, True).tolist(), torch.multinomial(p[0], 1, replacement=True).tolist(),
          torch.multinomial(p, 1).tolist(), torch.multinomial(p, 3, True).tolist())
print(torch.normal(torch.zeros(2, 3), torch.ones(3)), torch.normal(torch.arange(4.), 0.5), torch.normal(2.0, torch.ones(2) * 3))
try:
    torch.normal(torch.zeros(2), torch.tensor([1.0, -1.0]))
except RuntimeError as e:
    print("RuntimeError:", e)
x = torch.arange(12.).reshape(3, 4)
print(x.sum(axis=0), torch.argmax(x, axis=1, keepdims=True), x.mean(axis=-1, keepdims=True), x.ndimension())
print(torch.max(x, axis=0), x.softmax(axis=1), torch.cat([x, x], axis=0).shape, torch.sum(a=x, axis=1))
try:
    x.sum(axes=0)
except TypeError as e:
    print(e)
