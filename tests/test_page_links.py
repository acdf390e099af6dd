"""A Markdown link to a page of the site that does not exist is a warning, located at the
record that holds it; links to pages that exist, to files, to anchors and to other sites are not."""

from conftest import QUESTION_YAML, TERM_YAML, run_cli

from studysite.pages.links import link_target

LINKS = (
    "[de term](../../glossary/gpu/), [het onderwerp](../../topics/basics/), [de vraag](../../questions/gpu-role/index.html#uitleg), "
    "[thuis](../../), [een plaatje](schema.png), [elders](https://example.org/x/), [hier](#boven)"
)


def test_a_link_to_a_page_that_does_not_exist_is_a_located_warning(make_content):
    explanation = "  explanation: Een GPU rekent parallel.\n"
    question = QUESTION_YAML.replace(explanation, f"  explanation: >\n    Zie {LINKS}\n    en [de CPU](../../glossary/cpu/).\n", 1)
    term = TERM_YAML.replace("definition: Grafische processor.}", "definition: 'Zie [vraag](../../questions/gpu-rol/).'}")
    content = make_content(**{"questions/gpu-role.yaml": question, "glossary/gpu.yaml": term})
    result = run_cli("check", "--content", content)
    assert result.status == 0, result.err
    warnings = [line for line in result.err.splitlines() if "[link.broken]" in line]
    assert warnings == [
        "glossary/gpu.yaml:2:42: warning: the link '../../questions/gpu-rol/' in the 'nl' text leads to no page of the site "
        "('nl/questions/gpu-rol/') [link.broken]",
        "questions/gpu-role.yaml:8:17: warning: the link '../../glossary/cpu/' in the 'nl' text leads to no page of the site "
        "('nl/glossary/cpu/') [link.broken]",
    ]
    assert run_cli("check", "--content", content, "--strict").status == 1


def test_what_a_link_leads_to_from_a_page():
    page = "nl/questions/q1/"
    assert link_target(page, "../q2/") == "nl/questions/q2/"
    assert link_target(page, "../../glossary/gpu") == "nl/glossary/gpu"
    assert link_target(page, "../../../fr/questions/q1/?x=1#y") == "fr/questions/q1/"
    assert link_target(page, "../../../") == ""
    for left_alone in ("chip.png", "../../downloads/site-nl.apkg", "https://example.org/", "/abs/", "#here", "mailto:a@b.c", "../../../../other-site/"):
        assert link_target(page, left_alone) is None, left_alone
