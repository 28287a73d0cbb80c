"""Saves keep the content of the data files they were started with, and never open a path they name."""

from __future__ import annotations

import json
import shutil
from importlib import resources
from pathlib import Path

import pytest

from tablekeeper.cli import main
from tablekeeper.core import file_options
from tablekeeper.core.session import Setup
from tablekeeper.core.store import Store

PACKAGED = Path(str(resources.files("tablekeeper.games.arkham").joinpath("data", "scenarios.toml")))


def _play(tmp_path: Path, save: Path, *options: str, script: str = "") -> int:
    lines = tmp_path / "script.txt"
    lines.write_text(script)
    extra = [arg for option in options for arg in ("--option", option)]
    return main(["play", "arkham", "--save", str(save), "--script", str(lines), "--json", *extra])


def test_a_save_replays_from_its_kept_copy_after_the_file_is_gone(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    mine = tmp_path / "my_scenarios.toml"
    shutil.copyfile(PACKAGED, mine)
    save = tmp_path / "game.sqlite"
    assert _play(tmp_path, save, f"scenario={mine}", script="next\n") == 0
    first = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    mine.write_text("this is not TOML [\n")  # edited afterwards: the save must not see it
    assert _play(tmp_path, save) == 0
    again = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert again == first
    store = Store.open(save)
    saved = store.load("main")
    store.close()
    assert saved is not None and saved.setup.options["scenario"].startswith(file_options.EMBEDDED_MARK)
    assert PACKAGED.read_text() in json.loads(saved.setup.options["scenario"][len(file_options.EMBEDDED_MARK):])[
        "text"]


@pytest.mark.parametrize("protected", [True, False])
def test_a_save_naming_dev_zero_is_refused_without_opening_it(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, protected: bool) -> None:
    save = tmp_path / "imported.sqlite"
    store = Store.open(save)
    store.create("main", Setup("arkham", 2, 1, {"scenario": "/dev/zero"}))
    store.close()
    opened: list[str] = []
    real_read = file_options.read_text

    def spy(path: str | Path, **kwargs: object) -> str:
        opened.append(str(path))
        return real_read(path, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(file_options, "read_text", spy)
    if not protected:
        monkeypatch.setattr(file_options, "refuse_paths", lambda *_args, **_kwargs: None)
    code = _play(tmp_path, save)
    err = capsys.readouterr().err
    assert code == 2 and len(err.strip().splitlines()) == 1, err
    if protected:
        assert opened == []
        assert "scenario='/dev/zero' is a file path" in err and "imported.sqlite" in err
    else:
        assert opened == ["/dev/zero"]  # without the refusal the save's path is opened


def test_a_tampered_kept_copy_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    kept = file_options.embed({"scenario": str(PACKAGED)}, {"scenario"})["scenario"]
    body = json.loads(kept[len(file_options.EMBEDDED_MARK):])
    body["text"] = body["text"].replace("the_gathering", "the_gatherinG", 1)
    save = tmp_path / "tampered.sqlite"
    store = Store.open(save)
    store.create("main", Setup("arkham", 2, 1, {"scenario": file_options.EMBEDDED_MARK + json.dumps(body)}))
    store.close()
    assert _play(tmp_path, save) == 2
    assert "does not match its SHA-256" in capsys.readouterr().err
