"""Small models for ohprof's tests and for overhead-bound demonstrations.

Factories take no arguments and return an nn.Module in eval mode, seeded so every call builds the
same weights.
"""
import torch


class TinyMLP(torch.nn.Module):
    """Two linear layers: a few kernels, so host overhead dominates."""

    def __init__(self, features=16, hidden=32, out=8):
        super().__init__()
        self.fc1 = torch.nn.Linear(features, hidden)
        self.fc2 = torch.nn.Linear(hidden, out)

    def forward(self, x):
        return self.fc2(torch.relu(self.fc1(x))) * 0.5


def tiny_mlp():
    torch.manual_seed(0)
    return TinyMLP().eval()


def tiny_mlp_variant():
    """Same shapes as tiny_mlp but other weights: its outputs differ (for output-check tests)."""
    torch.manual_seed(1)
    return TinyMLP().eval()


def raises():
    raise RuntimeError("this factory always fails")


def not_a_module():
    return 42


class Cache:
    """A model output that is not a pytree, as Hugging Face's DynamicCache is for torch.export."""

    def __init__(self, keys):
        self.keys = keys


class CachingMLP(TinyMLP):
    """tiny_mlp that also returns a cache object: it runs eagerly and under torch.compile, and
    torch.export cannot capture it (its output is no tensor, tuple, list or dict)."""

    def forward(self, x):
        hidden = torch.relu(self.fc1(x))
        return self.fc2(hidden) * 0.5, Cache(hidden)


def not_exportable():
    torch.manual_seed(0)
    return CachingMLP().eval()


class ScaledMLP(TinyMLP):
    """tiny_mlp with a second input, for keyword inputs: forward(x, scale)."""

    def forward(self, x, scale):
        return self.fc2(torch.relu(self.fc1(x))) * scale


def two_inputs():
    torch.manual_seed(0)
    return ScaledMLP().eval()
