"""Theme: site.yaml's accent colour (checked for WCAG AA contrast, with a lighter one derived
for the dark scheme), logo and favicon (the installed app's icons made from it); a site
without a theme looks as Studysite's own."""

import io
import json
import re

import pytest
from conftest import png, run_cli

from studysite import colors
from studysite.output.theme import icon_png, stylesheet

SITE = """\
languages: [nl, fr]
base_url: https://example.org/study/
theme:
  accent: "{accent}"
  logo: media/logo.svg
  favicon: media/{favicon}
nl: {{title: Studie}}
fr: {{title: Étude}}
"""
LOGO = '<svg xmlns="http://www.w3.org/2000/svg" width="96" height="32"><rect width="96" height="32" fill="#0b6e4f"/></svg>'


def test_contrast_follows_wcag():
    assert colors.relative_luminance("#ffffff") == 1 and colors.relative_luminance("#000000") == 0
    assert round(colors.contrast("#000000", "#ffffff"), 2) == 21
    assert round(colors.contrast("#777777", "#ffffff"), 2) == 4.48  # the classic grey that just fails AA
    assert colors.contrast("#1f5fa8", "#fbfbf8") == colors.contrast("#fbfbf8", "#1f5fa8")


@pytest.mark.parametrize("accent", ["#ff9900", "#777777", "#00ff00", "#3399ff", "#f08080"])
def test_a_failing_accent_has_a_darker_passing_one_of_the_same_hue(accent):
    darker = colors.darker_passing(accent)
    assert colors.least_contrast(accent, colors.LIGHT_BACKGROUNDS) < colors.MIN_CONTRAST <= colors.least_contrast(darker, colors.LIGHT_BACKGROUNDS)
    assert all(d <= a for a, d in zip(colors.parse_hex(accent), colors.parse_hex(darker), strict=True))
    assert colors.least_contrast(colors.mix(darker, accent, 0.05), colors.LIGHT_BACKGROUNDS) < colors.MIN_CONTRAST + 0.3  # no darker than it needs


@pytest.mark.parametrize("accent", ["#0b6e4f", "#1f5fa8", "#000000", "#6b21a8", "#a3262a"])
def test_the_dark_scheme_derives_a_lighter_accent_that_passes_on_its_backgrounds(accent):
    dark = colors.dark_scheme_accent(accent)
    assert colors.least_contrast(dark, colors.DARK_BACKGROUNDS) >= colors.MIN_CONTRAST
    assert colors.relative_luminance(dark) > colors.relative_luminance(accent)
    for scheme_accent, background in ((accent, colors.LIGHT_BACKGROUNDS[0]), (dark, colors.DARK_BACKGROUNDS[0])):
        assert colors.contrast(scheme_accent, colors.soft_background(scheme_accent, background)) >= colors.MIN_CONTRAST


def test_the_stylesheet_sets_both_schemes():
    css = stylesheet("#0b6e4f")
    light, dark = css.split("@media (prefers-color-scheme: dark)")
    assert "--accent: #0b6e4f;" in light and f"--accent: {colors.dark_scheme_accent('#0b6e4f')};" in dark


def test_icons_are_square_pngs_of_their_size():
    from PIL import Image

    for size in (192, 512):
        data = icon_png(png(300, 100), size)
        with Image.open(io.BytesIO(data)) as icon:
            assert icon.format == "PNG" and icon.size == (size, size)
            assert icon.getpixel((0, 0))[3] == 0 and icon.getpixel((size // 2, size // 2))[3] == 255  # the wide image centred, transparent above
        assert icon_png(png(300, 100), size) == data  # the same bytes each build


def themed(make_content, accent="#0b6e4f", favicon="icon.png", **overrides):
    content = make_content(**{"site.yaml": SITE.format(accent=accent, favicon=favicon), **overrides})
    (content / "media").mkdir(exist_ok=True)
    (content / "media/logo.svg").write_text(LOGO, encoding="utf-8")
    (content / "media/icon.png").write_bytes(png(600, 600, "#0b6e4f"))
    (content / "media/icon.svg").write_text(LOGO.replace('width="96"', 'width="32"'), encoding="utf-8")
    return content


def test_an_accent_under_aa_contrast_is_a_located_error_with_a_darker_one(make_content):
    result = run_cli("check", "--content", themed(make_content, accent="#ff9900"))
    assert result.status == 1
    assert "site.yaml:4:11: error: accent '#ff9900' has a contrast of 2.06:1 on the light background; links and buttons need 4.5:1 (WCAG AA) [theme.contrast]" in result.err
    assert f'  hint: a darker colour of the same hue passes: accent: "{colors.darker_passing("#ff9900")}"' in result.err


@pytest.mark.parametrize(
    "theme,code,where",
    [
        ("theme:\n  accent: #0b6e4f\n", "type.text", "site.yaml:3:10"),  # unquoted: a comment
        ("theme:\n  accent: green\n", "value.colour", "site.yaml:3:11"),
        ("theme:\n  colour: '#0b6e4f'\n", "key.unknown", "site.yaml:3:3"),
        ("theme:\n  logo: media/none.svg\n", "media.missing", "site.yaml:3:9"),
        ("theme:\n  favicon: ../icon.png\n", "media.outside", "site.yaml:3:12"),
        ("theme: dark\n", "type.mapping", "site.yaml:2:8"),
    ],
)
def test_theme_mistakes_are_located(make_content, theme, code, where):
    result = run_cli("check", "--content", make_content(**{"site.yaml": f"languages: [nl]\n{theme}nl: {{title: Studie}}\n"}))
    assert result.status == 1 and re.search(rf"^{re.escape(where)}: error: .*\[{re.escape(code)}\]$", result.err, re.MULTILINE), result.err


def build(content, site):
    result = run_cli("build", "--content", content, "--out", site, "--no-search")
    assert result.status == 0, result.err
    return result


def test_the_theme_on_every_page_and_in_the_manifest(make_content, tmp_path):
    site = tmp_path / "site"
    build(themed(make_content), site)
    page = (site / "nl/glossary/gpu/index.html").read_text(encoding="utf-8")
    (css,) = re.findall(r'<link rel="stylesheet" href="\.\./\.\./\.\./(assets/theme/accent\.[0-9a-f]{10}\.css)">', page)
    assert (site / css).read_text(encoding="utf-8") == stylesheet("#0b6e4f", logo=True)
    assert '<meta name="theme-color" content="#0b6e4f" media="(prefers-color-scheme: light)">' in page
    (icon,) = re.findall(r'<link rel="icon" href="\.\./\.\./\.\./(media/icon\.[0-9a-f]{10}\.png)" type="image/png">', page)
    (logo,) = re.findall(r'<img class="site-logo" src="\.\./\.\./\.\./(media/logo\.[0-9a-f]{10}\.svg)" width="96" height="32" alt="">', page)
    assert (site / logo).read_text(encoding="utf-8") == LOGO and (site / icon).is_file()
    manifest = json.loads((site / "nl/manifest.webmanifest").read_text(encoding="utf-8"))
    assert manifest["theme_color"] == "#0b6e4f"
    assert [(i["sizes"], i["type"]) for i in manifest["icons"]] == [("192x192", "image/png"), ("512x512", "image/png")]
    from PIL import Image

    for item in manifest["icons"]:
        assert re.fullmatch(r"\.\./assets/icons/theme-\d+\.[0-9a-f]{10}\.png", item["src"])
        with Image.open(site / "nl" / item["src"]) as image:
            assert f"{image.width}x{image.height}" == item["sizes"]
    from test_validity import validate

    assert validate(site) == []


def test_an_svg_favicon_is_the_apps_icon_of_any_size_with_the_png_beside_it(make_content, tmp_path):
    site = tmp_path / "site"
    build(themed(make_content, favicon="icon.svg"), site)
    manifest = json.loads((site / "manifest.webmanifest").read_text(encoding="utf-8"))
    assert [(i["sizes"], i["type"]) for i in manifest["icons"]] == [("any", "image/svg+xml"), ("192x192", "image/png"), ("512x512", "image/png")]
    assert re.search(r'<link rel="icon" href="\.\./media/icon\.[0-9a-f]{10}\.svg" type="image/svg\+xml">', (site / "nl/index.html").read_text(encoding="utf-8"))


def test_an_svg_favicon_without_a_png_beside_it_is_warned_about(make_content, tmp_path):
    content = themed(make_content, favicon="icon.svg")
    (content / "media/icon.png").unlink()
    result = build(content, tmp_path / "site")
    assert "site.yaml:6:12: warning: the favicon is an SVG and no PNG of the same name is beside it" in result.err and "[theme.icon]" in result.err
    manifest = json.loads((tmp_path / "site/manifest.webmanifest").read_text(encoding="utf-8"))
    assert [(i["sizes"], i["type"]) for i in manifest["icons"]] == [("any", "image/svg+xml")]  # not Studysite's own PNGs


def test_a_small_favicon_is_warned_about(make_content, tmp_path):
    content = themed(make_content)
    (content / "media/icon.png").write_bytes(png(32, 32))
    result = run_cli("check", "--content", content)
    assert result.status == 0 and "site.yaml:6:12: warning: icon.png is 32×32 px: the installed app's 512 px icon is enlarged from it [theme.icon]" in result.err


def test_without_a_theme_the_pages_are_studysites_own(make_content, tmp_path):
    site = tmp_path / "site"
    build(make_content(), site)
    page = (site / "nl/questions/gpu-role/index.html").read_text(encoding="utf-8")
    assert "theme/accent" not in page and "site-logo" not in page and not (site / "media").exists()
    assert re.search(r'<link rel="icon" href="\.\./\.\./\.\./assets/favicon\.[0-9a-f]{10}\.svg" type="image/svg\+xml">', page)
    assert '<meta name="theme-color" content="#1f5fa8" media="(prefers-color-scheme: light)">' in page
    manifest = json.loads((site / "nl/manifest.webmanifest").read_text(encoding="utf-8"))
    assert manifest["theme_color"] == "#1f5fa8" and [i["src"].split("/")[-1].split(".")[0] for i in manifest["icons"]] == ["icon", "icon-192", "icon-512"]
