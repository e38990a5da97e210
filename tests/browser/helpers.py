"""How a player moves a card on the board, shared by the browser tests."""

from playwright.sync_api import Locator, Page


def top_card(page: Page, pile: str) -> Locator:
    """The button on top of ``pile`` (a card, or the empty pile's slot)."""
    return page.locator(f'#board [data-pile="{pile}"] button').last


def click_move(page: Page, notation: str) -> None:
    """Click the moving card, then where it goes: ``t3-f`` clicks the card twice.

    The same clicks play with JavaScript off, where the first click loads a ``?select=`` page
    whose buttons then carry the moves."""
    source, target = notation.rsplit("-", 1)
    page.locator(f'#board button[name="select"][value="{source}"]').click()
    if target == "f":
        page.locator(f'#board .card.picked, #board button[value="{source}-f"]').click()
    else:
        top_card(page, target).click()
