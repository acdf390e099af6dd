"""Theme: what site.yaml's `theme:` adds to a site's assets: a stylesheet that sets the
accent colours of the light scheme and the lighter one derived for the dark scheme
(colors.py), and the installed app's PNG icons made from the favicon.

The pages' Content-Security-Policy allows no inline style (style-src 'self'), so the
colours are a small stylesheet of their own, linked after Studysite's. A site without a
theme has neither, and its pages are as they were.
"""

from __future__ import annotations

import io
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from studysite import colors
from studysite.content.media import MediaFile, media_bytes
from studysite.content.records import Theme
from studysite.output.assets import fingerprinted

DEFAULT_THEME_COLOR = "#1f5fa8"  # static/style.css's accent: the browser's colour for the window in the light scheme
STYLESHEET = "theme/accent.css"  # its name among the assets
ICON_SIZES = (192, 512)
LIGHT_ACCENT_TEXT = "#ffffff"  # text on an accent-coloured button: static/style.css's
DARK_ACCENT_TEXT = colors.DARK_BACKGROUNDS[0]


def icon_name(size: int) -> str:
    """An app icon's name among the assets (icons/ are not stored by the service worker at once)."""
    return f"icons/theme-{size}.png"


def theme_assets(theme: Theme, files: Mapping[str, MediaFile], content_dir: Path) -> dict[str, tuple[str, bytes]]:
    """The theme's assets by name -> (fingerprinted path, bytes): its stylesheet, when it
    sets an accent, and the app's icons, when it has an image to make them from (files:
    the theme's checked files by role, content/media.py theme_files)."""
    assets = {}
    if theme.accent or "logo" in files:
        css = stylesheet(theme.accent, "logo" in files).encode("utf-8")
        assets[STYLESHEET] = (fingerprinted(STYLESHEET, css), css)
    source = files.get("app-icon")
    if source is not None:
        data = media_bytes(content_dir, source.source)
        for size in ICON_SIZES:
            png = icon_png(data, size)
            assets[icon_name(size)] = (fingerprinted(icon_name(size), png), png)
    return assets


LOGO_RULE = ".site-logo { height: 2rem; width: auto; margin-inline-end: 0.5rem; vertical-align: middle; }\n"  # beside the title, as tall as two lines of it


def stylesheet(accent: str, logo: bool = False) -> str:
    """The accent colours: links, buttons, progress, and the soft backgrounds tinted with
    them, each reaching colors.MIN_CONTRAST with the accent in its scheme; and the logo's
    size, when there is one (the pages of a site without one need no rule for it)."""
    css = "/* site.yaml's theme: its accent, and the lighter one the dark scheme derives from it */\n" if accent else ""
    if accent:
        light_bg, dark_bg = colors.LIGHT_BACKGROUNDS[0], colors.DARK_BACKGROUNDS[0]
        dark = colors.dark_scheme_accent(accent)
        css += (
            f":root {{ --accent: {accent}; --accent-text: {LIGHT_ACCENT_TEXT}; --accent-soft: {colors.soft_background(accent, light_bg)}; }}\n"
            "@media (prefers-color-scheme: dark) {\n"
            f"  :root {{ --accent: {dark}; --accent-text: {DARK_ACCENT_TEXT}; --accent-soft: {colors.soft_background(dark, dark_bg)}; }}\n"
            "}\n"
        )
    return css + (LOGO_RULE if logo else "")


@dataclass(frozen=True)
class SiteImage:
    """An image every page shows or links to (the theme's logo, the favicon): its path from the site's root."""

    path: str
    type: str = ""
    width: int = 0
    height: int = 0


@dataclass(frozen=True)
class SiteLook:
    """What site.yaml's theme changes on every page; as it is by default, the pages are Studysite's own."""

    theme_color: str = DEFAULT_THEME_COLOR  # meta theme-color (light scheme) and the manifests'
    stylesheet: str = ""  # the theme's stylesheet, linked after Studysite's
    logo: SiteImage | None = None  # shown beside the title
    favicon: SiteImage | None = None  # in place of the static files' favicon.svg
    icons: tuple[tuple[str, str, str], ...] | None = None  # the app's icons (path, sizes, type), in place of the static files'


def site_look(theme: Theme, files: Mapping[str, MediaFile], assets: Mapping[str, str]) -> SiteLook:
    """What the theme changes on every page, from its checked files by role (content/media.py
    theme_files) and the assets' paths (with theme_assets'). An SVG favicon is the app's
    icon of any size; the PNG icons are made from the favicon, or from the PNG beside an SVG one."""
    logo, favicon = files.get("logo"), files.get("favicon")
    icons = None
    if favicon is not None:
        icons = ((favicon.path, "any", favicon.type),) if favicon.type == "image/svg+xml" else ()
        icons += tuple((assets[icon_name(size)], f"{size}x{size}", "image/png") for size in ICON_SIZES if icon_name(size) in assets)
    return SiteLook(
        theme.accent or DEFAULT_THEME_COLOR,
        assets.get(STYLESHEET, ""),
        SiteImage(logo.path, logo.type, logo.width, logo.height) if logo is not None else None,
        SiteImage(favicon.path, favicon.type, favicon.width, favicon.height) if favicon is not None else None,
        icons,
    )


def icon_png(data: bytes, size: int) -> bytes:
    """A square PNG icon of size px from an image's bytes: the image scaled to fit, centred
    on a transparent square. Pillow writes the same bytes for the same image."""
    from PIL import Image, ImageOps

    with Image.open(io.BytesIO(data)) as image:
        image.seek(0)  # an animated GIF's first frame
        picture = ImageOps.exif_transpose(image).convert("RGBA")  # turned as a browser shows it
    scale = size / max(picture.size)
    fitted = picture.resize((max(1, round(picture.width * scale)), max(1, round(picture.height * scale))), Image.Resampling.LANCZOS)
    square = Image.new("RGBA", (size, size), (0, 0, 0, 0))
    square.paste(fitted, ((size - fitted.width) // 2, (size - fitted.height) // 2))
    out = io.BytesIO()
    square.save(out, format="PNG")
    return out.getvalue()
