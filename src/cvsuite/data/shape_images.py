"""The synthetic shape images of "Cross-Validation", section Example.

Four 16x16 grayscale shapes (disc, square, cross, triangle) at a random shift, scaled by a random
contrast on a zero background, plus Gaussian noise. The draw order is part of the specification:
it is what makes every printed digit of the document come out the same.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

SHAPE_NAMES = ("disc", "square", "cross", "triangle")


@dataclass(frozen=True)
class ShapeImageDesign:
    """How one image is drawn: its side, the largest shift, the contrast range, the noise s.d.

    The defaults are the document's: "Each 16x16 grayscale image", "a random shift of up to two
    pixels", "contrast drawn from 0.5 to 1.0 on a zero background", "standard deviation 0.6".
    """

    size: int = 16
    max_shift: int = 2
    contrast: tuple[float, float] = (0.5, 1.0)
    noise_sd: float = 0.6

    @classmethod
    def from_config(cls, images: dict) -> ShapeImageDesign:
        """The design from config.yaml's ``shape_images.images`` block (its counts are not part of it)."""
        return cls(
            size=images["size"],
            max_shift=images["max_shift"],
            contrast=(images["contrast_low"], images["contrast_high"]),
            noise_sd=images["noise_sd"],
        )

    def masks(self) -> np.ndarray:
        """The four shapes at this size (``shape_masks``)."""
        return shape_masks(self.size)


def shape_masks(size: int = 16) -> np.ndarray:
    """The four shapes as 0/1 masks, shape (4, size, size), in label order 0..3.

    Pixel coordinates are measured from the image centre, (size - 1) / 2, so that every shape is
    centred: disc of squared radius under 20, square of half-side 4, cross of half-width 1.5, and a
    triangle with its apex up between rows -4 and 5.
    """
    rows, cols = np.mgrid[:size, :size] - (size - 1) / 2
    disc = cols**2 + rows**2 < 20
    square = (np.abs(cols) < 4) & (np.abs(rows) < 4)
    cross = (np.abs(cols) < 1.5) | (np.abs(rows) < 1.5)
    triangle = (rows > -4) & (rows < 5) & (np.abs(cols) < (rows + 4) / 2)
    return np.stack([disc, square, cross, triangle]).astype(float)


def shifted_masks(masks: np.ndarray, max_shift: int) -> np.ndarray:
    """Every cyclic shift of every mask: index [label, row shift + m, column shift + m]."""
    key = (masks.shape, masks.tobytes(), max_shift)
    if key not in _SHIFTED:
        shifts = range(-max_shift, max_shift + 1)
        _SHIFTED[key] = np.array(
            [[[np.roll(mask, (dr, dc), axis=(0, 1)) for dc in shifts] for dr in shifts] for mask in masks]
        )
    return _SHIFTED[key]


_SHIFTED: dict = {}  # the shifted masks, computed once per process and shape set


class _RareDraw(Exception):
    """A bounded-integer draw hit the rejection branch; the caller redraws the slow, literal way."""


def draw_shape_images(
    n_per_class: int, rng: np.random.Generator, design: ShapeImageDesign
) -> tuple[np.ndarray, np.ndarray]:
    """Draw n_per_class images of each class, classes in label order; return images and labels.

    Draw order per image, from the one generator ``rng``, as in the document's Example:
    the row and column shift (``rng.integers(-m, m + 1, size=2)``), the contrast
    (``rng.uniform(low, high)``), then size*size noise values (``rng.normal(0, noise_sd)``,
    row-major). The image is contrast * shifted mask + noise.

    The two shifts are one 64-bit word of the generator: numpy draws a bounded 32-bit integer
    from each half (low half first) by Lemire's multiply-shift. Taking the word directly, and the
    contrast from the next word as numpy's ``next_double`` does, halves the Python calls per image
    and leaves the stream and the generator state exactly as the literal calls would. Lemire's
    rejection branch (probability about 1e-9 per draw) is detected, and then the whole call is
    redone with the literal calls from the saved state.
    """
    start = rng.bit_generator.state
    try:
        return _draw_fast(n_per_class, rng, design)
    except _RareDraw:
        rng.bit_generator.state = start
        return _draw_literal(n_per_class, rng, design)


def _draw_fast(n_per_class, rng, design):
    masks, max_shift = design.masks(), design.max_shift
    n_classes, size = masks.shape[0], masks.shape[1]
    n = n_classes * n_per_class
    words, noise = _draw_words_and_noise(n, size * size, rng)
    shifts, unit = _shifts_and_unit_contrast(words, 2 * max_shift + 1)
    low, high = design.contrast
    scale = low + (high - low) * unit
    labels = np.repeat(np.arange(n_classes), n_per_class)
    covered = shifted_masks(masks, max_shift).astype(bool)[labels, shifts[:, 0], shifts[:, 1]]
    # An image is contrast * mask + normal(0, sd), and normal(0, sd) is 0.0 + sd * z. Adding 0.0
    # leaves every value but -0.0 (made +0.0) as it is, and contrast * mask is the contrast or an
    # exact 0.0: so adding 0.0 everywhere and the contrast where the mask is 1 gives the same bits as
    # adding the scaled mask, without forming it.
    images = noise.reshape(n, size, size)
    images *= design.noise_sd
    images += 0.0
    np.add(images, scale[:, None, None], out=images, where=covered)
    return images, labels


def _draw_words_and_noise(n, pixels, rng):
    """Per image, two raw 64-bit words then ``pixels`` standard normals, in stream order.

    The loop is the draw order and cannot be vectorised; it makes two cheap calls per image and
    writes the normals in place, so that its Python overhead stays small.
    """
    raw, standard_normal = rng.bit_generator.random_raw, rng.standard_normal
    noise = np.empty((n, pixels))
    words = []
    keep = words.append
    for row in noise:
        keep(raw(2))
        standard_normal(out=row)
    return np.concatenate(words).reshape(n, 2), noise


def _shifts_and_unit_contrast(words, width):
    """Shift indices (0 .. width - 1, row then column) from word 0, a uniform in [0, 1) from word 1.

    Raises ``_RareDraw`` when Lemire's method would have rejected one of the bounded draws.
    """
    halves = np.stack([words[:, 0] & np.uint64(0xFFFFFFFF), words[:, 0] >> np.uint64(32)], axis=1)
    products = halves * np.uint64(width)  # < 2**35: no overflow
    leftover = products & np.uint64(0xFFFFFFFF)
    threshold = (2**32 - width) % width
    if (leftover < np.uint64(threshold)).any():
        raise _RareDraw
    shifts = (products >> np.uint64(32)).astype(np.int64)
    unit = (words[:, 1] >> np.uint64(11)).astype(np.float64) * (1.0 / 9007199254740992.0)
    return shifts, unit


def _draw_literal(n_per_class, rng, design):
    images, labels = [], []
    for label, mask in enumerate(design.masks()):
        for _ in range(n_per_class):
            shift = rng.integers(-design.max_shift, design.max_shift + 1, size=2)
            shifted = np.roll(mask, tuple(shift), axis=(0, 1))
            images.append(rng.uniform(*design.contrast) * shifted + rng.normal(0.0, design.noise_sd, mask.shape))
            labels.append(label)
    return np.array(images), np.array(labels)
