"""The sitemap: one sitemap.xml while the protocol's limits allow (50,000 URLs, 50 MB a
file), and past them sitemap.xml as an index of sitemap-1.xml, sitemap-2.xml... The limits
are parameters, so a small site shows the split."""

from xml.etree import ElementTree

import pytest
from conftest import run_cli

from studysite import pipeline
from studysite.diagnostics import Report
from studysite.incremental.early_start import make_renderer
from studysite.output.assets import collect_assets
from studysite.render.renderer import SITEMAP_MAX_BYTES, SITEMAP_MAX_URLS, Renderer

NS = {"s": "http://www.sitemaps.org/schemas/sitemap/0.9", "x": "http://www.w3.org/1999/xhtml"}
BASE = "https://example.org/study/"


@pytest.fixture
def site(make_content):
    options = pipeline.Options(content_dir=make_content(), base_url=BASE)
    report = Report()
    loaded = pipeline.load(options, report)
    renderer = make_renderer(options, loaded.content, report, collect_assets(options.layered("static")))
    return renderer, loaded.pages


def urls_of(xml: bytes) -> list[tuple[str, list[str]]]:
    """(loc, hreflang codes) of every URL in a sitemap, in order."""
    root = ElementTree.fromstring(xml)
    assert root.tag == f"{{{NS['s']}}}urlset"
    return [(url.find("s:loc", NS).text, [link.get("hreflang") for link in url.findall("x:link", NS)]) for url in root.findall("s:url", NS)]


def test_a_small_site_has_one_sitemap(site):
    renderer, pages = site
    files = renderer.render_sitemap(renderer.sitemap_entries(pages))
    assert list(files) == ["sitemap.xml"]
    listed = urls_of(files["sitemap.xml"])
    assert 0 < len(listed) < SITEMAP_MAX_URLS and (f"{BASE}nl/", ["nl", "fr", "x-default"]) in listed


@pytest.mark.parametrize("max_urls", [1, 4, 7])
def test_past_the_url_limit_sitemap_xml_is_an_index_of_parts(site, max_urls):
    renderer, pages = site
    whole = urls_of(renderer.render_sitemap(renderer.sitemap_entries(pages))["sitemap.xml"])
    files = renderer.render_sitemap(renderer.sitemap_entries(pages), max_urls=max_urls)
    count = -(-len(whole) // max_urls)
    assert list(files) == [f"sitemap-{n}.xml" for n in range(1, count + 1)] + ["sitemap.xml"]
    index = ElementTree.fromstring(files["sitemap.xml"])
    assert index.tag == f"{{{NS['s']}}}sitemapindex"
    assert [loc.text for loc in index.findall("s:sitemap/s:loc", NS)] == [f"{BASE}sitemap-{n}.xml" for n in range(1, count + 1)]
    parts = [urls_of(files[f"sitemap-{n}.xml"]) for n in range(1, count + 1)]
    assert all(len(part) <= max_urls for part in parts)
    assert [url for part in parts for url in part] == whole  # every URL once, in order, with its alternates


def test_exactly_at_the_limit_stays_one_file(site):
    renderer, pages = site
    total = len(urls_of(renderer.render_sitemap(renderer.sitemap_entries(pages))["sitemap.xml"]))
    assert list(renderer.render_sitemap(renderer.sitemap_entries(pages), max_urls=total)) == ["sitemap.xml"]
    assert len(renderer.render_sitemap(renderer.sitemap_entries(pages), max_urls=total - 1)) == 3  # two parts and the index


def test_a_part_larger_than_the_byte_limit_is_halved(site):
    renderer, pages = site
    whole = renderer.render_sitemap(renderer.sitemap_entries(pages))["sitemap.xml"]
    max_bytes = len(whole) // 3
    files = renderer.render_sitemap(renderer.sitemap_entries(pages), max_bytes=max_bytes)
    parts = [data for name, data in files.items() if name != "sitemap.xml"]
    assert len(parts) >= 3 and all(len(data) <= max_bytes for data in parts)
    assert [url for part in parts for url in urls_of(part)] == urls_of(whole)


def test_the_build_writes_the_index_and_its_parts(make_content, tmp_path, monkeypatch):
    monkeypatch.setattr(Renderer.render_sitemap, "__defaults__", (5, SITEMAP_MAX_BYTES))
    site = tmp_path / "site"
    result = run_cli("build", "--content", make_content(), "--out", site, "--no-search", "--base-url", BASE)
    assert result.status == 0, result.err
    parts = sorted(p.name for p in site.glob("sitemap-*.xml"))
    index = ElementTree.parse(site / "sitemap.xml").getroot()
    assert parts and [loc.text for loc in index.findall("s:sitemap/s:loc", NS)] == [BASE + name for name in sorted(parts, key=lambda n: int(n[8:-4]))]
    assert f"Sitemap: {BASE}sitemap.xml" in (site / "robots.txt").read_text()
