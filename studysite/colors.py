"""Colours: the contrast arithmetic of WCAG 2 (relative luminance, contrast ratio) and the
accent colours a theme derives from the one an author gives (site.yaml `theme.accent`).

The pages' backgrounds are static/style.css's: text in the accent colour must reach
MIN_CONTRAST (WCAG AA for normal text) on each, in the light and the dark colour scheme.
"""

from __future__ import annotations

import re

MIN_CONTRAST = 4.5
# static/style.css's backgrounds that accent-coloured text sits on: --bg and --surface
LIGHT_BACKGROUNDS = ("#fbfbf8", "#ffffff")
DARK_BACKGROUNDS = ("#14171a", "#1c2024")
HEX_COLOUR = re.compile(r"#[0-9a-fA-F]{6}")
_STEPS = 200  # how finely a colour is mixed toward another while looking for a passing one

Rgb = tuple[int, int, int]


def parse_hex(colour: str) -> Rgb:
    """#rrggbb as (r, g, b), 0-255."""
    return int(colour[1:3], 16), int(colour[3:5], 16), int(colour[5:7], 16)


def to_hex(rgb: Rgb) -> str:
    return "#{:02x}{:02x}{:02x}".format(*rgb)


def relative_luminance(colour: str) -> float:
    """WCAG 2's relative luminance of an sRGB colour (0 black, 1 white)."""

    def linear(channel: int) -> float:
        value = channel / 255
        return value / 12.92 if value <= 0.04045 else ((value + 0.055) / 1.055) ** 2.4

    r, g, b = (linear(channel) for channel in parse_hex(colour))
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(first: str, second: str) -> float:
    """WCAG 2's contrast ratio of two colours, from 1 (the same) to 21 (black on white)."""
    lighter, darker = sorted((relative_luminance(first), relative_luminance(second)), reverse=True)
    return (lighter + 0.05) / (darker + 0.05)


def least_contrast(colour: str, backgrounds: tuple[str, ...]) -> float:
    return min(contrast(colour, background) for background in backgrounds)


def mix(colour: str, toward: str, share: float) -> str:
    """The colour moved `share` (0 to 1) of the way toward another, channel by channel."""
    return to_hex(tuple(round(a + (b - a) * share) for a, b in zip(parse_hex(colour), parse_hex(toward), strict=True)))  # type: ignore[arg-type]


def passing_mix(colour: str, toward: str, backgrounds: tuple[str, ...], minimum: float = MIN_CONTRAST) -> str:
    """The colour mixed toward another by the least share that reaches `minimum` contrast
    on every background (the colour itself when it does already); keeps its hue as far as
    that allows."""
    for step in range(_STEPS + 1):
        candidate = mix(colour, toward, step / _STEPS)
        if least_contrast(candidate, backgrounds) >= minimum:
            return candidate
    return toward


def darker_passing(colour: str) -> str:
    """An accent for the light scheme near the one given: mixed toward black until it
    reaches MIN_CONTRAST on the light backgrounds (the hint for one that does not)."""
    return passing_mix(colour, "#000000", LIGHT_BACKGROUNDS)


def dark_scheme_accent(colour: str) -> str:
    """The accent of the dark scheme: the light scheme's mixed toward white until it
    reaches MIN_CONTRAST on the dark backgrounds."""
    return passing_mix(colour, "#ffffff", DARK_BACKGROUNDS)


def soft_background(accent: str, background: str) -> str:
    """A background tinted with the accent (--accent-soft: table heads, code, a hovered
    menu item) on which the accent itself still reaches MIN_CONTRAST: a tenth of the
    accent in the background, or less."""
    for step in range(_STEPS + 1):
        share = 0.9 + 0.1 * step / _STEPS
        candidate = mix(accent, background, share)
        if contrast(accent, candidate) >= MIN_CONTRAST:
            return candidate
    return background
