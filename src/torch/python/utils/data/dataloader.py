# torch/python/utils/data/dataloader.py: torch.utils.data.dataloader as PyTorch 1.13 writes it
# (torch/utils/data/dataloader.py, _utils/fetch.py): DataLoader's argument checks and default
# samplers, len(), and its iterator, which draws the workers' base seed from the loader's
# generator (the default one unless given) every time it is made, as 1.13 does, so every later
# random number is the one PyTorch gives.
# num_workers > 0 loads in this process: the main process's draws are torch's (the base seed, the
# sampler read prefetch_factor * num_workers batches ahead, no new seed for persistent workers),
# but the workers' own streams (base_seed + worker id) are not made, so a dataset that draws
# random numbers in __getitem__ differs from torch's there.
# What it is not: worker processes, pinned memory (ignored: there is no CUDA), DataPipes, or an
# IterableDataset split over workers (refused).
import math
import warnings
from typing import Generic, TypeVar

import torch
from torch.utils.data.dataset import Dataset, IterableDataset
from torch.utils.data.sampler import Sampler, SequentialSampler, RandomSampler, BatchSampler
from torch.utils.data._utils.collate import default_collate, default_convert

T_co = TypeVar('T_co', covariant=True)


def get_worker_info():
    return None


class _DatasetKind(object):
    Map = 0
    Iterable = 1

    @staticmethod
    def create_fetcher(kind, dataset, auto_collation, collate_fn, drop_last):
        if kind == _DatasetKind.Map:
            return _MapDatasetFetcher(dataset, auto_collation, collate_fn, drop_last)
        else:
            return _IterableDatasetFetcher(dataset, auto_collation, collate_fn, drop_last)


class _InfiniteConstantSampler(Sampler):
    def __init__(self):
        super(_InfiniteConstantSampler, self).__init__(None)

    def __iter__(self):
        while True:
            yield None


class _IterableDatasetFetcher(object):
    def __init__(self, dataset, auto_collation, collate_fn, drop_last):
        self.dataset, self.auto_collation = dataset, auto_collation
        self.collate_fn, self.drop_last = collate_fn, drop_last
        self.dataset_iter = iter(dataset)
        self.ended = False

    def fetch(self, possibly_batched_index):
        if self.ended:
            raise StopIteration
        if self.auto_collation:
            data = []
            for _ in possibly_batched_index:
                try:
                    data.append(next(self.dataset_iter))
                except StopIteration:
                    self.ended = True
                    break
            if len(data) == 0 or (self.drop_last and len(data) < len(possibly_batched_index)):
                raise StopIteration
        else:
            data = next(self.dataset_iter)
        return self.collate_fn(data)


class _MapDatasetFetcher(object):
    def __init__(self, dataset, auto_collation, collate_fn, drop_last):
        self.dataset, self.auto_collation = dataset, auto_collation
        self.collate_fn, self.drop_last = collate_fn, drop_last

    def fetch(self, possibly_batched_index):
        if self.auto_collation:
            if hasattr(self.dataset, "__getitems__") and self.dataset.__getitems__:
                data = self.dataset.__getitems__(possibly_batched_index)
            else:
                data = [self.dataset[idx] for idx in possibly_batched_index]
        else:
            data = self.dataset[possibly_batched_index]
        return self.collate_fn(data)


def _check_loader_args(num_workers, timeout, prefetch_factor, persistent_workers):
    if num_workers < 0:
        raise ValueError('num_workers option should be non-negative; '
                         'use num_workers=0 to disable multiprocessing.')
    if timeout < 0:
        raise ValueError('timeout option should be non-negative')
    if num_workers == 0 and prefetch_factor != 2:
        raise ValueError('prefetch_factor option could only be specified in multiprocessing.'
                         'let num_workers > 0 to enable multiprocessing.')
    assert prefetch_factor > 0
    if persistent_workers and num_workers == 0:
        raise ValueError('persistent_workers option needs num_workers > 0')


def _check_iterable_args(shuffle, sampler, batch_sampler):
    # NOTE [ Custom Samplers and IterableDataset ] in PyTorch.
    if shuffle not in {False, None}:
        raise ValueError(
            "DataLoader with IterableDataset: expected unspecified "
            "shuffle option, but got shuffle={}".format(shuffle))
    if sampler is not None:
        raise ValueError(
            "DataLoader with IterableDataset: expected unspecified "
            "sampler option, but got sampler={}".format(sampler))
    elif batch_sampler is not None:
        raise ValueError(
            "DataLoader with IterableDataset: expected unspecified "
            "batch_sampler option, but got batch_sampler={}".format(batch_sampler))


def _check_sampler_args(shuffle, sampler, batch_sampler, batch_size, drop_last):
    if sampler is not None and shuffle:
        raise ValueError('sampler option is mutually exclusive with '
                         'shuffle')
    if batch_sampler is not None:
        if batch_size != 1 or shuffle or sampler is not None or drop_last:
            raise ValueError('batch_sampler option is mutually exclusive '
                             'with batch_size, shuffle, sampler, and '
                             'drop_last')
    elif batch_size is None:
        if drop_last:
            raise ValueError('batch_size=None option disables auto-batching '
                             'and is mutually exclusive with drop_last')


class DataLoader(Generic[T_co]):
    _DataLoader__initialized = False

    def __init__(self, dataset, batch_size=1, shuffle=None, sampler=None, batch_sampler=None,
                 num_workers=0, collate_fn=None, pin_memory=False, drop_last=False, timeout=0,
                 worker_init_fn=None, multiprocessing_context=None, generator=None, *,
                 prefetch_factor=2, persistent_workers=False, pin_memory_device=""):
        _check_loader_args(num_workers, timeout, prefetch_factor, persistent_workers)
        self.dataset = dataset
        self.num_workers = num_workers
        self.prefetch_factor = prefetch_factor
        self.pin_memory = pin_memory
        self.pin_memory_device = pin_memory_device
        self.timeout = timeout
        self.worker_init_fn = worker_init_fn
        self.multiprocessing_context = multiprocessing_context
        if isinstance(dataset, IterableDataset):
            self._dataset_kind = _DatasetKind.Iterable
            _check_iterable_args(shuffle, sampler, batch_sampler)
        else:
            shuffle = bool(shuffle)
            self._dataset_kind = _DatasetKind.Map
        _check_sampler_args(shuffle, sampler, batch_sampler, batch_size, drop_last)
        if batch_sampler is not None:
            batch_size = None
            drop_last = False
        if sampler is None:
            sampler = self._default_sampler(dataset, shuffle, generator)
        if batch_size is not None and batch_sampler is None:
            batch_sampler = BatchSampler(sampler, batch_size, drop_last)
        self.batch_size = batch_size
        self.drop_last = drop_last
        self.sampler = sampler
        self.batch_sampler = batch_sampler
        self.generator = generator
        if collate_fn is None:
            collate_fn = default_collate if self._auto_collation else default_convert
        self.collate_fn = collate_fn
        self.persistent_workers = persistent_workers
        self._DataLoader__initialized = True
        self._IterableDataset_len_called = None
        self._iterator = None

    def _default_sampler(self, dataset, shuffle, generator):
        if self._dataset_kind == _DatasetKind.Iterable:
            return _InfiniteConstantSampler()
        if shuffle:
            return RandomSampler(dataset, generator=generator)
        return SequentialSampler(dataset)

    def __setattr__(self, attr, val):
        if self._DataLoader__initialized and attr in (
                'batch_size', 'batch_sampler', 'sampler', 'drop_last', 'dataset', 'persistent_workers'):
            raise ValueError('{} attribute should not be set after {} is '
                             'initialized'.format(attr, self.__class__.__name__))
        if attr == 'multiprocessing_context' and val is not None and self.num_workers == 0:
            raise ValueError(('multiprocessing_context can only be used with '
                              'multi-process loading (num_workers > 0), but got '
                              'num_workers={}').format(self.num_workers))
        super(DataLoader, self).__setattr__(attr, val)

    def _get_iterator(self):
        if self.num_workers == 0:
            return _SingleProcessDataLoaderIter(self)
        return _InProcessWorkersDataLoaderIter(self)

    def __iter__(self):
        if self.persistent_workers and self.num_workers > 0:
            if self._iterator is None:
                self._iterator = self._get_iterator()
            else:
                self._iterator._reset(self)
            return self._iterator
        return self._get_iterator()

    @property
    def _auto_collation(self):
        return self.batch_sampler is not None

    @property
    def _index_sampler(self):
        if self._auto_collation:
            return self.batch_sampler
        return self.sampler

    def __len__(self):
        if self._dataset_kind == _DatasetKind.Iterable:
            length = self._IterableDataset_len_called = len(self.dataset)
            if self.batch_size is not None:
                if self.drop_last:
                    length = length // self.batch_size
                else:
                    length = math.ceil(length / self.batch_size)
            return length
        return len(self._index_sampler)


class _BaseDataLoaderIter(object):
    def __init__(self, loader):
        self._dataset = loader.dataset
        self._dataset_kind = loader._dataset_kind
        self._IterableDataset_len_called = loader._IterableDataset_len_called
        self._auto_collation = loader._auto_collation
        self._drop_last = loader.drop_last
        self._index_sampler = loader._index_sampler
        self._num_workers = loader.num_workers
        self._prefetch_factor = loader.prefetch_factor
        self._pin_memory = False   # loader.pin_memory and torch.cuda.is_available()
        self._timeout = loader.timeout
        self._collate_fn = loader.collate_fn
        self._sampler_iter = iter(self._index_sampler)
        self._base_seed = torch.empty((), dtype=torch.int64).random_(generator=loader.generator).item()
        self._persistent_workers = loader.persistent_workers
        self._num_yielded = 0

    def __iter__(self):
        return self

    def _reset(self, loader, first_iter=False):
        self._sampler_iter = iter(self._index_sampler)
        self._num_yielded = 0
        self._IterableDataset_len_called = loader._IterableDataset_len_called

    def _next_index(self):
        return next(self._sampler_iter)

    def _next_data(self):
        raise NotImplementedError

    def __next__(self):
        data = self._next_data()
        self._num_yielded += 1
        if self._dataset_kind == _DatasetKind.Iterable and \
                self._IterableDataset_len_called is not None and \
                self._num_yielded > self._IterableDataset_len_called:
            warn_msg = ("Length of IterableDataset {} was reported to be {} (when accessing len(dataloader)), but {} "
                        "samples have been fetched. ").format(self._dataset, self._IterableDataset_len_called,
                                                              self._num_yielded)
            warnings.warn(warn_msg)
        return data

    def __len__(self):
        return len(self._index_sampler)


class _SingleProcessDataLoaderIter(_BaseDataLoaderIter):
    def __init__(self, loader):
        super(_SingleProcessDataLoaderIter, self).__init__(loader)
        assert self._timeout == 0
        assert self._num_workers == 0
        self._dataset_fetcher = _DatasetKind.create_fetcher(
            self._dataset_kind, self._dataset, self._auto_collation, self._collate_fn, self._drop_last)

    def _next_data(self):
        index = self._next_index()
        return self._dataset_fetcher.fetch(index)


class _InProcessWorkersDataLoaderIter(_BaseDataLoaderIter):
    # _MultiProcessingDataLoaderIter's order of reading the sampler, without the processes: at
    # each (re)start prefetch_factor * num_workers indices are taken, then one per batch returned.
    def __init__(self, loader):
        super(_InProcessWorkersDataLoaderIter, self).__init__(loader)
        if self._dataset_kind == _DatasetKind.Iterable:
            raise NotImplementedError("attn loads in one process: an IterableDataset with num_workers > 0 "
                                      "(each worker iterating its own copy) is not implemented; use num_workers=0")
        self._dataset_fetcher = _DatasetKind.create_fetcher(
            self._dataset_kind, self._dataset, self._auto_collation, self._collate_fn, self._drop_last)
        self._reset(loader, first_iter=True)

    def _reset(self, loader, first_iter=False):
        super()._reset(loader, first_iter)
        self._indices = []
        self._sampler_done = False
        for _ in range(self._prefetch_factor * self._num_workers):
            self._try_put_index()

    def _try_put_index(self):
        if self._sampler_done:
            return
        try:
            self._indices.append(self._next_index())
        except StopIteration:
            self._sampler_done = True

    def _next_data(self):
        if not self._indices:
            raise StopIteration
        data = self._dataset_fetcher.fetch(self._indices.pop(0))
        self._try_put_index()
        return data
