#!/usr/bin/env python3
"""Game review on the web board (`polydam serve`) in a real headless Chromium, by selenium.

Loads a 60-move International game with a variation and a comment (tests/data/
review-international.pdn) through the page's PDN box, then: checks that its tags show and the
engine does not play on; steps through it with the arrow keys, Home, End and clicks on the move
list, checking the position shown (its FEN, computed independently by loading each prefix of the
game over the WebSocket API) at several plies and in the variation; downloads it as .pdn and
compares the file with the text loaded; opens the "Copy link" link in a new tab and checks the
same position; plays one move with the keyboard only (Tab to the move box, type, Enter), after
an illegal one that must be refused with an error, and checks that the engine answers and that
the move became a variation. Saves a screenshot of review mode. Exits non-zero on the first
failure.

    python3 tests/browser/review.py --polydam target/debug/polydam --out target/web-shots
"""

import json
import os
import sys
import time

import websocket
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select

from web_board import Failure, body, run_browser_test, wait

GAME = os.path.join(os.path.dirname(__file__), "..", "data", "review-international.pdn")


def main_line(pdn):
    """The main line's moves of our test game: numbers, marks, comment and variation left out."""
    text = pdn.split("\n\n", 1)[1]
    depth = 0
    out = []
    cleaned = ""
    for c in text:
        if c in "({":
            depth += 1
        elif c in ")}":
            depth -= 1
        elif depth == 0:
            cleaned += c
    for token in cleaned.split():
        if token.endswith(".") or token.endswith("...") or token == "1-1" or token[0] == "$":
            continue
        out.append(token.rstrip("!?"))
    return out


class Oracle:
    """FENs after move sequences, from a WebSocket of its own: a game of those moves loaded as
    plain PDN (no tree, no navigation), so that it does not share the page's path."""

    def __init__(self, url):
        self.ws = websocket.create_connection(url.replace("http://", "ws://") + "ws", timeout=30)
        self.state()

    def state(self):
        while True:
            message = json.loads(self.ws.recv())
            if message["type"] == "error":
                raise Failure(f"oracle: {message['message']}")
            if message["type"] == "state":
                return message

    def fen(self, moves):
        self.ws.send(json.dumps({"type": "load", "pdn": " ".join(moves) + " *"}))
        state = self.state()
        if len(state["history"]) != len(moves):
            raise Failure(f"oracle: {len(moves)} moves loaded as {len(state['history'])}")
        return state["fen"]


def press(driver, key, times=1):
    actions = ActionChains(driver)
    for _ in range(times):
        actions.send_keys(key)
    actions.perform()


def shown(driver, ply, fen, what):
    wait(driver, f"{what}: ply {ply}", lambda d: body(d, "ply") == str(ply) and body(d, "fen") == fen)


def main_node(driver, ply):
    """The id of the main line's node at `ply`."""
    return driver.execute_script(
        "let at = 0; for (let i = 0; i < arguments[0]; i++) at = state.nodes[at].children[0];"
        "return at;", ply)


def click_node(driver, node):
    span = driver.find_element(By.CSS_SELECTOR, f'#history .move[data-node="{node}"]')
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", span)
    span.click()


def check_review(driver, url, out, downloads):
    with open(GAME, encoding="utf-8") as f:
        game = f.read()
    moves = main_line(game)
    if len(moves) != 120:
        raise Failure(f"the test game has {len(moves)} plies, not 120")
    oracle = Oracle(url)
    variation = moves[:28] + ["26-21"]
    fens = {k: oracle.fen(moves[:k]) for k in (7, 10, 40, 120)}
    fens["variation"] = oracle.fen(variation)
    fens[0] = oracle.fen([])

    # Load the game as a person does: the PDN box, Load PDN. The engine may not play on.
    Select(driver.find_element(By.ID, "black-player")).select_by_value("engine")
    driver.execute_script("document.querySelector('#position details').open = true;"
                          "document.getElementById('pdn').value = arguments[0];", game)
    driver.execute_script("document.getElementById('message').hidden = true")
    driver.find_element(By.ID, "load-pdn").click()
    shown(driver, 120, fens[120], "the loaded game")
    time.sleep(1.0)
    if body(driver, "ply") != "120" or body(driver, "searching"):
        raise Failure("the engine played on in a loaded game")
    title = driver.find_element(By.ID, "review-tags").text
    for part in ("Jansen", "De Vries", "Polydam review test", "1-1"):
        if part not in title:
            raise Failure(f"the game's tags do not show {part!r}: {title!r}")
    listing = driver.find_element(By.ID, "history").text
    if "(15. 26-21 16x27 16. 32x21 17x26)" not in " ".join(listing.split()):
        raise Failure(f"the variation is not shown in brackets:\n{listing}")
    comments = [c.text for c in driver.find_elements(By.CSS_SELECTOR, "#history .comment")]
    if comments != ["Black takes the centre"]:
        raise Failure(f"comments shown: {comments}")
    marks = driver.execute_script(
        "return [...document.querySelectorAll('#history .mark')].map((m) =>"
        " [m.parentElement.firstChild.textContent, m.textContent.trim(), m.title]);")
    if marks != [["40x29x20", "!", "good move"], ["40-34", "+=", "White is slightly better"],
                 ["26x37", "?!", "dubious move"]]:
        raise Failure(f"annotation marks shown: {marks}")

    # Keys: Home, right, left, End; clicks on the list.
    driver.execute_script("document.activeElement.blur()")
    press(driver, Keys.HOME)
    shown(driver, 0, fens[0], "Home")
    press(driver, Keys.ARROW_RIGHT, 10)
    shown(driver, 10, fens[10], "ten right arrows")
    press(driver, Keys.ARROW_LEFT, 3)
    shown(driver, 7, fens[7], "three left arrows")
    click_node(driver, main_node(driver, 40))
    shown(driver, 40, fens[40], "a click on move 20")
    press(driver, Keys.END)
    shown(driver, 120, fens[120], "End")
    first = driver.execute_script("return state.nodes[arguments[0]].children[1]", main_node(driver, 28))
    click_node(driver, first)
    shown(driver, 29, fens["variation"], "a click on the variation's first move")
    if "variation" not in driver.find_element(By.ID, "review-where").text:
        raise Failure("the page does not say that a variation is shown")
    press(driver, Keys.ARROW_RIGHT, 3)
    wait(driver, "the variation's end", lambda d: body(d, "ply") == "32")
    press(driver, Keys.ARROW_LEFT, 3)
    shown(driver, 29, fens["variation"], "back to the variation's first move")
    driver.execute_script("document.getElementById('message').hidden = true; window.scrollTo(0, 0);"
                          "const c = document.querySelector('#history .comment');"
                          "const l = document.getElementById('history'); l.scrollTop = c.offsetTop - l.offsetTop - 8;")
    driver.save_screenshot(os.path.join(out, "review.png"))
    print("review: loaded 60 moves, tags shown, stepped by keys and clicks, variation shown")

    # Download: the file holds the text loaded, moves, variation, comment and tags alike.
    driver.find_element(By.ID, "download-pdn").click()
    deadline = time.time() + 30
    files = []
    while time.time() < deadline:
        files = [f for f in os.listdir(downloads) if f.endswith(".pdn")]
        if files:
            break
        time.sleep(0.2)
    if files != ["Jansen-De_Vries-2026.12.03.pdn"]:
        raise Failure(f"downloads: {files}")
    with open(os.path.join(downloads, files[0]), encoding="utf-8") as f:
        saved = f.read()
    for part in ('[White "Jansen"]', '[Result "1-1"]', '[Annotator "review.py"]',
                 "{Black takes the centre}", "(15. 26-21 16x27 16. 32x21 17x26)", "60. 42x31",
                 "7. 40x29x20!", "40-34 $14", "26x37?!"):
        if part not in saved:
            raise Failure(f"the downloaded game lacks {part!r}:\n{saved}")
    if saved != game:
        raise Failure(f"the downloaded game differs from the one loaded:\n{saved}")
    print(f"review: downloaded {files[0]}, identical to the game loaded ({len(saved)} bytes)")

    # A link to move 20 of the main line, opened in a new tab: the whole game comes with it.
    click_node(driver, main_node(driver, 40))
    shown(driver, 40, fens[40], "move 20 again")
    whole = driver.execute_script("return [state.pdn, state.nodes.length]")
    driver.find_element(By.ID, "copy-link").click()
    link = driver.find_element(By.ID, "review-link").get_attribute("value")
    if "#" not in link or "variant=international" not in link:
        raise Failure(f"the link is {link!r}")
    first_tab = driver.current_window_handle
    driver.switch_to.new_window("tab")
    driver.get(link)
    shown(driver, 40, fens[40], "the link in a new tab")
    reopened = driver.execute_script("return [state.pdn, state.nodes.length]")
    if reopened != whole or whole[1] != 125:
        raise Failure(f"the link did not bring the whole game ({reopened[1]} of {whole[1]} nodes):"
                      f"\n{reopened[0]}")
    # A link as earlier pages wrote them (one line's moves and the ply shown) still opens.
    driver.switch_to.new_window("tab")
    driver.get(url + "#variant=international&moves=32-28%2018-22%2037-32&ply=2")
    wait(driver, "an earlier link's ply", lambda d: body(d, "ply") == "2")
    if driver.execute_script("return state.nodes.length") != 4:
        raise Failure("an earlier link did not bring its three moves")
    # The tabs stay open: closing a page with a game on it asks first.
    driver.switch_to.window(first_tab)
    print(f"review: the link ({len(link)} characters) reopens the whole game at move 20")

    # Keyboard only: Tab to the move box, an illegal move refused, a legal one answered.
    # From the first White move of the game from move 21 on that has another legal move.
    ply = 40
    driver.execute_script("document.activeElement.blur()")
    while not [m for m in driver.execute_script("return state.moves.map((m) => m.text)")
               if m != moves[ply]]:
        press(driver, Keys.ARROW_RIGHT, 2)
        ply += 2
        wait(driver, f"ply {ply}", lambda d: body(d, "ply") == str(ply))
    Select(driver.find_element(By.ID, "white-player")).select_by_value("human")
    Select(driver.find_element(By.ID, "black-player")).select_by_value("engine")
    driver.execute_script("document.activeElement.blur()")
    for _ in range(40):
        press(driver, Keys.TAB)
        if driver.execute_script("return document.activeElement.id") == "move-input":
            break
    else:
        raise Failure("40 Tabs never reached the move box")
    outline = driver.execute_script(
        "const s = getComputedStyle(document.activeElement); return [s.outlineStyle, s.outlineWidth]")
    if outline[0] == "none" or outline[1] in ("0px", ""):
        raise Failure(f"the focused move box has no visible outline: {outline}")
    press(driver, "32-29" + Keys.ENTER)
    wait(driver, "the illegal move's error", lambda d: body(d, "moveError") != "")
    error = driver.find_element(By.ID, "move-error").text
    if "32-29" not in error or body(driver, "ply") != str(ply):
        raise Failure(f"the illegal move: error {error!r}, ply {body(driver, 'ply')}")
    legal = driver.execute_script("return state.moves.map((m) => m.text)")
    typed = next(m for m in legal if m != moves[ply])
    field = driver.switch_to.active_element
    if field.get_attribute("id") != "move-input":
        raise Failure("the move box lost the focus")
    ActionChains(driver).key_down(Keys.CONTROL).send_keys("a").key_up(Keys.CONTROL).perform()
    press(driver, typed + Keys.ENTER)
    wait(driver, "the engine's answer to the typed move", lambda d: body(d, "ply") == str(ply + 2))
    history = driver.execute_script("return state.history")
    if history[:ply] != moves[:ply] or history[ply] != typed:
        raise Failure(f"typed {typed}, the game reads {history[ply - 2:]}")
    # Read in one script call: the list is redrawn with every state message.
    variations = driver.execute_script(
        "return [...document.querySelectorAll('#history .variation')].map((v) => v.textContent)")
    if not any(typed in v for v in variations):
        raise Failure(f"the typed move {typed} is not shown as a variation")
    pdn = driver.execute_script("return state.pdn")
    if f"({ply // 2 + 1}. {typed} " not in pdn or "60. 42x31" not in pdn:
        raise Failure(f"the PDN lacks the new variation or the main line:\n{pdn}")
    print(f"review: keyboard only, {error!r} refused, {typed} played, "
          f"the engine answered {history[ply + 1]}, a new variation at ply {ply}")

    # Numbers on the board's edges and labels for screen readers.
    labels = driver.execute_script(
        "return [...document.querySelectorAll('#board .cells [aria-label]')].map((g) => g.getAttribute('aria-label'))")
    pieces = driver.execute_script("return state.cells.filter((c) => c.piece).length")
    kinds = ("white man", "black man", "white king", "black king")
    named = [l for l in labels if l.split(": ", 1)[-1] in kinds]
    if len(labels) != 50 or len(named) != pieces or not all(
            l.split(": ")[0].isdigit() and l.split(": ", 1)[1] in kinds + ("empty",) for l in labels):
        raise Failure(f"square labels: {labels[:6]} ... ({len(labels)}, {pieces} pieces)")
    edges = [t.text for t in driver.find_elements(By.CSS_SELECTOR, "#board .edge-numbers text")]
    if edges[:2] != ["1", "5"] or len(edges) != 20:
        raise Failure(f"edge numbers: {edges}")
    print(f"review: 50 squares labelled for screen readers ({labels[0]!r}, ...), "
          f"edge numbers {edges[0]}, {edges[1]}, ... {edges[-2]}, {edges[-1]}")



def main():
    return run_browser_test(
        "review", __doc__,
        lambda driver, url, args: check_review(driver, url, args.out, args.downloads),
        errors=(OSError, websocket.WebSocketException), downloads=True)


if __name__ == "__main__":
    sys.exit(main())
