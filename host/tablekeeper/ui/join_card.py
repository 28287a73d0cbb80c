"""The join card on a display: the phones' link as a QR code, as large as the display's height allows
(whole pixels per module, light modules lit), and beside it the PIN and the address to type by hand.
A phone's camera reads the lit code as any printed one (dark modules on a light field)."""

from __future__ import annotations

from PIL import Image, ImageDraw

from tablekeeper.ui.fonts import BODY, cell, font
from tablekeeper.ui.model import JoinCard

QUIET_MODULES = 1  # light modules around the code: a code flush with the dark glass is not found


def qr_scale(card: JoinCard, height: int) -> int:
    """Pixels per module that fit ``height`` with the quiet zone (0: the code does not fit)."""
    return height // (len(card.modules) + 2 * QUIET_MODULES)


def render_join(card: JoinCard, size: tuple[int, int]) -> Image.Image:
    """The join card for a display of ``size``: the code on the left (when it fits), the words on the right."""
    width, height = size
    image = Image.new("1", size)
    draw = ImageDraw.Draw(image)
    scale = qr_scale(card, height)
    left = 0
    if scale > 0:
        side = (len(card.modules) + 2 * QUIET_MODULES) * scale
        top = (height - side) // 2
        draw.rectangle((0, top, side - 1, top + side - 1), fill=1)
        origin = QUIET_MODULES * scale
        for y, row in enumerate(card.modules):
            for x, dark in enumerate(row):
                if dark:
                    x0, y0 = origin + x * scale, top + origin + y * scale
                    draw.rectangle((x0, y0, x0 + scale - 1, y0 + scale - 1), fill=0)
        left = side + 2
    columns = max(1, (width - left) // cell(BODY)[0])
    rows = [f"PIN {card.pin}", *_chunks(card.address, columns)]
    if scale == 0:
        rows.insert(0, "Phones join at")
    line_height = cell(BODY)[1]
    for index, text in enumerate(rows[: height // line_height]):
        draw.text((left, index * line_height), text[:columns], font=font(BODY), fill=1)
    return image


def _chunks(text: str, columns: int) -> list[str]:
    """An address cut into rows of ``columns`` (it has no spaces to wrap at)."""
    return [text[i:i + columns] for i in range(0, len(text), columns)] or [""]
