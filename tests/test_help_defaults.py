"""What the help and the README say agrees with the code and the reference config.

Every ``(default X)`` in a ``--help`` text is compared with the option's default; the defaults that
are a rule rather than a value (``(default: ...)``) each have their rule checked here against the
code that applies it. The README's and the hardware page's description of the reference build
(display sizes, modules, drivers and addresses, buttons, buses) is compared with
``hardware/station.toml``.
"""

from __future__ import annotations

import argparse
import logging
import re
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from tablekeeper.cli import build_parser, main
from tablekeeper.config import INSTALLED_CONFIG, REFERENCE_CONFIG, default_config_path, load_config

ROOT = Path(__file__).resolve().parents[1]
REFERENCE = ROOT / "hardware" / "station.toml"
_PLAIN_DEFAULT = re.compile(r"\(default ([^\s;,)]+)")
_RULE_DEFAULT = re.compile(r"\(default: ")
NUMBERS = {"two": 2, "three": 3, "four": 4, "six": 6, "fourteen": 14}


def options() -> Iterator[tuple[str, argparse.Action]]:
    """(``command option``, action) for every option of every subcommand."""
    def walk(parser: argparse.ArgumentParser, path: str) -> Iterator[tuple[str, argparse.Action]]:
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                for name, sub in action.choices.items():
                    yield from walk(sub, f"{path} {name}")
            else:
                yield f"{path} {(action.option_strings or [action.dest])[-1]}", action
    yield from walk(build_parser(), "tablekeeper")


def _plain_value(value: object) -> str:
    return {"0.0.0.0": "all"}.get(str(value), f"{value:g}" if isinstance(value, float) else str(value))


def _display_rule(help_text: str) -> None:
    from tablekeeper.sim.simulator import choose_display_mode

    desktop, ssh = {"DISPLAY": ":0"}, {}
    assert (f"{choose_display_mode(None, stdout_is_tty=True, env=desktop)} with a screen, "
            f"{choose_display_mode(None, stdout_is_tty=True, env=ssh)} in a terminal, "
            f"else {choose_display_mode(None, stdout_is_tty=False, env=ssh)})") in help_text


def _config_rule(help_text: str) -> None:
    assert f"{INSTALLED_CONFIG} once installed" in help_text or f"{INSTALLED_CONFIG} if present" in help_text
    assert default_config_path(installed=ROOT / "no-such.toml") == REFERENCE_CONFIG
    assert REFERENCE_CONFIG.read_bytes() == REFERENCE.read_bytes()  # "the reference build, hardware/station.toml"


def _game_rule(help_text: str) -> None:
    from tablekeeper.commands.run import DEFAULT_GAME

    assert f"else {DEFAULT_GAME})" in help_text


def _log_rule(help_text: str) -> None:
    assert "(default: info under systemd, else warning)" in help_text
    for journal, level in ((False, logging.WARNING), (True, logging.INFO)):
        import tablekeeper.logs

        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(tablekeeper.logs, "under_journal", lambda *_a, _j=journal, **_k: _j)
            assert main(["config", "check", str(REFERENCE)]) == 0
            assert logging.getLogger().level == level


def _data_dir_rule(help_text: str) -> None:
    from tablekeeper.appliance.paths import DATA_DIR_ENV, data_dir

    assert f"${DATA_DIR_ENV} or ~/.local/share/tablekeeper" in help_text
    assert data_dir({DATA_DIR_ENV: "/srv/tk"}) == Path("/srv/tk")
    assert data_dir({"HOME": "/home/ada"}) == Path("/home/ada/.local/share/tablekeeper")


def _sudo_rule(help_text: str) -> None:
    from tablekeeper.appliance.units import ServiceSettings

    assert f"the user who ran sudo, else {ServiceSettings().user})" in help_text


def _pool_rule(help_text: str) -> None:
    assert "(default: every one in the data)" in help_text  # None: Campaign.new's pool left open


def _broker_port_rule(help_text: str) -> None:
    import tempfile

    assert "(default 1883, or 8883 with --tls)" in help_text
    with tempfile.TemporaryDirectory() as tmp:
        for extra, port in (([], 1883), (["--tls", "broker.local"], 8883)):
            out = Path(tmp) / str(port)
            assert main(["fleet", "broker-config", "t1", "--out", str(out), *extra]) == 0
            assert f"listener {port} 0.0.0.0" in (out / "mosquitto.conf").read_text()


def _swap_class_rule(help_text: str) -> None:
    from tablekeeper.commands.campaign import apply

    assert "swap: the card's class (default neutral)" in help_text

    class Log:  # records the card a swap brings in
        def swap(self, _seat: int, _out: str, card: object, guide: bool) -> None:
            self.card = card

    log = Log()
    args = build_parser("campaign").parse_args(["campaign", "z.db", "zealot", "swap", "1", "Knife", "Flashlight",
                                                 "--guide"])
    apply(log, args)  # type: ignore[arg-type]
    assert log.card.card_class == "neutral"  # type: ignore[attr-defined]


def _packs_into_rule(help_text: str) -> None:
    import os
    import tempfile

    assert "(default: a new pack in your packs folder, named after it)" in help_text
    with tempfile.TemporaryDirectory() as tmp, pytest.MonkeyPatch.context() as patch:
        patch.setenv("TABLEKEEPER_DATA_DIR", os.path.join(tmp, "data"))
        assert main(["packs", "new", "arkham", "investigators", "Ada Lovelace"]) == 0
        made = Path(tmp) / "data" / "packs" / "ada-lovelace"
        assert (made / "investigators.toml").is_file() and 'name = "ada-lovelace"' in (made / "pack.toml").read_text()


RULES: dict[str, Callable[[str], None]] = {
    "tablekeeper packs new --into": _packs_into_rule,
    "tablekeeper campaign --class": _swap_class_rule,
    "tablekeeper fleet broker-config --port": _broker_port_rule,
    "tablekeeper --log-level": _log_rule,
    "tablekeeper campaign --pool": _pool_rule,
    "tablekeeper run --config": _config_rule,
    "tablekeeper run --game": _game_rule,
    "tablekeeper run --display": _display_rule,
    "tablekeeper hardware wiring --config": _config_rule,
    "tablekeeper hardware panel --config": _config_rule,
    "tablekeeper doctor --config": _config_rule,
    "tablekeeper doctor --data-dir": _data_dir_rule,
    "tablekeeper appliance install --user": _sudo_rule,
    "tablekeeper appliance unit --user": _sudo_rule,
}


def plain_defaults() -> list[tuple[str, argparse.Action]]:
    """Options whose help names a value as their default and whose default is that value (no rule)."""
    return [(w, a) for w, a in options() if _PLAIN_DEFAULT.search(a.help or "") and w not in RULES]


@pytest.mark.parametrize(("where", "action"), plain_defaults(), ids=[w for w, _ in plain_defaults()])
def test_a_plain_default_in_the_help_is_the_options_default(where: str, action: argparse.Action) -> None:
    match = _PLAIN_DEFAULT.search(action.help or "")
    assert match is not None
    named = match.group(1).rstrip("/")
    if where.endswith("install --counter-id"):  # an empty list means the MicroPython IDs
        from tablekeeper.appliance.units import DEFAULT_COUNTER_IDS

        assert action.default == [] and [f"{v:04X}:{p:04X}" for v, p in DEFAULT_COUNTER_IDS] == [named]
    else:
        assert named == _plain_value(action.default), f"{where}: help says {named}, code has {action.default!r}"


def test_every_default_rule_in_the_help_is_checked() -> None:
    """A ``(default: ...)`` help, or a plain one whose option has no value of its own (None, filled
    in by a rule), must have its rule checked in RULES."""
    ruled = {where for where, action in options() if _RULE_DEFAULT.search(action.help or "")
             or (_PLAIN_DEFAULT.search(action.help or "") and action.default is None)}
    assert ruled == set(RULES)


@pytest.mark.parametrize("where", sorted(RULES))
def test_a_default_rule_in_the_help_is_what_the_code_does(where: str) -> None:
    (action,) = [a for w, a in options() if w == where]
    RULES[where](action.help or "")


def test_the_run_help_names_text_as_the_terminal_default() -> None:
    (action,) = [a for w, a in options() if w == "tablekeeper run --display"]
    assert "text in a terminal" in (action.help or "") and "asciiblock in a terminal" not in (action.help or "")


# --- the README's reference build --------------------------------------------------------------------
def _displays_by_role() -> dict[str, tuple[str, str, str, int]]:
    config = load_config(REFERENCE)
    return {d.role: (d.driver, f"{d.width}x{d.height}", d.panel or "", d.address or 0) for d in config.displays}


def test_the_readme_names_the_reference_builds_displays() -> None:
    text = " ".join((ROOT / "README.md").read_text(encoding="utf-8").split())
    match = re.search(r"Raspberry Pi with (\w+) (\d+x\d+) I2C OLEDs \((\w+) ([\d.]+in) for the track and the tokens, "
                      r"(\w+) ([\d.]+in) for the seats, on (\w+) I2C buses\), (\w+) push buttons", text)
    assert match, "the README's 'Building the hardware' sentence changed shape: update this test with it"
    total, size, shared, shared_panel, seats, seat_panel, buses, buttons = match.groups()
    displays = _displays_by_role()
    config = load_config(REFERENCE)
    assert NUMBERS[total] == len(displays) and {s for _, s, _, _ in displays.values()} == {size}
    assert NUMBERS[shared] == 2 and {displays[r][2] for r in ("track", "tokens")} == {shared_panel}
    seat_roles = [r for r in displays if r.startswith("seat")]
    assert NUMBERS[seats] == len(seat_roles) and {displays[r][2] for r in seat_roles} == {seat_panel}
    assert NUMBERS[buses] == len({d.bus for d in config.displays})
    assert NUMBERS[buttons] == len(config.buttons)


def test_the_hardware_page_names_the_shared_displays_drivers_and_addresses() -> None:
    text = " ".join((ROOT / "hardware" / "README.md").read_text(encoding="utf-8").split())
    displays = _displays_by_role()
    for role in ("track", "tokens"):
        match = re.search(rf"`{role}` \((\w+), (0x[0-9A-F]+)\)", text)
        assert match, f"hardware/README.md no longer names the {role} display's driver and address"
        driver, address = displays[role][0], displays[role][3]
        assert (match.group(1).lower(), int(match.group(2), 16)) == (driver, address)


def test_docs_point_to_nothing_outside_the_repository() -> None:
    docs = [ROOT / "README.md", *(ROOT / "docs").rglob("*.md"), ROOT / "hardware" / "README.md"]
    assert not [str(p.relative_to(ROOT)) for p in docs if "shared/rules" in p.read_text(encoding="utf-8")]


def test_no_two_doc_pages_share_a_save_file() -> None:
    """Following every page's examples in one clone must not resume another page's save."""
    owners: dict[str, set[str]] = {}
    for page in (ROOT / "docs").rglob("*"):
        if page.suffix in (".md", ".sim", ".script", ".keys"):
            for name in re.findall(r"--save (\S+)", page.read_text(encoding="utf-8")):
                owners.setdefault(name, set()).add(page.stem.split(".")[0])
    assert owners and {name: pages for name, pages in owners.items() if len(pages) > 1} == {}


def test_ci_runs_the_readmes_test_command_and_checks_the_release_files() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    match = re.search(r"Run the whole test suite:\s*```sh\n(.+?)\n```", readme, re.DOTALL)
    assert match, "the README's test command moved: update this test with it"
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    assert match.group(1) in ci
    assert any("python -m build" in line and "twine check" in line for line in ci)
    assert any("TABLEKEEPER_TEST_WHEEL" in line for line in ci)
