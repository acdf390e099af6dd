"""The site's files besides its pages, assets, media and decks: robots.txt and .nojekyll,
the lists of questions and flashcards the study scripts count as due, and the offline files
(manifests, page lists and the service worker), made from what was written before them."""

from __future__ import annotations

import json

from studysite import urls
from studysite.content.graph import Graph
from studysite.content.html import ContentHtml
from studysite.content.records import Content
from studysite.output.write import SiteWriter
from studysite.pages import site_pages
from studysite.render.renderer import Renderer
from studysite.study import offline
from studysite.text.markup import plain_text


def write_robots(writer: SiteWriter, content: Content) -> None:
    """robots.txt, which names the sitemap, and .nojekyll (GitHub Pages serves the site as it is)."""
    writer.write("robots.txt", f"User-agent: *\nAllow: /\nSitemap: {urls.absolute(content.site.base_url, urls.SITEMAP)}\n".encode())
    writer.write(".nojekyll", b"")


def write_question_lists(writer: SiteWriter, graph: Graph, content: Content) -> None:
    """Per language, the ids of the questions its site has (urls.review_questions) and the
    keys of its flashcards (urls.flashcard_list): the study scripts count as due only these,
    not questions or terms the site no longer has."""
    for language, lg in graph.languages.items():
        writer.write(urls.review_questions(language), json.dumps(list(lg.edition.questions), separators=(",", ":")).encode())
        cards = [f"{t}:{side}" for t in lg.edition.terms for side in site_pages.flashcard_sides(content.terms[t], content.site.term_language, language)]
        writer.write(urls.flashcard_list(language), json.dumps(cards, separators=(",", ":")).encode())


def write_offline_files(writer: SiteWriter, content_html: ContentHtml, graph: Graph, renderer: Renderer) -> None:
    """Manifests, page lists and the service worker, made from what was written so far."""
    site = renderer.site
    descriptions = {lang: " ".join(plain_text(html).split()) for lang, html in content_html.site.items()}
    titles = {lang: site.titles.get(lang) or site.titles.get(site.languages[0], "Studysite") for lang in site.languages}
    environment = renderer.environments[site.languages[0]]
    media = {language: offline.media_shown(content_html, lg.edition) for language, lg in graph.languages.items()}
    files = offline.offline_files(
        environment, writer.written, titles, descriptions, site.assets, site.languages, site.short_titles, media, site.icons(), site.look.theme_color
    )
    for path, data in files.items():
        writer.write(path, data)
