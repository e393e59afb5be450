"""What a player sees on a page, checked in the browser itself: characters drawn as the
missing-glyph box ("tofu") and elements marked `hidden` that are displayed all the same."""

from __future__ import annotations

from playwright.sync_api import Page

# Each distinct non-ASCII character of the displayed text is drawn on a canvas in its
# element's font and compared with a code point no font has (U+0378 is unassigned): the
# same pixels mean the browser found no glyph and drew its missing-glyph box.
_TOFU = r"""
() => {
  const canvas = document.createElement("canvas");
  canvas.width = canvas.height = 64;
  const g = canvas.getContext("2d", { willReadFrequently: true });
  const draw = (font, text) => {
    g.clearRect(0, 0, 64, 64);
    g.font = font;
    g.textBaseline = "top";
    g.fillText(text, 8, 8);
    return g.getImageData(0, 0, 64, 64).data.join();
  };
  const box = new Map();
  const seen = new Set();
  const bad = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const host = n.parentElement;
    if (!host || !host.getClientRects().length) continue;  // not displayed
    const style = getComputedStyle(host);
    if (style.visibility === "hidden") continue;
    const font = `${style.fontStyle} ${style.fontWeight} 32px ${style.fontFamily}`;
    for (const ch of new Set(n.data)) {
      if (ch.codePointAt(0) < 128 || /\s/u.test(ch) || seen.has(font + ch)) continue;
      seen.add(font + ch);
      if (!box.has(font)) box.set(font, draw(font, "\u0378"));
      if (draw(font, ch) === box.get(font)) {
        const code = ch.codePointAt(0).toString(16).toUpperCase().padStart(4, "0");
        const where = host.tagName.toLowerCase() + (host.id ? `#${host.id}` : "");
        bad.push(`${ch} (U+${code}) in <${where}>`);
      }
    }
  }
  return bad;
}
"""

_SHOWN_HIDDEN = r"""
() => [...document.querySelectorAll("[hidden]")]
  .filter((n) => getComputedStyle(n).display !== "none")
  .map((n) => n.id ? `#${n.id}` : n.outerHTML.slice(0, 80))
"""


def tofu(page: Page) -> list[str]:
    """The displayed characters the browser has no glyph for, with where they are."""
    found: list[str] = page.evaluate(_TOFU)
    return found


def shown_hidden(page: Page) -> list[str]:
    """Elements marked `hidden` that are displayed anyway (a CSS display rule beat it)."""
    found: list[str] = page.evaluate(_SHOWN_HIDDEN)
    return found
