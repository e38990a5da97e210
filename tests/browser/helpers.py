"""How a player moves a card on the board, shared by the browser tests."""

from playwright.sync_api import FloatRect, Locator, Page, Position, expect

from games.rules import Move


def top_card(page: Page, pile: str) -> Locator:
    """The button on top of ``pile`` (a card, or the empty pile's slot)."""
    return page.locator(f'#board [data-pile="{pile}"] button').last


def run_card(page: Page, pile: str, count: int) -> Locator:
    """The card ``count`` from the top of ``pile`` (1: the top card): a run's lowest card."""
    return page.locator(f'#board [data-pile="{pile}"] button').nth(-count)


def strip(card: Locator) -> Position:
    """Where to press a card that others may cover (either side: the left wing fans
    leftwards): the first point from its middle outwards that no later card of its pile
    covers and where a press lands on it, still 4 px to every side (a press lands on whole
    pixels, inside the border). A covered card lets a press through to its pile
    (static/css/castle.css), so there the press lands on the pile."""
    card.scroll_into_view_if_needed()
    found = card.evaluate(
        """el => {
          const r = el.getBoundingClientRect(), out = [.5, .4, .6, .3, .7, .2, .8, .1, .9];
          const over = [];
          for (let s = el.nextElementSibling; s; s = s.nextElementSibling) {
            over.push(s.getBoundingClientRect());
          }
          const lands = (x, y) => {
            if (over.some(o => x >= o.left && x <= o.right && y >= o.top && y <= o.bottom)) {
              return false;
            }
            const hit = document.elementFromPoint(x, y);
            return el.contains(hit) || (el.disabled && hit === el.parentElement);
          };
          for (const fy of out) for (const fx of out) {
            const x = r.left + r.width * fx, y = r.top + r.height * fy;
            const near = [[0, 0], [-4, 0], [4, 0], [0, -4], [0, 4]];
            if (near.every(([dx, dy]) => lands(x + dx, y + dy)))
              return [r.width * fx, r.height * fy];
          }
          return null;
        }"""
    )
    assert found, "no part of the card shows"
    return {"x": found[0], "y": found[1]}


def click_move(page: Page, notation: str) -> None:
    """Click the moving card, then where it goes: ``t3-f`` clicks the card twice; a run
    (``t2-t8x3``) is picked by its lowest card.

    The same clicks play with JavaScript off, where the first click loads a ``?select=`` page
    whose buttons then carry the moves."""
    move = Move.from_notation(notation)
    if move.count > 1:
        card = run_card(page, move.source, move.count)
        card.click(position=strip(card))
        top_card(page, move.target).click()
        return
    source, target = notation.rsplit("-", 1)
    page.locator(f'#board button[name="select"][value="{source}"]').click()
    if target == "f":
        page.locator(f'#board .card.picked, #board button[value="{source}-f"]').click()
    else:
        top_card(page, target).click()


MARKUP = """(root) => {
    const walk = (node) => {
        if (node.nodeType === Node.TEXT_NODE) return node.textContent.trim();
        if (node.nodeType !== Node.ELEMENT_NODE) return "";
        const names = [...node.attributes].map((a) => `${a.name}="${a.value}"`).sort();
        const tag = node.tagName.toLowerCase();
        return `<${tag} ${names.join(" ")}>${[...node.childNodes].map(walk).join("")}</${tag}>`;
    };
    return walk(root);
}"""
"""An element's markup with each tag's attributes in order and no white space between tags:
a swap strips that space, and the board script, disabling again a button it enabled, puts
``disabled`` after the attributes the server wrote first."""


def board_piles(page: Page) -> str:
    """The piles of a wings board as markup (:data:`MARKUP`), once every moving card has
    landed: equal for a board that answers changed and the same board drawn afresh."""
    expect(page.locator("#board .arriving")).to_have_count(0)
    return page.locator("#board .wings").evaluate(MARKUP)


def overlap(a: FloatRect | None, b: FloatRect | None) -> bool:
    assert a is not None and b is not None
    return (
        a["x"] < b["x"] + b["width"] - 1
        and b["x"] < a["x"] + a["width"] - 1
        and a["y"] < b["y"] + b["height"] - 1
        and b["y"] < a["y"] + a["height"] - 1
    )


def slow_network(page: Page, latency: int) -> None:
    """Chromium's own network emulation: every request waits ``latency`` ms each way."""
    if latency:
        cdp = page.context.new_cdp_session(page)
        cdp.send("Network.enable")
        cdp.send(
            "Network.emulateNetworkConditions",
            {
                "offline": False,
                "latency": latency,
                "downloadThroughput": -1,
                "uploadThroughput": -1,
            },
        )
