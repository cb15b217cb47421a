"""The Cheatsheet as a PNG heat map (matplotlib, the optional ``plot`` extra).

Pure: the picture is returned as bytes; the caller saves it.
"""

from __future__ import annotations

import io

import numpy as np
import numpy.typing as npt

from taletable.errors import InputError

__all__ = ["cheatsheet_png"]


def cheatsheet_png(sheet: dict[int, npt.NDArray[np.float64]]) -> bytes:
    """One heat map of P(pass) per win threshold, pools up and CLs across, as PNG bytes.

    ``sheet`` is :func:`cheatsheet_floats`'s answer. Without matplotlib this is an InputError
    that says to install ``taletable[plot]``.
    """
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise InputError(
            "format", "png needs matplotlib", expected="pip install 'taletable[plot]'"
        ) from None
    figure, axes = plt.subplots(1, len(sheet), figsize=(6 * len(sheet), 8), squeeze=False)
    image = None
    for axis, (win_on, rows) in zip(axes[0], sheet.items(), strict=True):
        image = axis.imshow(
            rows,
            aspect="auto",
            vmin=0,
            vmax=1,
            origin="lower",
            extent=(-0.5, rows.shape[1] - 0.5, 0.5, rows.shape[0] + 0.5),
            cmap="viridis",
        )
        axis.set_title(f"P(pass), wins on {win_on}-6")
        axis.set_xlabel("CL")
        axis.set_ylabel("pool")
    figure.colorbar(image, ax=axes.ravel().tolist())
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png")
    plt.close(figure)
    return buffer.getvalue()
