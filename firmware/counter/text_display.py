"""A display that keeps the last screen as text: the simulator prints it, tests read it."""

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable


class TextDisplay:
    """A display that keeps the last screen as text; the simulator prints it."""

    def __init__(self, sink: "Callable[[str], None] | None" = None) -> None:
        self._sink = sink
        self.text = ""

    def init_display(self) -> None:
        self.text = ""

    def show(self, big: str | None, lines: tuple[str, ...]) -> None:
        parts = [big] if big else []
        for line in lines:
            parts.append(line)
        self.text = " | ".join(parts)
        if self._sink is not None:
            self._sink(self.text)
