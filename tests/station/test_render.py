"""Panels render to 1-bit images laid out for 128x64 and 128x32 screens."""

from __future__ import annotations

import pytest
from PIL import Image, ImageChops

from tablekeeper.core.view import Panel
from tablekeeper.ui.render import fit, render_message, render_panel

PANEL = Panel(title="Round 2 - Mythos", lines=("doom 3/7", "clues 2", "agenda 1a", "act 1a", "bag 16"), big="3")


def changed_box(a: Image.Image, b: Image.Image) -> tuple[int, int, int, int] | None:
    return ImageChops.difference(a.convert("L"), b.convert("L")).getbbox()


@pytest.mark.parametrize("size", [(128, 64), (128, 32)])
def test_panel_is_a_one_bit_image_of_the_display_size_with_an_inverted_title(size: tuple[int, int]) -> None:
    image = render_panel(PANEL, size)
    assert image.mode == "1" and image.size == size
    assert image.getpixel((127, 1))  # the title bar is lit edge to edge
    assert not image.getpixel((127, size[1] - 1))


def test_big_value_sits_on_the_right() -> None:
    with_big = render_panel(PANEL, (128, 64))
    without = render_panel(Panel(PANEL.title, PANEL.lines), (128, 64))
    box = changed_box(with_big, without)
    assert box is not None and box[0] >= 100 and box[1] >= 14


def test_only_as_many_lines_as_fit_are_drawn() -> None:
    many = Panel("t", tuple(f"line {i}" for i in range(12)))
    assert render_panel(many, (128, 64)).tobytes() == render_panel(Panel("t", many.lines[:5]), (128, 64)).tobytes()
    assert render_panel(many, (128, 32)).tobytes() == render_panel(Panel("t", many.lines[:2]), (128, 32)).tobytes()


@pytest.mark.parametrize(("size", "top"), [((128, 64), 53), ((128, 32), 23)])
def test_pending_banner_covers_only_the_bottom_row(size: tuple[int, int], top: int) -> None:
    plain = render_panel(PANEL, size)
    pending = render_panel(PANEL, size, banner="doom 2 -> 5 (+3)")
    box = changed_box(plain, pending)
    assert box is not None and box[1] >= top - 10 and box[3] == size[1]
    assert pending.getpixel((127, size[1] - 1))
    other = render_panel(PANEL, size, banner="doom 2 -> 6 (+4)")
    assert other.tobytes() != pending.tobytes()


def test_selected_track_gets_a_marker_at_the_left() -> None:
    plain = render_panel(PANEL, (128, 64))
    marked = render_panel(PANEL, (128, 64), selected="clues")
    box = changed_box(plain, marked)
    assert box is not None and box[1] >= 24 and box[3] <= 34  # the second body row only
    assert render_panel(PANEL, (128, 64), selected="fear").tobytes() == plain.tobytes()


def test_fit_cuts_with_a_mark() -> None:
    assert fit("abcdefghij", 30, "6x10") == "abcd~"
    assert fit("abcde", 30, "6x10") == "abcde"
    assert fit("abc", 3, "6x10") == ""


def test_unsupported_size_is_refused() -> None:
    with pytest.raises(ValueError, match="128x48"):
        render_panel(PANEL, (128, 48))


def test_message_wraps_words() -> None:
    image = render_message("Tablekeeper", "seat3 display not answering; retrying", (128, 64))
    rows_with_ink = {y for y in range(14, 64) for x in range(128) if image.getpixel((x, y))}
    assert min(rows_with_ink) >= 14 and max(rows_with_ink) >= 24  # two lines of body text


def test_long_banner_switches_to_the_small_font_rather_than_cutting() -> None:
    text = "seat1.damage 0 -> 2 (+2)"  # 24 characters: 144 px in 6x10, 120 px in 5x8
    assert fit(text, 126, "6x10").endswith("~")
    long = render_panel(PANEL, (128, 64), banner=text)
    cut = render_panel(PANEL, (128, 64), banner=fit(text, 126, "6x10"))
    assert long.tobytes() != cut.tobytes()
    ink_columns = [x for x in range(128) if any(not long.getpixel((x, y)) for y in range(54, 64))]
    assert max(ink_columns) <= 121  # all 24 characters fit inside the banner


def test_text_outside_the_fonts_gets_stand_ins_not_an_error() -> None:
    from tablekeeper.ui.render import printable

    assert printable("Round 1 — Mythos: doom → 3 … “ok” ✓ 日") == 'Round 1 - Mythos: doom -> 3 ... "ok" v ?'
    assert printable("café 5×") == "café 5×"  # ISO 8859-1 is drawn as it is
    image = render_panel(Panel("Round 1 — Mythos", ("doom → 3",), big="✓"), (128, 64), banner="seat → 2")
    plain = render_panel(Panel("Round 1 - Mythos", ("doom -> 3",), big="v"), (128, 64), banner="seat -> 2")
    assert image.tobytes() == plain.tobytes()
