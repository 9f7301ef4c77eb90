"""cvsuite.data.shape_images: the images of "Cross-Validation", section Example, and their draw order."""

import numpy as np
import pytest

from cvsuite.data import shape_images
from cvsuite.data.shape_images import ShapeImageDesign, draw_shape_images, shape_masks

DESIGN = ShapeImageDesign(size=16, max_shift=2, contrast=(0.5, 1.0), noise_sd=0.6)
MASKS = shape_masks(16)


def effective_state(rng):
    """The generator state that decides future draws (a spent 32-bit buffer does not)."""
    state = rng.bit_generator.state
    return state["state"], state["has_uint32"], state["uinteger"] if state["has_uint32"] else None


def document_draw(n_per_class, rng):
    """The document's listing, call by call: shift (2 integers), contrast (1 uniform), noise (256 normals)."""
    images = []
    for mask in MASKS:
        for _ in range(n_per_class):
            shift = rng.integers(-2, 3, size=2)
            images.append(
                rng.uniform(0.5, 1.0) * np.roll(mask, tuple(shift), axis=(0, 1)) + rng.normal(0, 0.6, (16, 16))
            )
    return np.array(images), np.repeat(np.arange(4), n_per_class)


@pytest.mark.parametrize("seed, per_class", [(0, 20), (1, 20), (7, 60), (123, 5)])
def test_fast_draw_gives_the_documents_images_and_generator_state(seed, per_class):
    fast_rng, document_rng = np.random.default_rng(seed), np.random.default_rng(seed)
    images, labels = draw_shape_images(per_class, fast_rng, DESIGN)
    expected_images, expected_labels = document_draw(per_class, document_rng)
    assert np.array_equal(images, expected_images)
    assert np.array_equal(labels, expected_labels)
    assert effective_state(fast_rng) == effective_state(document_rng)
    assert fast_rng.random() == document_rng.random()


def test_a_rejected_bounded_draw_falls_back_to_the_literal_calls(monkeypatch):
    def rare(n_per_class, rng, design):
        rng.normal(size=1000)  # consume part of the stream, as a real fast pass would have
        raise shape_images._RareDraw

    monkeypatch.setattr(shape_images, "_draw_fast", rare)
    fallback = draw_shape_images(10, np.random.default_rng(3), DESIGN)
    expected = document_draw(10, np.random.default_rng(3))
    assert np.array_equal(fallback[0], expected[0])


def test_shapes_are_distinct_and_centred():
    assert MASKS.shape == (4, 16, 16)
    assert len({m.tobytes() for m in MASKS}) == 4
    for mask in MASKS[:3]:  # the triangle points up, so only the first three are symmetric
        assert np.array_equal(mask, mask[::-1, ::-1])


def test_design_reads_the_config_block_and_defaults_to_the_documents_images():
    block = {
        "per_class": 20,
        "fresh_per_class": 1000,
        "size": 16,
        "max_shift": 2,
        "contrast_low": 0.5,
        "contrast_high": 1.0,
        "noise_sd": 0.6,
    }
    assert ShapeImageDesign.from_config(block) == DESIGN == ShapeImageDesign()
