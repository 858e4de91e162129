#!/usr/bin/env python3
"""Analysis and play on the web board (`polydam serve`) in headless Chromium, driven by selenium.

Checks, on International: the analysis shows at least 3 lines at once (multi-PV), each starting
with another move, scores from White's point of view in men, the evaluation bar and the best
move's arrow (and saves a screenshot, analysis.png, into the directory given); a tiny clock
flags the side that runs out; the engine plays on its clock; a level-1 engine loses a short
game it cannot save; the board turns when the person plays Black; a draw offer at move 1 is
declined and a resignation ends the game. Exits non-zero with a message on the first failure.

    python3 tests/browser/analysis.py --polydam target/debug/polydam --out target/web-shots
"""

import os
import re
import sys
import time

from selenium.common.exceptions import NoAlertPresentException, TimeoutException
from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions as EC
from selenium.webdriver.support.ui import Select, WebDriverWait

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from web_board import (  # noqa: E402  (the shared helpers of the first browser test)
    Failure, body, both_human, click_cell, load_fen, run_browser_test, wait,
)


def set_value(driver, element_id, value):
    """Sets an input or select as a person would, with its change event."""
    driver.execute_script(
        "const e = document.getElementById(arguments[0]); e.value = arguments[1];"
        "e.dispatchEvent(new Event('change'));",
        element_id, str(value))


def accept_alert(driver):
    try:
        WebDriverWait(driver, 2).until(EC.alert_is_present()).accept()
    except (NoAlertPresentException, TimeoutException):
        pass


def states(driver):
    return driver.execute_script("return window.stateCount || 0")


def new_game(driver):
    before = states(driver)
    driver.find_element(By.ID, "new").click()
    wait(driver, "a new game", lambda d: states(d) > before and body(d, "ply") == "0")


def check_multipv(driver, out):
    both_human(driver)
    set_value(driver, "clock-minutes", 0)
    load_fen(driver, "W:W31,32,33,34,35,36,37,38,39,40,41,42,43,44,45:B6,7,8,9,10,11,12,13,14,15,16,17,18,19,20")
    set_value(driver, "multipv", 3)
    driver.find_element(By.ID, "analyse").click()

    def lines_ready(d):
        rows = d.find_elements(By.CSS_SELECTOR, "#lines tbody tr")
        return len(rows) >= 3 and d.find_elements(By.CSS_SELECTOR, "#board g.best-arrow")

    wait(driver, "3 analysis lines and the arrow", lines_ready)
    time.sleep(1.5)  # a few iterations more, for the screenshot
    # Read at once: the lines change with every iteration.
    firsts, scores, arrow_move = driver.execute_script(
        "const rows = [...document.querySelectorAll('#lines tbody tr')];"
        "const arrow = document.querySelector('#board g.best-arrow');"
        "return [rows.map((r) => r.querySelector('td.pv .pv-move').textContent),"
        "        rows.map((r) => r.querySelector('td.score').textContent),"
        "        arrow ? arrow.dataset.move : null];")
    if len(set(firsts)) != len(firsts):
        raise Failure(f"the lines should start with distinct moves: {firsts}")
    for s in scores:
        if not (re.fullmatch(r"[+-]\d+\.\d\d men", s) or re.fullmatch(r"(White|Black) wins in \d+ pl(y|ies)", s)):
            raise Failure(f"a score should be signed men from White's view, not {s!r}")
    bar = driver.find_element(By.ID, "eval-bar")
    if not bar.is_displayed() or not bar.text.strip():
        raise Failure("the evaluation bar is not shown")
    if arrow_move != firsts[0]:
        raise Failure(f"the arrow shows {arrow_move!r}, the best line starts {firsts[0]!r}")
    # Threads and hash are the page's choice: a search with them runs.
    set_value(driver, "hash", 64)
    wait(driver, "lines after the hash change",
         lambda d: len(d.find_elements(By.CSS_SELECTOR, "#lines tbody tr")) >= 3)
    time.sleep(1.0)
    driver.save_screenshot(os.path.join(out, "analysis.png"))
    driver.find_element(By.ID, "analyse").click()
    return firsts, scores


def check_clock_flags(driver):
    both_human(driver)
    set_value(driver, "clock-minutes", 0.02)  # 1.2 s a side
    set_value(driver, "clock-inc", 0)
    new_game(driver)
    accept_alert(driver)
    wait(driver, "White's clock to run out", lambda d: body(d, "result") == "black wins")
    status = driver.find_element(By.ID, "status").text
    if "time ran out" not in status:
        raise Failure(f"the status should say the time ran out: {status!r}")
    shown = driver.find_element(By.ID, "clock-white").text
    if not shown.endswith("0:00.0"):
        raise Failure(f"White's clock should show 0:00.0, not {shown!r}")
    # A move is refused once the game is decided.
    if driver.execute_script("return humanToMove()"):
        raise Failure("a person may still move after the flag fell")
    # The server keeps the result for the game's PDN.
    wait(driver, "the flag fall in the PDN",
         lambda d: '[Result "0-2"]' in (d.execute_script("return state.pdn") or ""))
    pdn = driver.execute_script("return state.pdn")
    if "[Termination \"White's time ran out\"]" not in pdn:
        raise Failure(f"the PDN does not say why the game ended:\n{pdn}")


def check_engine_clock(driver):
    Select(driver.find_element(By.ID, "white-player")).select_by_value("human")
    Select(driver.find_element(By.ID, "black-player")).select_by_value("engine")
    set_value(driver, "level", 0)
    set_value(driver, "clock-minutes", 0.25)  # 15 s a side
    set_value(driver, "clock-inc", 1)
    new_game(driver)
    accept_alert(driver)
    click_cell(driver, "32")
    click_cell(driver, "28")
    wait(driver, "the engine's answer on its clock", lambda d: body(d, "ply") == "2")
    left = int(driver.find_element(By.ID, "clock-black").get_attribute("data-ms"))
    if not 0 < left <= 16000:
        raise Failure(f"Black's clock after its move: {left} ms")
    if body(driver, "result"):
        raise Failure(f"no side should have lost yet: {body(driver, 'result')}")
    set_value(driver, "clock-minutes", 0)


def check_level_one_loses(driver):
    """Black, the level-1 engine, to move with one man that every move hangs."""
    Select(driver.find_element(By.ID, "white-player")).select_by_value("human")
    set_value(driver, "level", 1)
    Select(driver.find_element(By.ID, "black-player")).select_by_value("engine")
    set_value(driver, "clock-minutes", 0)
    load_fen(driver, "B:W33:B23")
    wait(driver, "the beginner's move", lambda d: body(d, "ply") == "1")
    path = driver.execute_script("return state.moves.length === 1 ? state.moves[0].path : null")
    if not path:
        raise Failure("White should have exactly one move, the capture")
    for label in path:
        click_cell(driver, label)
    wait(driver, "White's win", lambda d: driver.execute_script(
        "return state && state.result ? state.result.text : ''") == "white wins")


def check_flip_draw_resign(driver):
    Select(driver.find_element(By.ID, "white-player")).select_by_value("engine")
    Select(driver.find_element(By.ID, "black-player")).select_by_value("human")
    if not driver.execute_script("return flipped"):
        raise Failure("the board should turn when the person plays Black")
    Select(driver.find_element(By.ID, "white-player")).select_by_value("human")
    Select(driver.find_element(By.ID, "black-player")).select_by_value("engine")
    if driver.execute_script("return flipped"):
        raise Failure("the board should turn back when the person plays White")
    set_value(driver, "level", 0)
    new_game(driver)
    accept_alert(driver)
    driver.find_element(By.ID, "offer-draw").click()
    answer = body(driver, "drawAnswer")
    if "declines" not in answer:
        raise Failure(f"a draw offered at move 1 should be declined: {answer!r}")
    driver.find_element(By.ID, "resign").click()
    accept_alert(driver)
    wait(driver, "the resignation", lambda d: body(d, "result") == "black wins")
    wait(driver, "the resignation in the PDN",
         lambda d: '[Termination "White resigned"]' in (d.execute_script("return state.pdn") or ""))



def check_page(driver, url, args):
    # Counts the states the page receives, so that a new game at ply 0 can be told apart.
    driver.execute_script("hooks.state.push(() => { window.stateCount = (window.stateCount || 0) + 1; })")
    firsts, scores = check_multipv(driver, args.out)
    check_clock_flags(driver)
    check_engine_clock(driver)
    check_level_one_loses(driver)
    check_flip_draw_resign(driver)
    return "lines: " + ", ".join(f"{m} {s}" for m, s in zip(firsts, scores))


def main():
    return run_browser_test("analysis", __doc__, check_page)


if __name__ == "__main__":
    sys.exit(main())
