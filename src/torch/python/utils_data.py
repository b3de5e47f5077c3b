# torch/python/utils_data.py: torch.utils.data, in attn's Python: Dataset is the base class a
# map-style dataset subclasses (its __getitem__ and __len__ are the subclass's own); DataLoader is
# not implemented and says so when made, so a helper that only imports it (the book's
# previous_chapters.py) runs. What it is not: batching, samplers, workers.


class Dataset:
    __module__ = 'torch.utils.data.dataset'


class DataLoader:
    __module__ = 'torch.utils.data.dataloader'

    def __init__(self, *args, **kwargs):
        raise NotImplementedError("attn does not implement torch.utils.data.DataLoader (batches of a Dataset)")
