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


class BranchingMLP(TinyMLP):
    """tiny_mlp that branches on a tensor's value: it runs eagerly, and torch.export cannot capture the
    branch (a data-dependent guard), after tracing the lines before it."""

    def forward(self, x):
        hidden = torch.relu(self.fc1(x))
        if hidden.sum().item() > 0:
            hidden = hidden * 2
        return self.fc2(hidden)


def branches_on_value():
    torch.manual_seed(0)
    return BranchingMLP().eval()


class ScaledMLP(TinyMLP):
    """tiny_mlp with a second input, for keyword inputs: forward(x, scale)."""

    def forward(self, x, scale):
        return self.fc2(torch.relu(self.fc1(x))) * scale


def two_inputs():
    torch.manual_seed(0)
    return ScaledMLP().eval()


class MaskedTokens(torch.nn.Module):
    """forward(input_ids [B, T], attention_mask [B, T]) as a language model takes them: token embeddings
    averaged over the positions the mask keeps, then a linear layer. The ids and the mask share T."""

    def __init__(self, vocab=100, features=16, out=8):
        super().__init__()
        self.embed = torch.nn.Embedding(vocab, features)
        self.head = torch.nn.Linear(features, out)

    def forward(self, input_ids, attention_mask):
        mask = attention_mask.unsqueeze(-1).to(torch.float32)
        pooled = (self.embed(input_ids) * mask).sum(1) / mask.sum(1).clamp(min=1.0)
        return self.head(pooled)


def masked_tokens():
    torch.manual_seed(0)
    return MaskedTokens().eval()


# The execution check (docs/metrics.md, "Execution check") on purpose: a model that recompiles while it is
# measured, and one whose graph breaks.
CALLS = 0
LATE = False


def _count_call(module, args):
    """A forward pre-hook that runs outside Dynamo (recompiling() wraps it in torch._dynamo.disable, there
    and not here, so that importing this module does not import Dynamo: about 1 s counted as every model's
    load in a cold start): counts the calls of every copy of the model and sets LATE once there have been
    more than TINY_MODELS_FLIP_AFTER (default 8)."""
    global CALLS, LATE
    import os
    CALLS += 1
    LATE = CALLS > int(os.environ.get("TINY_MODELS_FLIP_AFTER", "8"))


class LateBranchMLP(TinyMLP):
    """tiny_mlp whose forward branches on the global LATE: a compiled copy guards on it, so when the hook
    flips it the next compiled call recompiles (to a graph that adds zero: the outputs stay the same)."""

    def forward(self, x):
        y = self.fc2(torch.relu(self.fc1(x))) * 0.5
        if LATE:
            return y + 0.0
        return y


def recompiling():
    torch.manual_seed(0)
    model = LateBranchMLP().eval()
    model.register_forward_pre_hook(torch._dynamo.disable(_count_call))
    return model


class PrintingMLP(TinyMLP):
    """tiny_mlp that prints a line on every call, as models under development do."""

    def forward(self, x):
        print("printing_mlp: forward called")
        return self.fc2(torch.relu(self.fc1(x))) * 0.5


def printing():
    torch.manual_seed(0)
    return PrintingMLP().eval()


def recompile_limited():
    """recompiling() in a process whose Dynamo may compile a function only once (recompile_limit 1, as a
    model that recompiles on every call meets the default 8): where the flip would recompile, Dynamo gives
    up instead, and compile's calls from then on run forward uncompiled."""
    torch._dynamo.config.recompile_limit = 1
    return recompiling()


class BrokenGraphMLP(TinyMLP):
    """tiny_mlp with a graph break between its layers: torch.compile makes two graphs."""

    def forward(self, x):
        hidden = torch.relu(self.fc1(x))
        torch._dynamo.graph_break()
        return self.fc2(hidden) * 0.5


def graph_break():
    torch.manual_seed(0)
    return BrokenGraphMLP().eval()


class UncompiledMLP(TinyMLP):
    """tiny_mlp whose forward Dynamo is told to skip (torch.compiler.disable, as a library marks code
    Dynamo cannot trace): torch.compile makes no graph of it, and its calls run it uncompiled."""

    def forward(self, x):
        return _uncompiled_forward(self, x)


def _uncompiled_forward(module, x):
    import torch._dynamo
    return torch._dynamo.disable(TinyMLP.forward)(module, x)


def dynamo_skipped():
    torch.manual_seed(0)
    return UncompiledMLP().eval()
