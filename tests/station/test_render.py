"""The screen model fits a panel to a display's size and pitch: wrapped, paged, never cut."""

from __future__ import annotations

import pytest
from PIL import Image, ImageChops

from tablekeeper.core.view import Panel, Priority
from tablekeeper.ui.legibility import Viewing
from tablekeeper.ui.render import bar_text, choose_face, draw_screen, fit, layout, render_message, render_panel, wrap
from tests.station.sentences import fitted_problems

PANEL = Panel(title="Round 2 - Mythos", lines=("doom 3/7", "clues 2", "agenda 1a", "act 1a", "bag 16"), big="3")
NOTICE = ("The investigators must each discard one card from hand or take one horror before the "
          "next round begins; the lead investigator decides the order")

# The reference build, the compact variant, and a few in between.
VIEWINGS = {
    "2.42in shared": Viewing.of((128, 64), "2.42in", 80),
    "1.54in seat": Viewing.of((128, 64), "1.54in", 50),
    "1.3in seat": Viewing.of((128, 64), "1.3in", 50),
    "0.96in shared": Viewing.of((128, 64), "0.96in", 80),
    "0.91in seat": Viewing.of((128, 32), "0.91in", 50),
}


def changed_box(a: Image.Image, b: Image.Image) -> tuple[int, int, int, int] | None:
    return ImageChops.difference(a.convert("L"), b.convert("L")).getbbox()


def all_pages(panel: Panel, viewing: Viewing, banner: str | None = None) -> list[str]:
    """Every row any frame of the panel shows."""
    fitted = fit(panel, viewing, banner=banner)
    return list(dict.fromkeys(row for screen in fitted.frames for row in (*screen.rows, *screen.banner)))


def read(panel: Panel, viewing: Viewing, banner: str | None = None) -> dict[tuple[str, int], str]:
    """What a reader takes from the panel's frames: each sentence (title, line N, banner part N) as
    its rows say it, a scrolling one as the text it scrolls through; and no frame splits a phrase."""
    fitted = fit(panel, viewing, banner=banner)
    assert fitted_problems(panel, banner, fitted) == []
    out: dict[tuple[str, int], str] = {}
    for frame in fitted.frames:
        for unit in frame.units:
            text = unit.text if unit.scrolling else " ".join(" ".join(unit.rows).replace("- ", "").split())
            out[(unit.kind, unit.index)] = text
    return out


@pytest.mark.parametrize("name", VIEWINGS)
def test_every_word_of_a_long_notice_is_shown_whole_on_some_frame(name: str) -> None:
    viewing = VIEWINGS[name]
    panel = Panel("Mythos", ("Doom 3 of 7", NOTICE))
    said = read(panel, viewing)
    assert said[("line", 0)] == "Doom 3 of 7" and said[("line", 1)] == NOTICE  # every word, whole and in order
    columns = layout(panel, viewing).columns
    assert all(len(row) <= columns for row in all_pages(panel, viewing))


@pytest.mark.parametrize("name", VIEWINGS)
def test_the_pointed_option_of_a_prompt_is_shown_in_full(name: str) -> None:
    option = "Roland Banks (seat 1) goes first this round"
    said = read(Panel("Who goes first?", ("choose with + and -",)), VIEWINGS[name], banner=option)
    assert said[("banner", 0)] == option


def test_a_notice_longer_than_a_page_scrolls_along_one_row_from_its_start_to_its_end() -> None:
    viewing = VIEWINGS["2.42in shared"]
    panel = Panel("Mythos", (NOTICE,))
    fitted = fit(panel, viewing)
    assert fitted.moving and fitted.pages == 1
    windows = [next(u for u in f.units if u.kind == "line") for f in fitted.frames]
    assert all(w.scrolling and len(w.rows) == 1 for w in windows)
    assert windows[0].offset == 0 and windows[-1].offset + len(windows[-1].rows[0]) == len(NOTICE)
    assert [w.offset for w in windows] == sorted(w.offset for w in windows)  # it moves one way, then starts again
    assert fitted.at(fitted.cycle) == fitted.frames[0]
    a, b = render_panel(panel, (128, 64), viewing=viewing), draw_screen(fitted.frames[-1], (128, 64))
    assert a.tobytes() != b.tobytes()


def test_short_forms_are_kept_off_the_body_pages_for_select_to_show() -> None:
    viewing = VIEWINGS["2.42in shared"]
    panel = Panel("Spirit", ("En 3 Cd 2",), legend=(("En", "energy"), ("Cd", "cards in hand")))
    screen = layout(panel, viewing)
    assert screen.pages == 1 and screen.rows == ("En 3 Cd 2",)  # no page turns away from the numbers
    legend = layout(panel.legend_page(), viewing)
    assert "En = energy" in legend.rows and legend.title.startswith("Key")


# (line, priority): what a seat display of a card game might hold, most important marked KEY
RANKED = Panel.ranked("Seat 1", (
    ("Fatigue 2 Injury 1", Priority.NORMAL),
    ("Energy: Awareness 3", Priority.KEY),
    ("Played: Trail Markers", Priority.DETAIL),
))


@pytest.mark.parametrize("name", VIEWINGS)
def test_key_lines_come_first_on_every_panel_size(name: str) -> None:
    screen = layout(RANKED, VIEWINGS[name])
    assert screen.rows[0].startswith("Energy:")


@pytest.mark.parametrize("name", VIEWINGS)
def test_detail_lines_are_dropped_not_paged_and_every_other_word_is_shown(name: str) -> None:
    viewing = VIEWINGS[name]
    said = read(RANKED, viewing)
    assert said[("line", 1)] == "Energy: Awareness 3" and said[("line", 0)] == "Fatigue 2 Injury 1"
    plain = Panel(RANKED.title, RANKED.lines[:2], priorities=RANKED.priorities[:2])
    assert fit(RANKED, viewing).pages == fit(plain, viewing).pages  # the detail never costs a page


def test_the_reference_seat_shows_the_detail_and_the_compact_seat_drops_it() -> None:
    reference = all_pages(RANKED, VIEWINGS["1.54in seat"])
    compact = all_pages(RANKED, VIEWINGS["0.91in seat"])
    assert any("Trail" in row for row in reference)
    assert not any("Trail" in row for row in compact)
    assert layout(RANKED, VIEWINGS["0.91in seat"]).face.cap_px > layout(RANKED, VIEWINGS["1.54in seat"]).face.cap_px


def test_a_panel_without_priorities_keeps_its_order() -> None:
    viewing = VIEWINGS["0.91in seat"]
    plain = Panel("Seat 1", RANKED.lines)
    rows = all_pages(plain, viewing)
    assert rows[0].startswith("Fatigue")


def test_face_grows_with_distance_and_shrinks_with_bigger_pixels() -> None:
    near = choose_face(Viewing.of((128, 64), "0.96in", 30))
    far = choose_face(Viewing.of((128, 64), "0.96in", 80))
    assert far.cap_px > near.cap_px
    big_glass = choose_face(Viewing.of((128, 64), "2.42in", 80))
    assert big_glass.cap_px <= far.cap_px and Viewing.of((128, 64), "2.42in", 80).arcmin(big_glass.cap_px) >= 16


@pytest.mark.parametrize("size", [(128, 64), (128, 32)])
def test_panel_is_a_one_bit_image_of_the_display_size_with_an_inverted_title(size: tuple[int, int]) -> None:
    image = render_panel(PANEL, size)
    assert image.mode == "1" and image.size == size
    assert image.getpixel((127, 1))  # the title bar is lit edge to edge


def test_big_value_sits_on_the_right() -> None:
    viewing = VIEWINGS["2.42in shared"]
    with_big = render_panel(PANEL, (128, 64), viewing=viewing)
    without = render_panel(Panel(PANEL.title, PANEL.lines), (128, 64), viewing=viewing)
    box = changed_box(with_big, without)
    assert box is not None and box[0] >= 100 and box[1] >= 13


def test_banner_is_inverted_at_the_bottom() -> None:
    viewing = VIEWINGS["2.42in shared"]
    pending = render_panel(PANEL, (128, 64), banner="doom 2 -> 5 (+3)", viewing=viewing)
    assert layout(PANEL, viewing, banner="doom 2 -> 5 (+3)").banner == ("doom 2 -> 5 (+3)",)
    assert pending.getpixel((127, 63)) and pending.getpixel((127, 52)) and not pending.getpixel((127, 40))


def test_selected_track_gets_a_marker() -> None:
    viewing = VIEWINGS["2.42in shared"]
    screen = layout(PANEL, viewing, selected="clues")
    assert screen.rows[1].startswith(">clues")
    assert layout(PANEL, viewing, selected="fear").rows == layout(PANEL, viewing).rows


def test_message_wraps_words() -> None:
    image = render_message("Tablekeeper", "seat3 display not answering; retrying", (128, 64))
    rows_with_ink = {y for y in range(14, 64) for x in range(128) if image.getpixel((x, y))}
    assert max(rows_with_ink) >= 30  # more than one row of body text


@pytest.mark.parametrize("name", VIEWINGS)
def test_a_wrapped_line_that_fits_a_page_is_not_split_across_pages(name: str) -> None:
    viewing = VIEWINGS[name]
    panel = Panel("Day 1 Round 1", ("Draw path cards", "Location 0 Lone Tree Station", "Weather: A Perfect Day"))
    first = layout(panel, viewing)
    room = max(len(layout(panel, viewing, page=p).rows) for p in range(first.pages))
    for line in panel.lines:
        rows_of_line = len(wrap(line, first.columns))
        if rows_of_line <= room:
            assert any(" ".join(" ".join(layout(panel, viewing, page=p).rows).split()).count(line)
                       for p in range(first.pages)), (name, line)


def test_a_seat_line_too_long_for_a_row_breaks_between_its_parts() -> None:
    viewing = VIEWINGS["1.54in seat"]
    screen = layout(Panel("Seat 1", ("Awareness 3",)), viewing, banner="your turn | A: end my turn")
    assert screen.banner == ("your turn", "A: end my turn")
    assert layout(Panel("Seat 1", ()), viewing, banner="done | A: x").banner == ("done | A: x",)  # one row: it fits


@pytest.mark.parametrize("name", VIEWINGS)
def test_a_long_title_is_never_cut(name: str) -> None:
    question = "Explore Wetland: added explorers beyond the rules?"
    said = read(Panel(question, ("1. none", "2. one more")), VIEWINGS[name])
    assert said[("title", 0)] == question


def test_the_earthborne_notice_breaks_between_its_phrases_never_after_not() -> None:
    notice = "no travel: location progress 0/4: not enough to travel"
    for name, viewing in VIEWINGS.items():
        fitted = fit(Panel("Day 1 Round 1", ("Travel",)), viewing, banner=notice)
        for frame in fitted.frames:
            rows = [row.strip() for u in frame.units if u.kind == "banner" and not u.scrolling for row in u.rows]
            assert not any(row.endswith(" not") or row == "not" for row in rows), (name, rows)
        assert read(Panel("Day 1 Round 1", ("Travel",)), viewing, banner=notice)[("banner", 0)] == notice


def test_wrapped_rows_are_the_callers_own() -> None:
    rows = wrap("Skill over test: pass and then some more words", 12)
    kept = list(rows)
    rows.append("changed")
    rows[0] = "changed"
    assert wrap("Skill over test: pass and then some more words", 12) == kept


def test_a_seats_status_and_buttons_share_a_scrolling_row_rather_than_page_its_numbers() -> None:
    viewing = VIEWINGS["1.54in seat"]
    panel = Panel("Seat 1", ("Awareness 3 Fitness 2", "Spirit 2 Focus 1", "Deck 24 Hand 6"))
    fitted = fit(panel, viewing, banner="still to play | A: rest, B: my turn")
    assert fitted.pages == 1 and {frame.rows for frame in fitted.frames} == {panel.lines}  # the numbers hold still
    assert read(panel, viewing, banner="still to play | A: rest, B: my turn")[("banner", 0)] == \
        "still to play | A: rest, B: my turn"
    # a notice is no status line: it keeps its rows, whole, and the lines page instead
    notice = "seat 1's A button does nothing now; waiting for seat 2"
    assert all(not u.scrolling for f in fit(panel, viewing, banner=notice).frames for u in f.units)


@pytest.mark.parametrize("name", VIEWINGS)
def test_the_menus_selected_item_is_always_on_screen_and_the_screen_holds_still(name: str) -> None:
    items = tuple(f"{'> ' if i == 6 else '  '}Item number {i}" for i in range(8))
    fitted = fit(Panel("Menu", items, focus=6), VIEWINGS[name])
    assert fitted.pages == 1  # no page turns away from the cursor (an item too long for the row scrolls)
    assert all(any(u.kind == "line" and u.index == 6 for u in frame.units) for frame in fitted.frames)


@pytest.mark.parametrize("name", VIEWINGS)
def test_a_page_mark_never_reads_as_part_of_a_title_that_ends_in_a_number(name: str) -> None:
    """"Round 1, agenda 1 1/2" reads as one and a half: after a number the mark keeps two columns
    away, or is left off (the pages still turn); after a word one column is enough."""
    viewing = VIEWINGS[name]
    columns = fit(Panel("x", ()), viewing).frames[0].columns
    lines = tuple(f"line {i} of a panel that needs pages" for i in range(3))
    for title, kept in (("a" * (columns - 4), True), ("a" * (columns - 6) + " 1", False),
                        ("a" * (columns - 7) + " 1", True)):
        fitted = fit(Panel(title, lines), viewing)
        assert 1 < fitted.pages < 10
        for frame in fitted.frames:
            bar = bar_text(frame)
            assert bool(frame.mark) is kept, (title, bar)
            if title[-1].isdigit() and kept:
                assert bar.endswith(f"  {frame.mark}"), (title, bar)
            elif kept:
                assert bar.endswith(f" {frame.mark}"), (title, bar)

