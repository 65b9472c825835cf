"""Headless Chromium for the page checks (sweep_page_check.py, html_report_check.py): run it on a page,
inject a script that measures what the browser laid out, read the result back from the dumped DOM, find
external URLs, and judge a screenshot. Imported, not run.
"""
import html
import json
import os
import re
import shutil
import subprocess
import tempfile
from html.parser import HTMLParser

SKIP = 77  # CTest's skip code, for a machine without Chromium


def chromium_binary():
    return next((p for p in map(shutil.which, ("chromium", "chromium-browser")) if p), None)


def chromium(binary, args, page, timeout=120):
    """Runs headless Chromium on file://PAGE; returns (stdout, problem or None)."""
    with tempfile.TemporaryDirectory(prefix="ohprof-chromium-") as profile:
        cmd = [binary, "--headless=new", "--no-sandbox", "--disable-gpu", f"--user-data-dir={profile}",
               "--no-first-run", *args, "file://" + os.path.abspath(page)]
        try:
            p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
        except subprocess.TimeoutExpired:
            return "", f"chromium did not finish within {timeout} s"
    if p.returncode != 0:
        return p.stdout, f"chromium exited with {p.returncode}: {p.stderr.strip().splitlines()[-1:]}"
    return p.stdout, None


class Page(HTMLParser):
    """The text a reader sees (no script or style) and every URL-valued attribute."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.text, self.urls, self._skip = [], [], 0

    def handle_starttag(self, tag, attrs):
        if tag in ("script", "style"):
            self._skip += 1
        for name, value in attrs:
            if value and (name in ("src", "srcset", "action", "poster", "data") or name.endswith("href")):
                self.urls.append((tag, name, value))

    def handle_endtag(self, tag):
        if tag in ("script", "style") and self._skip:
            self._skip -= 1

    def handle_data(self, data):
        if not self._skip:
            self.text.append(data)


def parse(markup):
    """(the visible text, whitespace collapsed; every URL-valued attribute as (tag, name, value))."""
    p = Page()
    p.feed(markup)
    p.close()
    return " ".join(" ".join(p.text).split()), p.urls


def instrumented(page, script):
    """A copy of PAGE with SCRIPT (which writes JSON into <pre id="ohprof-render-check">) before </body>."""
    with open(page, encoding="utf-8") as f:
        markup = f.read()
    copy = page + ".check.html"
    with open(copy, "w", encoding="utf-8") as f:
        f.write(markup.replace("</body>", '<pre id="ohprof-render-check" hidden></pre>' + script + "</body>", 1))
    return copy


def render_check(dom):
    """What the injected script wrote, parsed; None when it did not run."""
    m = re.search(r'<pre id="ohprof-render-check"[^>]*>(.*?)</pre>', dom, re.S)
    if not m or not m.group(1).strip():
        return None
    try:
        return json.loads(html.unescape(m.group(1)))
    except ValueError:
        return None


def lay_out(binary, page, script):
    """(what SCRIPT measured in Chromium's layout of PAGE or None, the dumped DOM, problem or None)."""
    dom, problem = chromium(binary, ["--virtual-time-budget=5000", "--dump-dom"], instrumented(page, script))
    return (None if problem else render_check(dom)), dom, problem


def external_urls(raw, dom):
    """One line per URL of the page (as written, or in the DOM) that would be fetched from elsewhere."""
    fails = []
    for tag, attr, value in parse(raw)[1] + parse(dom)[1]:
        if re.match(r"\s*(https?:)?//", value, re.I):
            fails.append(f"<{tag} {attr}={value!r}>: an external URL (the page must not fetch anything)")
    for m in re.finditer(r"(url\(\s*['\"]?|@import\s+['\"])(https?:)?//[^)'\"\s]*", raw, re.I):
        fails.append(f"{m.group(0)!r}: an external URL in a style")
    return fails


def static_page_fails(page, dom, doc):
    """One line per way the page at `page` is not static: an external URL, or a <script> (`doc` names the
    page where the rule is written, "docs/reports.md, \"HTML\"")."""
    with open(page, encoding="utf-8") as f:
        raw = f.read()
    fails = external_urls(raw, dom)
    if re.search(r"<script\b", raw, re.I):
        fails.append(f"the page has a <script>: it is static ({doc})")
    return fails


def check_screenshot(png, min_colored=2000):
    """Failures of a screenshot that is nearly blank or has too few coloured pixels; None without Pillow."""
    try:
        from PIL import Image
    except ImportError:
        return None
    with Image.open(png) as im:
        data = im.convert("RGB").tobytes()
    pixels = list(zip(data[0::3], data[1::3], data[2::3]))
    dark = sum(1 for px in pixels if min(px) < 235)
    colored = sum(1 for px in pixels if max(px) - min(px) > 80)
    fails = []
    if dark < 0.01 * len(pixels):
        fails.append(f"{png}: nearly blank ({dark} of {len(pixels)} pixels not white)")
    if colored < min_colored:
        fails.append(f"{png}: only {colored} coloured pixels (the pictures are not visible)")
    print(f"{png}: {dark} non-white pixels, {colored} coloured, of {len(pixels)}")
    return fails


def check_laid_out_page(browser, page, script, check, outdir, tag, screenshot, window="1200,2400", who="check"):
    """Failures of PAGE: CHECK(measured, dom) on what SCRIPT measured in Chromium's layout of it, and with
    SCREENSHOT a picture of it in OUTDIR/TAG.png that must not be blank (not checked without Pillow)."""
    measured, dom, problem = lay_out(browser, page, script)
    fails = [problem] if problem else check(measured, dom)
    if screenshot and not problem:
        png = os.path.join(outdir, tag + ".png")
        _, shot_problem = chromium(browser, [f"--screenshot={png}", f"--window-size={window}"], page)
        shot = [shot_problem] if shot_problem else check_screenshot(png, min_colored=500)
        if shot is None:
            print(f"{who}: Pillow is not installed: screenshot not checked")
        else:
            fails += shot
    return fails


def check_mutants(good, mutants, outdir, check_file):
    """The self-tests' loop: writes each broken copy of the page GOOD (MUTANTS: what was broken -> markup)
    into OUTDIR and runs CHECK_FILE(path) -> failures on it; True when every copy changed the page and
    was caught."""
    ok = True
    for n, (what, markup) in enumerate(mutants.items()):
        if markup == good:
            print(f"self-test: mutation {what!r} did not change the page")
            ok = False
            continue
        path = os.path.join(outdir, f"self-test-{n}.html")
        with open(path, "w", encoding="utf-8") as f:
            f.write(markup)
        fails = check_file(path)
        print(f"self-test: {what}: {'caught' if fails else 'NOT caught'}" + (f" ({fails[0]})" if fails else ""))
        ok = ok and bool(fails)
    return ok
