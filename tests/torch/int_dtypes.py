# The integer dtypes uint8, int8, int16 and int32 beside int64, bool and float32: creation, repr,
# conversions (truncation and wrap-around), PyTorch 1.13's type promotion over a table of dtype
# pairs and operators, reductions, uint8 masks, the legacy tensor types (torch.LongTensor, x.type())
# and the Annotated Transformer's subsequent_mask. Errors are printed as "Type: message".
import torch

dtypes = [torch.bool, torch.uint8, torch.int8, torch.int16, torch.int32, torch.int64, torch.float32]


def show(f):
    try:
        print(f())
    except Exception as e:
        print(type(e).__name__ + ":", e)


# ---- creation and repr ----
print(torch.uint8, torch.int8, torch.int16, torch.int32, torch.int, torch.short, torch.long)
print(torch.tensor([1, 2], dtype=torch.uint8), torch.tensor([1, 2], dtype=torch.int32))
print(repr(torch.tensor([], dtype=torch.int8)), torch.zeros(2, 0, dtype=torch.int16))
print(torch.tensor(7, dtype=torch.int16), torch.tensor([[-128, 127], [0, -1]], dtype=torch.int8))
print(torch.tensor([-1, 255], dtype=torch.uint8), torch.tensor([2147483647, -2147483648], dtype=torch.int32))
print(torch.zeros(2, 3, dtype=torch.int32), torch.ones(2, dtype=torch.int8), torch.full((2,), -1, dtype=torch.uint8))
print(torch.arange(5, dtype=torch.int16), torch.arange(250, 260, dtype=torch.uint8))
u = torch.tensor([[1, 2], [3, 4]], dtype=torch.uint8)
print(torch.zeros_like(u), torch.ones_like(u, dtype=torch.int8), torch.empty(2, 3, dtype=torch.uint8).shape)
print(torch.full((2, 2), 3, dtype=torch.int32), torch.tensor(True, dtype=torch.uint8))
print(torch.arange(300, dtype=torch.int32).reshape(3, 100))
torch.manual_seed(0)
print(torch.randint(0, 10, (2, 3), dtype=torch.uint8))
show(lambda: torch.tensor([300], dtype=torch.uint8))
show(lambda: torch.tensor([-1.5], dtype=torch.uint8))
show(lambda: torch.tensor([127.5], dtype=torch.int8))
show(lambda: torch.tensor([1e10], dtype=torch.int32))
show(lambda: torch.full((2,), 300, dtype=torch.uint8))
show(lambda: torch.rand(2, dtype=torch.int32))

# ---- attributes, item, tolist ----
i = torch.tensor([[5, -3]], dtype=torch.int32)
print(i.dtype, i.dtype.is_floating_point, i[0, 1].item(), type(i[0, 1].item()).__name__, i.tolist())
print(u.type(), i.type(), torch.tensor([1.0]).type(), torch.tensor([True]).type(), torch.tensor([1]).char().type(), u.short().type())
print(torch.typename(i), f"{i[0, 0]:>4}", int(u[1, 1]), float(i[0, 1]), [1, 2, 3, 4][u[0, 1]])

# ---- conversions from float: truncation toward zero, wrap-around ----
f = torch.tensor([300.0, -1.0, 3.7, -3.7, 200.0, 127.9, -128.9, 0.5])
print(f.byte(), f.char(), f.short(), f.int(), f.long())
print(torch.tensor([70000.0, -70000.0, 40000.0]).short(), torch.tensor([2.5e9, -1e10]).long())
w = torch.tensor([2 ** 40 + 5, -129, 128, 255, 256, -1, 65535, 2 ** 31])
print(w.byte(), w.char(), w.short(), w.int(), w.bool())
print(u.float(), u.int().to(torch.int8), u.to(torch.float32), u.to(torch.tensor([1])).dtype, u.long().byte())
print(u.type(torch.int16), u.type('torch.IntTensor'), u.type(torch.LongTensor), u.type_as(torch.tensor([1.0])))
print(torch.tensor([1.5, -2.5]).type_as(i), torch.tensor([True, False]).byte(), u.bool())
show(lambda: u.type('torch.NoSuchTensor'))

# ---- promotion: dtype pairs through + and ==, and 0-d tensors and numbers ----
for a in dtypes:
    print(str(a)[6:].ljust(7), *[str((torch.ones(2, dtype=a) + torch.ones(2, dtype=b)).dtype)[6:].ljust(7)
                                 if a != torch.bool or b != torch.bool else "bool   " for b in dtypes])
for a in dtypes:
    print(str(a)[6:].ljust(7), *[str((torch.ones(2, dtype=a) * torch.tensor(1, dtype=b)).dtype)[6:].ljust(7) for b in dtypes])
for a in dtypes:
    r = [torch.ones(2, dtype=a) + 1, torch.ones(2, dtype=a) + 1.5, torch.ones(2, dtype=a) + True,
         torch.tensor(1, dtype=a) + 1, torch.tensor(1, dtype=a) + torch.tensor(1), torch.ones(2, dtype=a) / 2]
    print(str(a)[6:].ljust(7), *[str(x.dtype)[6:].ljust(7) for x in r])

# ---- arithmetic with wrap-around, every operator ----
x8 = torch.tensor([7, -7, 100, -128, 127], dtype=torch.int8)
xu = torch.tensor([7, 250, 100, 0, 255], dtype=torch.uint8)
print(x8 + x8, x8 - 1, x8 * 3, -x8, x8 // 2, x8 % 3, x8 / 2)
print(xu + xu, xu - 8, xu * 2, -xu, xu // 3, xu % 7, xu / 4, 300 + xu, 2 - xu)
print(x8 + xu, xu * torch.tensor([2], dtype=torch.int32), xu - torch.tensor(500), xu + 2.5)
print(x8 & xu, x8 | 1, xu ^ torch.tensor([1], dtype=torch.int16), ~xu, ~x8, xu & True)
print(x8 < 0, xu >= 100, xu == -1, x8 != torch.tensor(7, dtype=torch.uint8), xu > 2.5, x8 == x8.int())
i32 = torch.tensor([2147483647, -2147483648, 5], dtype=torch.int32)
print(i32 + 1, i32 * 2, i32 - 1, i32 // 2, i32 % 4, i32.long() + 1)
show(lambda: torch.tensor([1], dtype=torch.int32) // 0)
show(lambda: torch.tensor([1], dtype=torch.uint8) % 0)
show(lambda: torch.tensor([1.0]) & torch.tensor([1], dtype=torch.uint8))
y = torch.tensor([1, 2], dtype=torch.uint8)
y += 255
print(y)
y *= 3
print(y)
def iadd(t, v):
    t += v


show(lambda: iadd(y, 1.5))
z = torch.tensor([1, 2], dtype=torch.int16)
z.add_(torch.tensor([40000, 1]))
print(z)

# ---- reductions, sort, max, cat ----
print(u.sum(), u.sum().dtype, u.sum(dim=0), u.int().sum(dim=1, keepdim=True), torch.tensor([200, 200], dtype=torch.uint8).sum())
show(lambda: u.mean())
show(lambda: i.mean(dim=0))
print(u.max(), u.argmax(), u.max(dim=0), u.sort(descending=True))
print(torch.cat([u, u.int()]), torch.stack([u, u]).dtype, torch.cat([u, torch.tensor([[1.0, 2.0]])]))
print(torch.tril(u), torch.triu(x8.reshape(1, 5).expand(3, 5)), u.t(), u.view(4), u.flip(0), u.unsqueeze(0).shape)
print(torch.where(u > 2, u, 0), torch.where(u > 2, u, torch.tensor(0)).dtype, torch.where(u > 2, 1.5, u), torch.where(u > 2, u, u.int() - 9))
print(u.all(), (u - 1).any(dim=1), u.clone(), u.contiguous(), u[1], u[:, 0], u[0, 1])

# ---- uint8 masks (1.13 warns on stderr and takes them as bool) ----
v = torch.arange(6.0).reshape(2, 3)
m = torch.tensor([[1, 0, 1], [0, 1, 0]], dtype=torch.uint8)
print(v.masked_fill(m, -1.0))
v2 = v.clone()
v2.masked_fill_(m, 9.0)
print(v2)
v3 = v.clone()
v3[m] = 0
print(v3)
iv = torch.tensor([1, 2, 3], dtype=torch.int8)
print(iv.masked_fill(torch.tensor([True, False, True]), -1), iv.masked_fill(torch.tensor([True, False, False]), 2.7))
show(lambda: iv.masked_fill(torch.tensor([True, False, True]), 300))
show(lambda: torch.tensor([1, 2], dtype=torch.uint8).fill_(-2.7))
print(torch.tensor([1, 2], dtype=torch.uint8).fill_(-1), torch.tensor([1, 2], dtype=torch.int16).fill_(2.9))

# ---- the legacy tensor types ----
print(torch.LongTensor([1, 2]), torch.FloatTensor([1, 2]), torch.ByteTensor([1, 2]), torch.IntTensor([[1], [2]]))
print(torch.BoolTensor([1, 0]), torch.ShortTensor([3]), torch.CharTensor([-3]), torch.LongTensor().shape, torch.IntTensor(2, 3).shape)
print(torch.LongTensor, isinstance(torch.tensor([1]), torch.LongTensor), isinstance(torch.tensor([1.0]), torch.LongTensor),
      isinstance(u, torch.ByteTensor), isinstance(u, torch.Tensor), isinstance(u.int(), (torch.FloatTensor, torch.IntTensor)))
print(torch.tensor([0, 1]).type(torch.FloatTensor), torch.tensor([3.5]).type(torch.ByteTensor))


# ---- the Annotated Transformer's subsequent_mask ----
def subsequent_mask(size):
    "Mask out subsequent positions."
    attn_shape = (1, size, size)
    subsequent_mask = torch.triu(torch.ones(attn_shape), diagonal=1).type(torch.uint8)
    return subsequent_mask == 0


print(subsequent_mask(5))
print(subsequent_mask(3).type(), (torch.ones(1, 3) != 0).unsqueeze(-2) & subsequent_mask(3))
scores = torch.arange(9.0).reshape(1, 3, 3)
print(scores.masked_fill(subsequent_mask(3) == 0, -1e9))

# sum/prod with a narrower integer dtype= wrap into it (review 25 #08)
x = torch.tensor([[100, 2], [3, 4]], dtype=torch.int8)
print(x.prod(1, dtype=torch.int8), x.prod(dtype=torch.int8), x.prod(1, dtype=torch.int16))
print(x.sum(1, dtype=torch.int8), x.sum(dtype=torch.int8))
f = torch.tensor([3.5, 4.])
print(f.prod(dtype=torch.int32), f.prod(0, dtype=torch.int32), f.sum(dtype=torch.int32))
print(torch.tensor([True, True]).prod(dtype=torch.bool), torch.tensor([2, 3]).prod(dtype=torch.float32))
print(x.prod(1, keepdim=True, dtype=torch.int8), x.sum((0, 1), dtype=torch.int16), x.sum(1, keepdim=True, dtype=torch.uint8))
