#!/usr/bin/env python3
"""The web board (`polydam serve`) in a real headless Chromium, driven by selenium.

Starts `polydam serve --port 0`, loads the page, and in International, Turkish, Seesaw Draughts
and hex Seesaw: makes a move by clicking the board (every cell of the move's path, as a player
does), waits for the engine's answer, takes both back, loads the FEN of the position the
engine left, and saves a screenshot of the board (with a piece selected and its destinations
shown) into the directory given. Then chooses a capture square by square in International and
hex Seesaw, where several captures share a start. Exits non-zero with a message on the first failure.

    python3 tests/browser/web_board.py --polydam target/debug/polydam --out target/web-shots
"""

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
import traceback

from selenium import webdriver
from selenium.common.exceptions import (
    NoAlertPresentException, StaleElementReferenceException, TimeoutException, WebDriverException,
)
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions as EC
from selenium.webdriver.support.ui import Select, WebDriverWait

VARIANTS = ["international", "turkish", "seesaw-draughts", "seesaw"]
TIMEOUT = 30


class Failure(Exception):
    pass


def start_server(polydam):
    proc = subprocess.Popen(
        [polydam, "serve", "--port", "0"],
        stdout=subprocess.PIPE,
        text=True,
    )
    line = proc.stdout.readline().strip()
    if not line.startswith("http://"):
        proc.kill()
        raise Failure(f"polydam serve printed {line!r}, not its URL")
    return proc, line


def start_browser(profile):
    options = webdriver.ChromeOptions()
    for flag in [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--disable-dev-shm-usage",
        f"--user-data-dir={profile}",
        "--window-size=1280,960",
        "--force-device-scale-factor=1",
    ]:
        options.add_argument(flag)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    binary = shutil.which("chromium") or shutil.which("chromium-browser")
    if binary:
        options.binary_location = binary
    driver_path = shutil.which("chromedriver")
    if not driver_path:
        raise Failure("chromedriver not found (apt-get install chromium-driver)")
    return webdriver.Chrome(service=Service(executable_path=driver_path), options=options)


def report_failure(test, error):
    """Prints why `test` failed; for a WebDriver error, also the test's lines it came through."""
    if isinstance(error, Failure):
        print(f"{test} test FAILED: {error}", file=sys.stderr)
    else:
        # The driver's own stack trace names no line of ours: the first line says what went wrong.
        print(f"{test} test FAILED: {(str(error).strip().splitlines() or [repr(error)])[0]}", file=sys.stderr)
        here = os.path.dirname(os.path.abspath(__file__))
        for frame in traceback.extract_tb(error.__traceback__):
            if os.path.abspath(frame.filename).startswith(here):
                print(f"  at {os.path.basename(frame.filename)}:{frame.lineno}: {frame.line}", file=sys.stderr)


def wait(driver, what, condition):
    try:
        return WebDriverWait(driver, TIMEOUT).until(lambda d: condition(d))
    except TimeoutException:
        status = driver.find_element(By.ID, "status").text
        error = driver.execute_script("return document.body.dataset.lastError || ''")
        raise Failure(f"timed out waiting for {what} (status: {status!r}, last error: {error!r})")


def body(driver, key):
    return driver.execute_script(f"return document.body.dataset.{key} || ''")


def click_cell(driver, label):
    # The page redraws the whole board with every state message: a cell found just before one
    # arrives is gone when clicked, so look it up again (a person's click has no such gap).
    for attempt in range(5):
        cells = driver.find_elements(By.CSS_SELECTOR, f'#board .cells [data-label="{label}"]')
        if not cells:
            raise Failure(f"no cell {label!r} on the board")
        try:
            # Click where a player would: the middle of the cell, whatever is drawn on top of it
            # (a piece, a destination mark), as the page handles clicks on either.
            shape = cells[0].find_element(By.CSS_SELECTOR, "rect, polygon")
            ActionChains(driver).move_to_element(shape).click().perform()
            return
        except StaleElementReferenceException:
            if attempt == 4:
                raise
            time.sleep(0.05)


def choose_variant(driver, variant, accept=True):
    """Chooses `variant`; answers the page's question when a game would be thrown away."""
    Select(driver.find_element(By.ID, "variant")).select_by_value(variant)
    try:
        alert = WebDriverWait(driver, 1).until(EC.alert_is_present())
    except (NoAlertPresentException, TimeoutException):
        return False
    if accept:
        alert.accept()
    else:
        alert.dismiss()
    return True


def check_variant(driver, variant, shots):
    choose_variant(driver, variant)
    wait(driver, f"the {variant} board", lambda d: body(d, "variant") == variant and body(d, "ply") == "0")
    Select(driver.find_element(By.ID, "white-player")).select_by_value("human")
    Select(driver.find_element(By.ID, "black-player")).select_by_value("engine")
    Select(driver.find_element(By.ID, "limit-kind")).select_by_value("movetime")
    limit = driver.find_element(By.ID, "limit-value")
    limit.clear()
    limit.send_keys("0.3")
    cells = driver.find_elements(By.CSS_SELECTOR, "#board .cells [data-label]")
    pieces = driver.find_elements(By.CSS_SELECTOR, "#board .pieces .piece")
    if len(cells) < 30 or len(pieces) < 2:
        raise Failure(f"{variant}: {len(cells)} cells and {len(pieces)} pieces drawn")

    # A move by clicking: the longest path among the legal moves (a step rather than a deploy),
    # every cell in turn.
    moves = driver.execute_script("return state.moves")
    move = max(moves, key=lambda m: len(m["path"]))
    for label in move["path"]:
        click_cell(driver, label)
    wait(driver, f"{move['text']} to be played", lambda d: body(d, "ply") in ("1", "2"))
    history = driver.execute_script("return state.history")
    if not history or history[0] != move["text"]:
        raise Failure(f"{variant}: clicked {move['path']}, history is {history}")
    wait(driver, "the engine's answer", lambda d: body(d, "ply") == "2")
    answered_fen = body(driver, "fen")
    answer = driver.execute_script("return state.history[1]")
    first = move["text"]

    # Take back the engine's answer and our move.
    driver.find_element(By.ID, "undo").click()
    wait(driver, "the take-back", lambda d: body(d, "ply") == "0")

    # Load the FEN the engine left: White to move, a person's turn, nothing more happens.
    fen = driver.find_element(By.ID, "fen")
    fen.clear()
    fen.send_keys(answered_fen)
    driver.find_element(By.ID, "load-fen").click()
    wait(driver, "the FEN to load", lambda d: body(d, "fen") == answered_fen)
    time.sleep(0.3)
    if body(driver, "ply") != "0" or body(driver, "searching"):
        raise Failure(f"{variant}: after loading a FEN the engine moved or searches")

    # For the picture: a move by clicking (in hex Seesaw a deploy, one click on an empty
    # cell; in International a drag) and the engine's answer, its analysis, a piece selected with its destinations.
    moves = driver.execute_script("return state.moves")
    deploys = [m for m in moves if len(m["path"]) == 1]
    move = deploys[0] if variant == "seesaw" and deploys else max(moves, key=lambda m: len(m["path"]))
    if variant == "international" and len(move["path"]) == 2:
        # A drag from the piece to its destination.
        ends = [driver.find_element(By.CSS_SELECTOR, f'#board .cells [data-label="{c}"] rect')
                for c in move["path"]]
        ActionChains(driver).click_and_hold(ends[0]).move_to_element(ends[1]).release().perform()
    else:
        for label in move["path"]:
            click_cell(driver, label)
    wait(driver, "the engine's answer", lambda d: body(d, "ply") == "2")
    driver.find_element(By.ID, "analyse").click()
    wait(driver, "analysis lines", lambda d: len(d.find_elements(By.CSS_SELECTOR, "#lines tbody tr")) >= 3)
    moves = driver.execute_script("return state.moves")
    start = max(moves, key=lambda m: len(m["path"]))["path"]
    if len(start) > 1:
        click_cell(driver, start[0])
        if not driver.find_elements(By.CSS_SELECTOR, "#board .target"):
            raise Failure(f"{variant}: no destination shown after selecting {start[0]}")
    error = body(driver, "lastError")
    if error:
        raise Failure(f"{variant}: the page showed an error: {error}")
    path = os.path.join(shots, f"{variant}.png")
    driver.save_screenshot(path)
    driver.find_element(By.ID, "analyse").click()
    wait(driver, "the analysis to stop", lambda d: body(d, "searching") == "")
    print(f"{variant}: played {first}, engine answered {answer}, took back, "
          f"loaded {answered_fen}, played {move['text']}; screenshot {path}")


# Captures chosen square by square where several share a start: a position, and the end of
# the capture to click (its whole path, one cell at a time).
CAPTURES = [
    # Two captures of four from 38 (to 20, and round to 38 itself).
    ("international", "W:W38:B33,32,22,23,24", "20"),
    # The 3-stack on d1 takes d2, then d3, then spends its last step on d4 (or stops on d3,
    # or steps to c3 or e3; or takes d3 alone).
    ("seesaw", "W:Wd1^3:Bd2,d3,d7:TWd1:TBd7", "d4"),
]


def check_capture(driver, variant, fen_text, end):
    choose_variant(driver, variant)
    wait(driver, f"the {variant} board", lambda d: body(d, "variant") == variant and body(d, "ply") == "0")
    Select(driver.find_element(By.ID, "white-player")).select_by_value("human")
    Select(driver.find_element(By.ID, "black-player")).select_by_value("human")
    before = body(driver, "fen")
    fen = driver.find_element(By.ID, "fen")
    fen.clear()
    fen.send_keys(fen_text)
    driver.find_element(By.ID, "load-fen").click()
    # The page shows the FEN as the engine writes it (squares sorted, ranges joined).
    wait(driver, "the capture position", lambda d: body(d, "fen") != before)
    moves = driver.execute_script("return state.moves")
    chosen = [m for m in moves if m["capture"] and m["path"][-1] == end]
    if len(chosen) != 1:
        raise Failure(f"{variant}: {len(chosen)} captures ending on {end} in {moves}")
    move = chosen[0]
    start = move["path"][0]
    if sum(1 for m in moves if m["path"][0] == start) < 2:
        raise Failure(f"{variant}: only one capture starts on {start}: {moves}")
    for i, label in enumerate(move["path"]):
        click_cell(driver, label)
        if i + 1 < len(move["path"]):
            time.sleep(0.05)
            if body(driver, "ply") != "0":
                raise Failure(f"{variant}: a capture was played after {i + 1} clicks of {move['path']}")
            marked = driver.find_elements(By.CSS_SELECTOR, "#board .selected")
            if len(marked) != i + 1:
                raise Failure(f"{variant}: {len(marked)} cells marked after {i + 1} clicks")
    wait(driver, f"{move['text']} to be played", lambda d: body(d, "ply") == "1")
    played = driver.execute_script("return state.history[0]")
    if played != move["text"]:
        raise Failure(f"{variant}: clicked {move['path']}, played {played}")
    print(f"{variant}: capture {played} chosen square by square ({len(move['path'])} clicks)")


def send(driver, message):
    driver.execute_script("send(arguments[0])", message)


def load_fen(driver, fen_text):
    before = body(driver, "fen")
    fen = driver.find_element(By.ID, "fen")
    fen.clear()
    fen.send_keys(fen_text)
    driver.execute_script("document.getElementById('message').hidden = true")
    driver.find_element(By.ID, "load-fen").click()
    wait(driver, f"{fen_text} to load", lambda d: body(d, "fen") != before or body(d, "ply") == "0")


def both_human(driver):
    Select(driver.find_element(By.ID, "white-player")).select_by_value("human")
    Select(driver.find_element(By.ID, "black-player")).select_by_value("human")


def check_issue_48(driver):
    """The page's defects of issue 48, each reproduced first."""
    # 1: English, Black first: the list reads `1. 11-15 23-18`.
    choose_variant(driver, "english")
    wait(driver, "the English board", lambda d: body(d, "variant") == "english")
    both_human(driver)
    send(driver, {"type": "move", "text": "11-15"})
    wait(driver, "11-15", lambda d: body(d, "ply") == "1")
    send(driver, {"type": "move", "text": "23-18"})
    wait(driver, "23-18", lambda d: body(d, "ply") == "2")
    # Read in one script call: the list is redrawn with every state message.
    first = driver.execute_script(
        "return [...document.querySelectorAll('#history li:first-child .move')].map((m) => m.textContent.trim())")
    if first != ["11-15", "23-18"]:
        raise Failure(f"1: English move 1 reads {first}, not 11-15 23-18")

    # 11: changing the variant with a game on the board asks first; no keeps the game.
    if not choose_variant(driver, "international", accept=False):
        raise Failure("11: the variant changed without asking")
    time.sleep(0.3)
    if body(driver, "variant") != "english" or body(driver, "ply") != "2":
        raise Failure("11: declining did not keep the game")
    leaving = driver.execute_script(
        "const e = new Event('beforeunload', {cancelable: true});"
        "window.dispatchEvent(e); return e.defaultPrevented;")
    if not leaving:
        raise Failure("11: leaving the page with a game on it does not ask")
    if not choose_variant(driver, "international"):
        raise Failure("11: no question before throwing the English game away")
    wait(driver, "the International board", lambda d: body(d, "variant") == "international")

    # 12: a piece that may not move because a capture is compulsory says why.
    both_human(driver)
    load_fen(driver, "W:W28,31:B23")
    click_cell(driver, "31")
    wait(driver, "the compulsory-capture message", lambda d: "compulsory" in body(d, "lastError"))

    # 3: analysis finding a decided result stays on, and analyses the next position.
    load_fen(driver, "B:W31,32,33:B1-20")
    driver.find_element(By.ID, "analyse").click()
    wait(driver, "analysis lines", lambda d: len(d.find_elements(By.CSS_SELECTOR, "#lines tbody tr")) >= 1)
    time.sleep(2.5)
    if driver.find_element(By.ID, "analyse").get_attribute("aria-pressed") != "true":
        raise Failure("3: the analysis switched itself off")
    moves = driver.execute_script("return state.moves")
    send(driver, {"type": "move", "path": moves[0]["path"]})
    wait(driver, "the move", lambda d: body(d, "ply") == "1")
    wait(driver, "analysis lines after the move",
         lambda d: len(d.find_elements(By.CSS_SELECTOR, "#lines tbody tr")) >= 1)

    # 2: each move of a line is one unbreakable piece of text.
    # Read in one script call: the lines are redrawn with every iteration of the search.
    spans = driver.execute_script(
        "return [...document.querySelectorAll('#lines td.pv .pv-move')]"
        ".map((s) => [s.textContent, getComputedStyle(s).whiteSpace])")
    if not spans:
        raise Failure("2: analysis lines have no move spans")
    for text, space in spans:
        if space != "nowrap" or " " in text:
            raise Failure(f"2: move {text!r} may break (white-space {space})")
    driver.find_element(By.ID, "analyse").click()
    wait(driver, "the analysis to stop", lambda d: body(d, "searching") == "")

    # 8: a loaded PDN keeps its tags and the engine does not play on.
    Select(driver.find_element(By.ID, "black-player")).select_by_value("engine")
    game = ('[White "Ann"]\n[Black "Bob"]\n[Result "2-0"]\n\n'
            "1. 32-28 19-23 2. 28x19 14x23 3. 37-32 2-0\n")
    driver.execute_script("document.querySelector('#position details').open = true")
    area = driver.find_element(By.ID, "pdn")
    area.clear()
    area.send_keys(game)
    # The last message may cover the button: a person waits for it to go, the test hides it.
    driver.execute_script("document.getElementById('message').hidden = true")
    driver.find_element(By.ID, "load-pdn").click()
    wait(driver, "the PDN game", lambda d: body(d, "ply") == "5")
    time.sleep(1.5)
    if body(driver, "ply") != "5" or body(driver, "searching"):
        raise Failure("8: the engine played on in a loaded game")
    pdn = driver.find_element(By.ID, "pdn").get_attribute("value")
    for tag in ('[White "Ann"]', '[Black "Bob"]', '[Result "2-0"]'):
        if tag not in pdn:
            raise Failure(f"8: {tag} lost from the loaded game's PDN:\n{pdn}")
    # The next checks start a new game: no question for it.
    send(driver, {"type": "new", "variant": "international"})
    wait(driver, "a new game", lambda d: body(d, "ply") == "0")
    print("issue 48: English numbering, nowrap lines, analysis stays on, loaded tags kept, "
          "questions before losing a game, compulsory capture explained")



def run_browser_test(name, doc, check, errors=(), downloads=False):
    """The main() of a browser test: reads --polydam and --out, starts `polydam serve` and a
    headless Chromium on a profile of its own (and a download directory, `args.downloads`, when
    `downloads`), waits for the page's first state, runs `check(driver, url, args)`, fails on
    console errors, and always tears both down. Prints the verdict (with the summary `check`
    returns) and answers the exit status. `errors` are the exceptions besides Failure and
    WebDriver's that count as the test's failure."""
    parser = argparse.ArgumentParser(description=doc.split("\n\n")[0])
    parser.add_argument("--polydam", default="target/debug/polydam")
    parser.add_argument("--out", default="target/web-shots", help="directory for screenshots")
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    server = driver = None
    profile = tempfile.mkdtemp(prefix="polydam-chromium-")
    args.downloads = tempfile.mkdtemp(prefix="polydam-downloads-") if downloads else None
    started = time.time()
    try:
        server, url = start_server(args.polydam)
        driver = start_browser(profile)
        if args.downloads:
            driver.execute_cdp_cmd("Browser.setDownloadBehavior",
                                   {"behavior": "allow", "downloadPath": args.downloads})
        driver.get(url)
        wait(driver, "the page's first state", lambda d: body(d, "ply") == "0")
        summary = check(driver, url, args)
        severe = [e for e in driver.get_log("browser") if e.get("level") == "SEVERE"]
        if severe:
            raise Failure(f"browser console errors: {severe}")
    except (Failure, WebDriverException, *errors) as e:
        report_failure(name, e)
        return 1
    finally:
        if driver:
            driver.quit()
        if server:
            server.kill()
            server.wait()
        shutil.rmtree(profile, ignore_errors=True)
        if args.downloads:
            shutil.rmtree(args.downloads, ignore_errors=True)
    print(f"{name} test passed in {time.time() - started:.1f} s" + (f" ({summary})" if summary else ""))
    return 0


def check_web_board(driver, url, args):
    groups = driver.find_elements(By.CSS_SELECTOR, "#variant optgroup")
    if len(groups) != 4:
        raise Failure(f"{len(groups)} variant groups in the chooser, expected 4 families")
    for variant in VARIANTS:
        check_variant(driver, variant, args.out)
    for variant, fen_text, end in CAPTURES:
        check_capture(driver, variant, fen_text, end)
    check_issue_48(driver)
    return f"{len(VARIANTS)} variants"


def main():
    return run_browser_test("web board", __doc__, check_web_board)


if __name__ == "__main__":
    sys.exit(main())
