"""`character new` at a real terminal (a pseudo-terminal): a legal sheet of every creation mode
of both editions, each then passed by `character validate`."""

from __future__ import annotations

import os
import pty
import select
import subprocess
import sys
import time
from pathlib import Path

import pytest

from taletable.store.sheets import load_character
from taletable.systems.cogent.character.sheet import CoreCharacter, TieredCharacter

COMMAND = [sys.executable, "-c", "from taletable.cli.main import main; raise SystemExit(main())"]
WAIT = 20.0

Talk = list[tuple[str, str]]


def converse(args: list[str], talk: Talk) -> tuple[int, str]:
    """Run ``taletable ARGS`` at a pseudo-terminal: wait for each prompt, type its answer."""
    main, other = pty.openpty()
    process = subprocess.Popen([*COMMAND, *args], stdin=other, stdout=other, stderr=other,
                               close_fds=True)  # fmt: skip
    os.close(other)
    seen, unread = "", ""
    try:
        for prompt, answer in talk:
            unread = _read_until(main, unread, prompt)
            seen += unread
            unread = unread[unread.index(prompt) + len(prompt) :]
            os.write(main, (answer + "\n").encode())
        status = process.wait(timeout=WAIT)
        seen += unread + _drain(main)
    finally:
        process.kill()
        os.close(main)
    return status, seen


def _read_until(fd: int, text: str, wanted: str) -> str:
    deadline = time.monotonic() + WAIT
    while wanted not in text:
        if time.monotonic() > deadline:
            raise AssertionError(f"no prompt {wanted!r} after:\n{text[-600:]}")
        ready, _, _ = select.select([fd], [], [], 0.2)
        if ready:
            text += os.read(fd, 4096).decode(errors="replace")
    return text


def _drain(fd: int) -> str:
    text = ""
    while select.select([fd], [], [], 0.2)[0]:
        try:
            chunk = os.read(fd, 4096)
        except OSError:
            break
        if not chunk:
            break
        text += chunk.decode(errors="replace")
    return text


def core_talk(mode: str) -> Talk:
    """A core character of ``mode``: 002 > Campaign Progression's points and caps."""
    attributes, cap, commerce, disabling = {
        "fast_play": (("1", "0", "1"), 4, [("Commerce level", "2"), ("commerce bonus", "Swim"),
                                           ("Step it once", "0")], [("Disabling", "roll")]),
        "initiate": (("0", "1", "0"), 2, [("Commerce level", "3"), ("Step it once", "0")],
                     [("Disabling", "Phobia")]),
        "adept": (("1", "1", "0"), 3, [("Commerce level", "4"), ("Quirk of wealth", "custom: Pets"),
                                       ("Step it once", "0")], [("Disabling", "Paranoia")]),
        "veteran": (("0", "0", "2"), 4, [("Commerce level", "3"), ("Step it once", "1"),
                                         ("Quirk of wealth", "")], [("Disabling", "Phobia")]),
    }[mode]  # fmt: skip
    talk = [("Edition", "core"), ("Mode", mode), ("Name", f"Hero of {mode}"), ("Concept", ""),
            ("Character Disposition", "Patient"), ("Character History", "A miller's child"),
            ("Beliefs / Morality", "Bread for all"), ("Goals / Aspirations", "A mill of my own"),
            ("STR points", attributes[0]), ("RFL points", attributes[1]),
            ("INT points", attributes[2]), *disabling]  # fmt: skip
    if mode != "initiate":  # Initiate's "Disabling Characteristics 1" ends the step at one
        talk.append(("Disabling", ""))
    talk += [("Skill points as", f"Athletics={cap}, Stealth={cap}"),
             ("Vocation (blank", "Miller"), ("Its attribute", "STR"), ("Its points", str(cap)),
             ("Vocational skill under Miller", "Milling"), ("its attribute", "INT"),
             ("its points", "1"), ("Vocational skill under Miller", ""),
             ("Combat skill", "Large Weapons"), ("its points", "1"), ("Combat skill", ""),
             ("Vocation (blank", ""), *commerce, ("Weapons as", "Flail=Large Weapon"),
             ("Armour pieces", "Gambeson"), ("Other items", "Sacks, Millstone")]  # fmt: skip
    if mode == "veteran":
        talk.append(("Glory Days", "y"))
    return talk


def tiered_talk(tier: int) -> Talk:
    """A tiered character of ``tier``: 000 > Tier Resources and Limits."""
    rank, most = {0: (0, 0), 1: (1, 1), 2: (2, 2), 3: (3, 3), 4: (4, 4), 5: (4, 4)}[tier]
    talk = [("Edition", "tiered"), ("Tier", str(tier)), ("Name", f"Tier {tier}"),
            ("Concept", "A ferry keeper"), ("Elevator Pitch", "She knows every crossing."),
            ("Flesh it Out", "Born at the ford; called to quest by the flood."),
            ("STR points", str(tier)), ("RFL points", "0"), ("INT points", "0"),
            ("CHA points", "0")]  # fmt: skip
    if rank:
        talk += [("Vocation (blank", "Ferrier"), ("Its attribute", "STR"),
                 ("Its rank", str(rank)), ("Specialisation under Ferrier", "Poling"),
                 ("its attribute", "STR"), ("its points", "1" if tier > 1 else "0"),
                 ("Specialisation under Ferrier", "")]  # fmt: skip
    talk.append(("Vocation (blank", ""))
    skills = f"Athletics={most}, Stealth={most}" if most else ""
    talk.append(("Skill points as", skills))
    if tier >= 2:  # "Quirks 0 0 1 1 2 2"
        talk += [("Take a quirk", "y"), ("Quirk of wealth", "Monopoly")]
    talk += [("Take a quirk", ""), ("Weapons as", ""), ("Armour pieces", ""),
             ("Other items", "Pole"), ("Disabling", "")]  # fmt: skip
    return talk


CASES = [*(("core", mode) for mode in ("fast_play", "initiate", "adept", "veteran")),
         *(("tiered", str(tier)) for tier in range(6))]  # fmt: skip


@pytest.mark.parametrize(("edition", "mode"), CASES, ids=[f"{e}-{m}" for e, m in CASES])
def test_a_legal_sheet_of_every_mode_at_a_terminal(tmp_path: Path, edition: str, mode: str) -> None:
    """002 > Character Creation ("Fast Play", "Initiate", "Adept", "Veteran") and 000 > Tier
    Progression ("six Tiers"): each made at a terminal, saved legal, and passed by validate."""
    out = tmp_path / "hero.yaml"
    talk = core_talk(mode) if edition == "core" else tiered_talk(int(mode))
    faces = {"fast_play": ["--faces", "5"], "veteran": ["--faces", "11"]}.get(mode, [])
    status, seen = converse(["cogent", "character", "new", "--out", str(out), *faces], talk)
    assert status == 0, seen[-1500:]
    assert f"saved {out}" in seen and "legal" in seen
    sheet = load_character(out)
    assert sheet.edition == edition
    if mode == "fast_play":  # "roll a twenty-sided dice": 5 is Phobia, kept
        assert "rolled 5: Phobia (kept)" in seen
    if isinstance(sheet, CoreCharacter) and mode == "veteran":  # Glory Days: 1 of 1; 11 is Debt
        assert sheet.glory_days and sheet.destiny.points == sheet.destiny.maximum == 1
        assert sheet.commerce.quirks == ("Debt",) and sheet.commerce.level == 4
    if isinstance(sheet, CoreCharacter) and mode == "adept":
        assert sheet.commerce.custom_quirks == ("Pets",)
    if isinstance(sheet, TieredCharacter):  # "Starting Destiny 0 0 1 2 3 5"
        assert sheet.destiny.points == (0, 0, 1, 2, 3, 5)[sheet.tier]
    checked = subprocess.run([*COMMAND, "cogent", "character", "validate", str(out)],
                             capture_output=True, text=True, timeout=WAIT, check=False)  # fmt: skip
    assert checked.returncode == 0 and "legal" in checked.stdout, checked.stdout
