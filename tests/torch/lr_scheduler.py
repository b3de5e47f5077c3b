# torch.optim.lr_scheduler as PyTorch 1.13 runs it: each scheduler's learning rates over 12 steps
# (repr, every bit), get_last_lr(), state_dict() and load_state_dict(), verbose printing, the
# warnings a training loop can trigger (caught and printed here), and the errors of bad arguments.
import math
import warnings
import torch
import torch.optim as optim
from torch.optim import lr_scheduler
from torch.optim.lr_scheduler import StepLR
import torch.optim.lr_scheduler as sched


def make_opt(lr=0.1, groups=1, kind=optim.SGD, **kw):
    ps = [torch.nn.Parameter(torch.ones(3) * (i + 1)) for i in range(groups)]
    if groups == 1:
        return kind(ps, lr=lr, **kw)
    return kind([{'params': [p], 'lr': lr * (i + 1)} for i, p in enumerate(ps)], **kw)


def run(name, make, steps=12, groups=1, kind=optim.SGD, **kw):
    opt = make_opt(groups=groups, kind=kind, **kw)
    s = make(opt)
    lrs = [s.get_last_lr()]
    for _ in range(steps):
        opt.step()
        s.step()
        lrs.append(s.get_last_lr())
    print(name, [[repr(v) for v in g] for g in lrs])
    return opt, s


run("LambdaLR", lambda o: lr_scheduler.LambdaLR(o, lambda e: 0.95 ** e))
run("LambdaLR two groups", lambda o: lr_scheduler.LambdaLR(o, [lambda e: e // 3, lambda e: 1 / (e + 1)]), groups=2)
run("MultiplicativeLR", lambda o: lr_scheduler.MultiplicativeLR(o, lambda e: 0.9))
run("StepLR", lambda o: StepLR(o, step_size=3, gamma=0.5))
run("StepLR two groups", lambda o: optim.lr_scheduler.StepLR(o, 4), groups=2)
run("MultiStepLR", lambda o: sched.MultiStepLR(o, milestones=[2, 5, 5, 9], gamma=0.3))
run("ConstantLR", lambda o: lr_scheduler.ConstantLR(o, factor=0.25, total_iters=4))
run("ConstantLR default", lambda o: lr_scheduler.ConstantLR(o))
run("LinearLR", lambda o: lr_scheduler.LinearLR(o, start_factor=0.1, total_iters=7))
run("LinearLR down", lambda o: lr_scheduler.LinearLR(o, start_factor=1.0, end_factor=0.05, total_iters=10))
run("ExponentialLR", lambda o: lr_scheduler.ExponentialLR(o, gamma=0.87))
run("CosineAnnealingLR", lambda o: lr_scheduler.CosineAnnealingLR(o, T_max=5, eta_min=0.001))
run("CosineAnnealingLR T_max=12", lambda o: lr_scheduler.CosineAnnealingLR(o, T_max=12), groups=2)
run("PolynomialLR", lambda o: lr_scheduler.PolynomialLR(o, total_iters=8, power=2.0))
run("CosineAnnealingWarmRestarts", lambda o: lr_scheduler.CosineAnnealingWarmRestarts(o, T_0=3, T_mult=2, eta_min=0.01))
run("CosineAnnealingWarmRestarts T_mult=1", lambda o: lr_scheduler.CosineAnnealingWarmRestarts(o, T_0=4))
run("SequentialLR", lambda o: lr_scheduler.SequentialLR(o, [lr_scheduler.LinearLR(o, start_factor=0.2, total_iters=3),
                                                              lr_scheduler.CosineAnnealingLR(o, T_max=8)], milestones=[3]))
run("SequentialLR three", lambda o: lr_scheduler.SequentialLR(o, [lr_scheduler.ConstantLR(o, factor=0.1, total_iters=2),
                                                                    lr_scheduler.ExponentialLR(o, gamma=0.9),
                                                                    lr_scheduler.StepLR(o, 2)], milestones=[2, 6]))
run("ChainedScheduler", lambda o: lr_scheduler.ChainedScheduler([lr_scheduler.ConstantLR(o, factor=0.1, total_iters=2),
                                                                  lr_scheduler.ExponentialLR(o, gamma=0.9)]))
opt, s = run("OneCycleLR", lambda o: lr_scheduler.OneCycleLR(o, max_lr=0.5, total_steps=13), momentum=0.9)
print([repr(g['momentum']) for g in opt.param_groups], sorted(opt.param_groups[0].keys()))
opt, s = run("OneCycleLR Adam linear three_phase", lambda o: lr_scheduler.OneCycleLR(o, max_lr=[0.01, 0.02], epochs=3, steps_per_epoch=4,
                                                                                       anneal_strategy='linear', three_phase=True),
             groups=2, kind=optim.Adam)
print([repr(g['betas'][0]) for g in opt.param_groups])
opt, s = run("CyclicLR", lambda o: lr_scheduler.CyclicLR(o, base_lr=0.01, max_lr=0.1, step_size_up=3, mode='triangular2'), momentum=0.9)
print(repr(opt.param_groups[0]['momentum']))
run("CyclicLR exp_range", lambda o: lr_scheduler.CyclicLR(o, base_lr=0.01, max_lr=0.1, step_size_up=2, step_size_down=4,
                                                          mode='exp_range', gamma=0.9, cycle_momentum=False))

# ReduceLROnPlateau: the metric decides
opt = make_opt(lr=1.0, groups=2)
plateau = lr_scheduler.ReduceLROnPlateau(opt, mode='min', factor=0.5, patience=2, cooldown=1, min_lr=[0.1, 0.3], verbose=True)
for epoch, loss in enumerate([1.0, 0.9, 0.95, 0.93, 0.92, 0.91, 0.95, 0.96, 0.97, 0.5, 0.6, 0.7, 0.8, 0.9, 0.99, 1.0]):
    opt.step()
    plateau.step(torch.tensor(loss) if epoch % 2 else loss)
    print(epoch, [repr(g['lr']) for g in opt.param_groups], plateau.num_bad_epochs, plateau.cooldown_counter, repr(plateau.best))
print(plateau.state_dict())
maxp = lr_scheduler.ReduceLROnPlateau(make_opt(), mode='max', threshold=0.1, threshold_mode='abs', patience=0)
for acc in [0.5, 0.55, 0.7, 0.75, 0.9]:
    maxp.step(acc)
    print(repr(maxp.optimizer.param_groups[0]['lr']), end=' ')
print()

# state_dict and a scheduler resumed from it
opt = make_opt()
s = StepLR(opt, step_size=2, gamma=0.7)
for _ in range(5):
    opt.step()
    s.step()
print(s.state_dict())
opt2 = make_opt()
opt2.load_state_dict(opt.state_dict())
s2 = StepLR(opt2, step_size=2, gamma=0.7, last_epoch=s.last_epoch)
s3 = StepLR(make_opt(), step_size=5)
s3.load_state_dict(s.state_dict())
print(s2.last_epoch, s3.last_epoch, s3.step_size, s3.get_last_lr(), opt2.param_groups[0]['initial_lr'])
for _ in range(3):
    opt.step()
    s.step()
    opt2.step()
    s2.step()
    print(repr(s.get_last_lr()[0]), repr(s2.get_last_lr()[0]))
lam = lr_scheduler.LambdaLR(make_opt(), lambda e: 0.5 ** e)
print(lam.state_dict())
seq = lr_scheduler.SequentialLR(opt, [lr_scheduler.ConstantLR(opt, factor=0.5, total_iters=2), lr_scheduler.ExponentialLR(opt, 0.5)], [2])
print(seq.state_dict())
try:
    StepLR(make_opt(), 3, last_epoch=4)
except KeyError as e:
    print("KeyError:", e)

# verbose
opt = make_opt(lr=0.1, groups=2)
v = lr_scheduler.ExponentialLR(opt, gamma=0.5, verbose=True)
for _ in range(2):
    opt.step()
    v.step()
cw = lr_scheduler.CosineAnnealingWarmRestarts(make_opt(), T_0=2, verbose=True)
cw.step()
cw.step(1.5)

# the warnings a training loop can trigger, caught
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    opt = make_opt()
    s = StepLR(opt, 2)
    s.step()                    # before optimizer.step()
    opt.step()
    s.get_lr()                  # get_lr() outside step()
    s.step(5)                   # an epoch passed to step()
    opt.step = lambda: None     # optimizer.step replaced after the scheduler wrapped it
    s2 = StepLR(make_opt(), 2)
    s2.optimizer.step = lambda: None
    s2.step()
for w in caught:
    print(w.category.__name__, str(w.message))
print(repr(s.get_last_lr()[0]), s.last_epoch)

# errors of bad arguments
bad = [lambda: StepLR(torch.ones(2), 3),
       lambda: lr_scheduler.LambdaLR(make_opt(groups=2), [lambda e: 1.0]),
       lambda: lr_scheduler.ConstantLR(make_opt(), factor=1.5),
       lambda: lr_scheduler.LinearLR(make_opt(), start_factor=0),
       lambda: lr_scheduler.LinearLR(make_opt(), end_factor=2),
       lambda: lr_scheduler.CosineAnnealingWarmRestarts(make_opt(), T_0=0),
       lambda: lr_scheduler.CosineAnnealingWarmRestarts(make_opt(), T_0=2, T_mult=1.5),
       lambda: lr_scheduler.OneCycleLR(make_opt(), max_lr=0.1),
       lambda: lr_scheduler.OneCycleLR(make_opt(), max_lr=0.1, total_steps=0),
       lambda: lr_scheduler.OneCycleLR(make_opt(), max_lr=0.1, total_steps=10, pct_start=1),
       lambda: lr_scheduler.OneCycleLR(make_opt(), max_lr=0.1, total_steps=10, anneal_strategy='cosine'),
       lambda: lr_scheduler.OneCycleLR(make_opt(kind=optim.Adam), max_lr=[0.1, 0.2], total_steps=10),
       lambda: lr_scheduler.ReduceLROnPlateau(make_opt(), factor=1.0),
       lambda: lr_scheduler.ReduceLROnPlateau(make_opt(), mode='low'),
       lambda: lr_scheduler.ReduceLROnPlateau(make_opt(), threshold_mode='x'),
       lambda: lr_scheduler.SequentialLR(make_opt(), [StepLR(make_opt(), 2)], milestones=[]),
       lambda: (lambda o: lr_scheduler.SequentialLR(o, [StepLR(o, 2), StepLR(o, 2)], milestones=[3, 4]))(make_opt()),
       lambda: optim.SGD([torch.nn.Parameter(torch.ones(1))], lr=-0.1),
       lambda: optim.SGD([torch.nn.Parameter(torch.ones(1))], lr=0.1, momentum=-1),
       lambda: optim.AdamW([torch.nn.Parameter(torch.ones(1))], lr=-2)]
for f in bad:
    try:
        f()
        print("no error")
    except (ValueError, TypeError, KeyError) as e:
        print(type(e).__name__ + ":", e)
opt = make_opt()
oc = lr_scheduler.OneCycleLR(opt, max_lr=0.1, total_steps=2)
try:
    for _ in range(3):
        opt.step()
        oc.step()
except ValueError as e:
    print("ValueError:", e)
