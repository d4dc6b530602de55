# Shared by gen_every_size.py and gen_every_size_cnn.py: a jax.export of a function as the tests
# read it, and a C array of data for every_size.c.
import re

import jax
import numpy as np


def exported_text(f, specs, locations=False):
    """The StableHLO text of jax.export of jit(f) for `specs`; without locations unless asked
    (the refused programs keep them: their errors name the generator's line)."""
    text = jax.export.export(jax.jit(f))(*specs).mlir_module()
    if not locations:
        text = re.sub(r"(?m)^#loc.*\n", "", text)
        text = re.sub(r" loc\([^()]*(\([^()]*\))?[^()]*\)", "", text)
    return text


def c_array(name, a):
    flat = np.asarray(a, np.float32).reshape(-1)
    return f"static const float {name}[{flat.size}] = {{{', '.join(f'{v:.9e}f' for v in flat)}}};\n"
