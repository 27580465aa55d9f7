"""The docs page (control/docs_page.py) in a real browser: Debian's headless Chromium driven by
Playwright for Python (its own browser download is not reachable here; `make test` installs
Debian's). The page renders our reference, the search endpoint's section is there, and "try it"
with a pasted key shows the catalogue's JSON. A screenshot is saved under var/."""

from __future__ import annotations

import shutil

import pytest

from marquee.settings import PROJECT_ROOT

pytestmark = pytest.mark.e2e

BROWSERS = ("chromium-headless-shell", "chromium", "chromium-browser")  # Debian's packages' commands
SCREENSHOT = PROJECT_ROOT / "var" / "docs-page.png"


@pytest.fixture(scope="module")
def browser():
    playwright_api = pytest.importorskip("playwright.sync_api")
    executable = next(filter(None, map(shutil.which, BROWSERS)), None)
    if executable is None:
        pytest.skip(
            "no Chromium to drive: `make test` installs Debian's chromium-headless-shell as root; "
            "without root, `apt-get install chromium-headless-shell` first"
        )
    with playwright_api.sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=executable, args=["--no-sandbox"])
        yield launched
        launched.close()


def test_the_reference_renders_and_try_it_answers_with_a_pasted_key(browser, api, catalogue):
    key = api.account("docs-reader", "pro")
    title = catalogue.execute(
        "SELECT t.title FROM movies m JOIN movie_translations t ON t.movie_id = m.id AND t.iso_639_1 = 'en' "
        "AND t.iso_3166_1 = 'US' AND t.title <> '' WHERE NOT m.adult ORDER BY m.popularity DESC LIMIT 1"
    ).fetchone()[0]
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    response = page.goto(f"{api.settings.api_base_url}/docs/")
    assert response.status == 200, (response.status, page.content()[:500])
    assert "make run" in page.inner_text("#start") and "curl" in page.inner_text("#start")
    search = page.locator("#operations-tmdb-search-movie")
    try:
        search.wait_for(timeout=30_000)  # Swagger UI has fetched /3/openapi.json and rendered it
    except Exception:
        SCREENSHOT.parent.mkdir(exist_ok=True)
        page.screenshot(path=str(SCREENSHOT))
        raise AssertionError(page.content()[-3000:]) from None
    assert page.locator("#operations-omdb-omdb").count() == 1  # OMDb's door too
    # Authorize: the key in the `api_key` scheme, as a reader pastes it.
    page.click("button.authorize")
    dialog = page.locator(".auth-container").filter(has_text="api_key")
    dialog.locator("input").fill(key)
    dialog.locator("button.authorize").click()
    page.click("button.btn-done")
    search.locator(".opblock-summary").click()
    search.locator("input[placeholder='query']").fill(title)
    search.locator("button.execute").click()
    answer = search.locator(".live-responses-table .response-col_description .highlight-code")
    answer.wait_for(timeout=30_000)
    text = answer.inner_text()
    assert f'"title": "{title}"' in text, text[:500]
    SCREENSHOT.parent.mkdir(exist_ok=True)
    page.screenshot(path=str(SCREENSHOT), full_page=False)
    assert SCREENSHOT.stat().st_size > 10_000
