#!/usr/bin/env python3
"""The variant picker and the rules pages of `polydam serve` in a real headless Chromium.

Starts `polydam serve --port 0`, loads the page and checks that the picker lists every variant
`polydam variants` prints, grouped; finds Dameo by typing "dam" and switches the board to it
with Enter; moves through the matches with the arrow keys; finds games by alias and other
names; opens the rules page of International, English and Dameo from the board's Rules link
and checks its sections; saves screenshots of the picker and of a rules page into the
directory given. Exits non-zero with a message on the first failure.

    python3 tests/browser/picker.py --polydam target/debug/polydam --out target/web-shots
"""

import os
import subprocess
import sys
import time

from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select

from web_board import Failure, body, run_browser_test, wait

SECTIONS = ["board", "men", "kings", "captures", "promotion", "end", "choices", "sources"]
RULES = [("international", "International draughts"), ("english", "English draughts"),
         ("dameo", "Dameo")]


def engine_variants(polydam):
    out = subprocess.run([polydam, "variants"], capture_output=True, text=True, check=True).stdout
    return [line.split()[0] for line in out.splitlines() if line.strip()]


def options(driver):
    return [o.get_attribute("data-name") for o in driver.find_elements(By.CSS_SELECTOR, "#picker-list [role=option]")]


def highlighted(driver):
    chosen = driver.find_elements(By.CSS_SELECTOR, '#picker-list [role=option][aria-selected="true"]')
    return chosen[0].get_attribute("data-name") if len(chosen) == 1 else None


def open_picker(driver):
    panel = driver.find_element(By.ID, "picker-panel")
    if not panel.is_displayed():
        driver.find_element(By.ID, "picker-button").click()
    wait(driver, "the picker to open", lambda d: d.find_element(By.ID, "picker-panel").is_displayed())
    search = driver.find_element(By.ID, "picker-search")
    if driver.switch_to.active_element != search:
        raise Failure("the search box has no focus when the picker opens")
    return search


def type_query(driver, text):
    search = open_picker(driver)
    search.send_keys(text)
    return search


def pick(driver, query, name):
    """Types `query`, checks that `name` is the first match, and chooses it with Enter."""
    search = type_query(driver, query)
    found = options(driver)
    if not found or found[0] != name:
        raise Failure(f"typing {query!r} lists {found[:5]}, not {name} first")
    if highlighted(driver) != name:
        raise Failure(f"typing {query!r} highlights {highlighted(driver)}, not {name}")
    search.send_keys(Keys.ENTER)
    wait(driver, f"the {name} board", lambda d: body(d, "variant") == name and body(d, "ply") == "0")


def check_picker(driver, polydam, shots):
    wait(driver, "the picker's games", lambda d: body(d, "pickerGames") != "")
    listed = engine_variants(polydam)
    if len(listed) != 55:
        raise Failure(f"polydam variants lists {len(listed)} games, the issue counts 55")

    # Every game, grouped; the board's game highlighted.
    open_picker(driver)
    shown = options(driver)
    if sorted(shown) != sorted(listed):
        missing = sorted(set(listed) - set(shown))
        extra = sorted(set(shown) - set(listed))
        raise Failure(f"the picker lists {len(shown)} games; missing {missing}, extra {extra}")
    groups = [g.text for g in driver.find_elements(By.CSS_SELECTOR, "#picker-list .picker-group")]
    if len(groups) < 6:
        raise Failure(f"the picker shows {len(groups)} groups: {groups}")
    if highlighted(driver) != "international":
        raise Failure(f"the open picker highlights {highlighted(driver)}, not the board's game")
    driver.find_element(By.ID, "picker-search").send_keys(Keys.ESCAPE)
    wait(driver, "Escape to close the picker", lambda d: not d.find_element(By.ID, "picker-panel").is_displayed())

    # "dam" finds Dameo first; the screenshot shows the search; Enter plays it.
    type_query(driver, "dam")
    time.sleep(0.2)
    driver.save_screenshot(os.path.join(shots, "picker.png"))
    driver.find_element(By.ID, "picker-search").send_keys(Keys.ESCAPE)
    pick(driver, "dam", "dameo")
    title = driver.find_element(By.ID, "picker-button").text
    if "Dameo" not in title:
        raise Failure(f"the picker's button reads {title!r} on the Dameo board")
    cells = driver.find_elements(By.CSS_SELECTOR, "#board .cells [data-label]")
    if len(cells) != 64:
        raise Failure(f"the Dameo board has {len(cells)} playing cells, not 64")
    if body(driver, "fen") != "W:Wa1-h1,b2-g2,c3-f3:Bc6-f6,b7-g7,a8-h8":
        raise Failure(f"the Dameo board shows {body(driver, 'fen')}")

    # Arrows: "greek" lists Greek and its six variants in order; two steps down is Greek III.
    search = type_query(driver, "greek")
    found = options(driver)
    if found[:7] != ["greek"] + [f"greek-{n}" for n in range(2, 8)]:
        raise Failure(f"typing 'greek' lists {found}")
    search.send_keys(Keys.ARROW_DOWN, Keys.ARROW_DOWN, Keys.ARROW_DOWN, Keys.ARROW_UP)
    if highlighted(driver) != "greek-3":
        raise Failure(f"down, down, down, up from Greek highlights {highlighted(driver)}")
    search.send_keys(Keys.ENTER)
    wait(driver, "the greek-3 board", lambda d: body(d, "variant") == "greek-3")
    if "Greek draughts (variant 3)" not in driver.find_element(By.ID, "picker-button").text:
        raise Failure("the button does not name Greek draughts (variant 3)")

    # Aliases and other names; a query matching nothing says so.
    for query, name in [("checkers", "english"), ("shashki", "russian"), ("mak-hot", "thai"),
                        ("FRYSK!", "frysk"), ("hex side 5", "seesaw-5"), ("zapala", "constitutional")]:
        pick(driver, query, name)
    type_query(driver, "qqqq")
    if options(driver) or "No game" not in driver.find_element(By.ID, "picker-list").text:
        raise Failure("a query matching nothing does not say so")
    driver.find_element(By.ID, "picker-search").send_keys(Keys.ESCAPE)
    print(f"picker: {len(listed)} games listed in {len(groups)} groups, 'dam' -> dameo, "
          "arrows, aliases")


def check_rules(driver, shots):
    board = driver.current_window_handle
    for name, title in RULES:
        pick(driver, name, name)
        link = driver.find_element(By.ID, "rules-link")
        if not link.get_attribute("href").endswith(f"/rules/{name}"):
            raise Failure(f"the Rules link of {name} is {link.get_attribute('href')}")
        before = set(driver.window_handles)
        link.click()
        wait(driver, f"the rules of {name} to open", lambda d: len(set(d.window_handles) - before) == 1)
        driver.switch_to.window((set(driver.window_handles) - before).pop())
        wait(driver, f"the rules page of {name}",
             lambda d: d.find_elements(By.TAG_NAME, "h1") and d.find_element(By.TAG_NAME, "h1").text == title)
        if driver.execute_script("return document.body.dataset.variant") != name:
            raise Failure(f"the rules page opened from {name} is another game's")
        for section in SECTIONS:
            items = driver.find_elements(By.CSS_SELECTOR, f"section#{section} li")
            if not items or not all(i.text.strip() for i in items):
                raise Failure(f"{name}: the rules page's section {section} is empty")
        if name == "dameo":
            driver.save_screenshot(os.path.join(shots, "rules.png"))
        driver.close()
        driver.switch_to.window(board)
    print(f"rules: {', '.join(n for n, _ in RULES)} open from the board with {len(SECTIONS)} sections each")



def check_page(driver, url, args):
    # People on both sides: no engine move starts a game (English: Black, the engine by
    # default, moves first), so that changing the game asks nothing.
    for side in ("white-player", "black-player"):
        Select(driver.find_element(By.ID, side)).select_by_value("human")
    check_picker(driver, args.polydam, args.out)
    check_rules(driver, args.out)
    error = body(driver, "lastError")
    if error:
        raise Failure(f"the page showed an error: {error}")


def main():
    return run_browser_test("picker", __doc__, check_page, errors=(subprocess.CalledProcessError,))


if __name__ == "__main__":
    sys.exit(main())
