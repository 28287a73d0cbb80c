"""The three things a counter can be: an HP die, a multi-value dial, a dice roller.

A role owns the values and what the player's inputs do to them; it tells the host through
``link`` and never talks to hardware.
"""

from micropython import const

from counter import messages as m

TYPE_CHECKING = False
if TYPE_CHECKING:
    from counter.interfaces import Entropy, Outgoing

INPUT_UP = const(1)
INPUT_DOWN = const(2)
INPUT_SELECT = const(3)

NO_LIMIT = const(0xFFFF)
DIAL_SLOTS = ("damage", "horror", "clues", "resources")
_DIAL_LABELS = ("DMG", "HOR", "CLU", "RES")


REV_WINDOW = const(0x1000)  # as the host's: how far a revision may run ahead of the one it follows


def rev_ahead(candidate: int, last: int) -> bool:
    """True when 16-bit revision ``candidate`` is 1..REV_WINDOW steps after ``last`` on the
    wrapping circle (serial-number arithmetic, the same window as the host's)."""
    step = (candidate - last) & 0xFFFF
    return 0 < step <= REV_WINDOW


class SlotRole:
    """Values the host mirrors into game tracks; each player change bumps that slot's revision."""

    code = 0
    slot_names: tuple = ()

    def __init__(self, link: "Outgoing", limits: tuple, labels: tuple) -> None:
        count = len(self.slot_names)
        self.link = link
        self.values = [0] * count
        self.limits = list(limits)
        self.revs = [0] * count
        self.labels = list(labels)  # each slot's name on the screen, until the host names it for its game
        self.cursor = 0

    def on_label(self, slot: int, text: str) -> bool:
        if slot >= len(self.labels):
            return False
        self.labels[slot] = text
        return True

    def change(self, slot: int, delta: int, now_ms: int) -> bool:
        value = self.values[slot] + delta
        limit = self.limits[slot]
        if value < 0 or value > limit:
            return False
        self.values[slot] = value
        self.revs[slot] = (self.revs[slot] + 1) & 0xFFFF
        self.link.send_change(slot, value, self.revs[slot], now_ms)
        return True

    def on_set(self, slot: int, value: int, limit: int, rev_seen: int) -> bool:
        """Take the host's value unless the player has made a change the host has not seen yet
        (this board's revision a little ahead of ``rev_seen``); any other ``rev_seen`` is the host
        resynchronising the board to its count, and is adopted."""
        if slot >= len(self.values) or value > limit:
            return False
        if not rev_ahead(self.revs[slot], rev_seen):
            self.values[slot] = value
            self.limits[slot] = limit
            self.revs[slot] = rev_seen
        return True

    def on_roll_request(self, count: int, sides: int, now_ms: int) -> bool:
        return False

    def handle(self, event: int, now_ms: int) -> bool:
        if event == INPUT_UP:
            return self.change(self.cursor, 1, now_ms)
        if event == INPUT_DOWN:
            return self.change(self.cursor, -1, now_ms)
        if event == INPUT_SELECT and len(self.values) > 1:
            self.cursor = (self.cursor + 1) % len(self.values)
            return True
        return False


class HpRole(SlotRole):
    """One value 0..max shown large (an Oathsworn HP die)."""

    code = m.ROLE_HP
    slot_names = ("hp",)

    def __init__(self, link: "Outgoing", max_value: int) -> None:
        super().__init__(link, (max_value,), ("HP",))
        self.values[0] = max_value

    def screen(self) -> tuple[str | None, tuple[str, ...]]:
        limit = self.limits[0]
        label = self.labels[0]
        return str(self.values[0]), (label if limit == NO_LIMIT else label + " /" + str(limit),)


class DialRole(SlotRole):
    """Several named values; select moves the cursor, up/down change the selected one."""

    code = m.ROLE_DIAL
    slot_names = DIAL_SLOTS

    def __init__(self, link: "Outgoing") -> None:
        super().__init__(link, (NO_LIMIT,) * len(DIAL_SLOTS), _DIAL_LABELS)

    def screen(self) -> tuple[str | None, tuple[str, ...]]:
        cells = []
        for index in range(len(self.values)):
            mark = ">" if index == self.cursor else " "
            cells.append(mark + self.labels[index][:3] + " " + str(self.values[index]))
        return None, (cells[0] + " " + cells[1], cells[2] + " " + cells[3])


class DiceRole:
    """Rolls ``count`` dice of ``sides`` faces from hardware entropy on a press or host request."""

    code = m.ROLE_DICE
    slot_names: tuple = ()

    def __init__(self, link: "Outgoing", entropy: "Entropy", count: int, sides: int) -> None:
        self.link = link
        self._entropy = entropy
        self.count = count
        self.sides = sides
        self.faces = bytearray(m.MAX_DICE)
        self.rolled = 0
        self.roll_id = 0

    def roll(self, now_ms: int) -> None:
        sides = self.sides
        accept_below = 256 - 256 % sides
        index = 0
        while index < self.count:
            for byte in self._entropy(self.count):
                if byte < accept_below and index < self.count:
                    self.faces[index] = byte % sides + 1
                    index += 1
        self.rolled = self.count
        self.roll_id = (self.roll_id + 1) & 0xFFFF
        self.link.send_roll(self.roll_id, sides, self.faces, self.count, now_ms)

    def handle(self, event: int, now_ms: int) -> bool:
        if event == INPUT_SELECT:
            self.roll(now_ms)
            return True
        if event == INPUT_UP and self.count < m.MAX_DICE:
            self.count += 1
            return True
        if event == INPUT_DOWN and self.count > 1:
            self.count -= 1
            return True
        return False

    def on_set(self, slot: int, value: int, limit: int, rev_seen: int) -> bool:
        return False

    def on_label(self, slot: int, text: str) -> bool:
        return False  # a dice roller has no slots to name

    def on_roll_request(self, count: int, sides: int, now_ms: int) -> bool:
        if count < 1 or count > m.MAX_DICE or sides < 2 or sides > m.MAX_SIDES:
            return False
        self.count = count
        self.sides = sides
        self.roll(now_ms)
        return True

    def screen(self) -> tuple[str | None, tuple[str, ...]]:
        kind = str(self.count) + "d" + str(self.sides)
        if not self.rolled:
            return None, (kind, "PRESS TO ROLL")
        faces = " ".join(str(self.faces[i]) for i in range(self.rolled))
        return faces, (kind,)
